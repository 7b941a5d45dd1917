// Static obstacles: the analytic shapes (plane, sphere, rounded box,
// capsule), signed-distance obstacles given by Python callables, obstacle
// sets, vertex-obstacle contacts, their barrier and friction potentials
// (overloads of BarrierPotential and FrictionPotential), point-obstacle CCD
// and the obstacle step size.
//
// Python callbacks. A SignedDistanceObstacle made here holds its callables in
// a CallbackState shared by the C++ std::function wrappers (PyValue,
// PyGradient, PyHessian). Every wrapper takes the GIL before it touches
// Python, so it may run on any thread; an exception raised by a callable is
// recorded in the state (the wrapper returns NaN) and re-raised once the C++
// call has returned. Calls whose obstacle set holds callbacks run their
// parallel loops on one thread (OpenMP's thread count is set to 1 for the
// call) with the GIL released: the callables are never called concurrently
// and no worker thread waits for the GIL. The state's destructor takes the
// GIL too, so copies of the obstacle may be dropped while it is released.

#include "common.hpp"

#include <ipc/barrier/clamped_log_barrier.hpp>
#include <ipc/core/parallel.hpp>
#include <ipc/core/psd_projection.hpp>
#include <ipc/obstacles/obstacle_barrier.hpp>
#include <ipc/obstacles/obstacle_ccd.hpp>
#include <ipc/obstacles/obstacle_collisions.hpp>
#include <ipc/obstacles/obstacle_friction.hpp>
#include <ipc/obstacles/obstacle_set.hpp>
#include <ipc/obstacles/sdf_hessian.hpp>
#include <ipc/obstacles/sdf_obstacle.hpp>
#include <ipc/potentials/barrier_potential.hpp>
#include <ipc/potentials/friction_potential.hpp>

#include <pybind11/stl.h>

#include <cmath>
#include <exception>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ipc_python {

namespace {

    using ipc::BoxObstacle;
    using ipc::CapsuleObstacle;
    using ipc::CollisionMesh;
    using ipc::ObstacleSet;
    using ipc::PlaneObstacle;
    using ipc::SdfObstacle;
    using ipc::SignedDistanceObstacle;
    using ipc::SphereObstacle;
    using V3 = Eigen::Vector3d;

    constexpr double nan = std::numeric_limits<double>::quiet_NaN();

    // ------------------------------------------------------------ callbacks

    /// The Python callables of one SignedDistanceObstacle and the first
    /// error they raised during the current call.
    struct CallbackState {
        py::object value, gradient, hessian; // hessian may be None
        std::exception_ptr error;

        CallbackState(py::object v, py::object g, py::object h)
            : value(std::move(v))
            , gradient(std::move(g))
            , hessian(std::move(h))
        {
        }
        CallbackState(const CallbackState&) = delete;
        CallbackState& operator=(const CallbackState&) = delete;
        ~CallbackState()
        {
            // The last copy may go away while the GIL is released.
            py::gil_scoped_acquire gil;
            error = nullptr;
            value = py::object();
            gradient = py::object();
            hessian = py::object();
        }

        /// Keeps the first error of the call (GIL held).
        void record() noexcept
        {
            if (!error) {
                error = std::current_exception();
            }
        }
    };

    struct PyValue {
        std::shared_ptr<CallbackState> state;
        double operator()(const V3& p) const
        {
            py::gil_scoped_acquire gil;
            if (state->error) {
                return nan;
            }
            try {
                const py::object r = state->value(to_numpy(p));
                const double v = PyFloat_AsDouble(r.ptr());
                if (v == -1.0 && PyErr_Occurred()) {
                    PyErr_Clear();
                    throw ipc::invalid_argument(ipc::detail::concat(
                        "SignedDistanceObstacle: the value callback must return a float, got ",
                        std::string(py::str(py::type::of(r)))));
                }
                return v;
            } catch (...) {
                state->record();
                return nan;
            }
        }
    };

    struct PyGradient {
        std::shared_ptr<CallbackState> state;
        V3 operator()(const V3& p) const
        {
            py::gil_scoped_acquire gil;
            if (state->error) {
                return V3::Constant(nan);
            }
            try {
                const py::object r = state->gradient(to_numpy(p));
                return float_vector(r, "SignedDistanceObstacle", "the gradient callback's return value", 3);
            } catch (...) {
                state->record();
                return V3::Constant(nan);
            }
        }
    };

    struct PyHessian {
        std::shared_ptr<CallbackState> state;
        Eigen::Matrix3d operator()(const V3& p) const
        {
            py::gil_scoped_acquire gil;
            if (state->error) {
                return Eigen::Matrix3d::Constant(nan);
            }
            try {
                const py::object r = state->hessian(to_numpy(p));
                const FloatMatrix h =
                    float_matrix(r, "SignedDistanceObstacle", "the hessian callback's return value", 3, 3);
                return h.map;
            } catch (...) {
                state->record();
                return Eigen::Matrix3d::Constant(nan);
            }
        }
    };

    /// Scope of one C++ call that may run Python callbacks: clears their
    /// errors, runs the parallel loops on one thread while it lives (when
    /// there are callbacks) and re-raises the first callback error.
    class CallbackScope {
    public:
        CallbackScope() = default;
        explicit CallbackScope(const ObstacleSet& set)
        {
            for (const SignedDistanceObstacle& f : set.functions) {
                add(f);
            }
            begin(!set.functions.empty());
        }
        explicit CallbackScope(const SignedDistanceObstacle& f)
        {
            add(f);
            begin(true);
        }
        CallbackScope(const CallbackScope&) = delete;
        CallbackScope& operator=(const CallbackScope&) = delete;
        ~CallbackScope()
        {
#if IPC_HAS_OPENMP
            if (saved_threads_ > 0) {
                omp_set_num_threads(saved_threads_);
            }
#endif
        }

        /// Throws the first error a callback raised (GIL held).
        void rethrow()
        {
            for (const auto& s : states_) {
                if (s->error) {
                    std::exception_ptr e = std::move(s->error);
                    s->error = nullptr;
                    std::rethrow_exception(e);
                }
            }
        }

    private:
        void add(const SignedDistanceObstacle& f)
        {
            if (const PyValue* v = f.value.target<PyValue>()) {
                states_.push_back(v->state);
            }
        }
        void begin(bool serial)
        {
            for (const auto& s : states_) {
                s->error = nullptr;
            }
#if IPC_HAS_OPENMP
            if (serial) {
                saved_threads_ = omp_get_max_threads();
                omp_set_num_threads(1);
            }
#else
            (void)serial;
#endif
        }

        std::vector<std::shared_ptr<CallbackState>> states_;
        int saved_threads_ = 0;
    };

    /// Runs f() with the GIL released inside `scope`, then re-raises a
    /// callback error (before any C++ error it caused) or the C++ error.
    template <typename F> auto run(CallbackScope& scope, F&& f) -> decltype(f())
    {
        std::exception_ptr cpp_error;
        std::optional<decltype(f())> result;
        {
            py::gil_scoped_release release;
            try {
                result.emplace(f());
            } catch (...) {
                cpp_error = std::current_exception();
            }
        }
        scope.rethrow();
        if (cpp_error) {
            std::rethrow_exception(cpp_error);
        }
        return std::move(*result);
    }

    // -------------------------------------------------------------- shapes

    /// The analytic shape held by obj, if it is one.
    std::optional<SdfObstacle> as_shape(const py::handle& obj)
    {
        if (py::isinstance<PlaneObstacle>(obj)) {
            return SdfObstacle(obj.cast<const PlaneObstacle&>());
        }
        if (py::isinstance<SphereObstacle>(obj)) {
            return SdfObstacle(obj.cast<const SphereObstacle&>());
        }
        if (py::isinstance<BoxObstacle>(obj)) {
            return SdfObstacle(obj.cast<const BoxObstacle&>());
        }
        if (py::isinstance<CapsuleObstacle>(obj)) {
            return SdfObstacle(obj.cast<const CapsuleObstacle&>());
        }
        return std::nullopt;
    }

    std::string type_name(const py::handle& obj) { return std::string(py::str(py::type::of(obj))); }

    /// An analytic shape or throws naming who.
    SdfObstacle shape_argument(const py::handle& obj, const char* who)
    {
        std::optional<SdfObstacle> s = as_shape(obj);
        ipc::require(s.has_value(), who,
                     ": obstacle must be a PlaneObstacle, SphereObstacle, BoxObstacle or CapsuleObstacle, got ",
                     type_name(obj));
        return *s;
    }

    /// Python object for a shape of the variant (a copy).
    py::object shape_to_python(const SdfObstacle& s)
    {
        return std::visit([](const auto& shape) { return py::cast(shape); }, s);
    }

    /// Sets a field of a shape through a validated copy.
    template <typename Shape, typename Set> void set_checked(Shape& shape, Set&& set)
    {
        Shape copy = shape;
        set(copy);
        ipc::check_obstacle(copy);
        shape = copy;
    }

    /// Evaluates f(p) on one point ((3,) -> f's value) or on rows of an
    /// (n, 3) array (-> stacked values). Out is a fixed-size Eigen type or
    /// double.
    template <typename Out, typename F>
    py::object per_point(const py::handle& P, const char* who, CallbackScope& scope, F&& f)
    {
        const py::array array = py::array::ensure(P);
        const bool single = array && array.ndim() == 1;
        if (single) {
            const V3 p = float_vector(P, who, "p", 3);
            const Out r = run(scope, [&] { return f(p); });
            if constexpr (std::is_same_v<Out, double>) {
                return py::float_(r);
            } else {
                return to_numpy(r);
            }
        }
        PyErr_Clear();
        const FloatMatrix points = float_matrix(P, who, "p (a (3,) point or an (n, 3) array)", -1, 3);
        const Eigen::Index n = points.rows();
        std::vector<Out> out(static_cast<std::size_t>(n));
        run(scope, [&] {
            for (Eigen::Index i = 0; i < n; ++i) {
                out[std::size_t(i)] = f(V3(points.map.row(i).transpose()));
            }
            return 0;
        });
        if constexpr (std::is_same_v<Out, double>) {
            py::array_t<double> r(n);
            std::copy(out.begin(), out.end(), r.mutable_data());
            return std::move(r);
        } else {
            constexpr int rows = Out::RowsAtCompileTime, cols = Out::ColsAtCompileTime;
            std::vector<py::ssize_t> shape { py::ssize_t(n), rows };
            if (cols > 1) {
                shape.push_back(cols);
            }
            py::array_t<double> r(shape);
            double* d = r.mutable_data();
            for (std::size_t i = 0; i < out.size(); ++i) {
                for (int a = 0; a < rows; ++a) {
                    for (int b = 0; b < cols; ++b) {
                        *d++ = out[i](a, b);
                    }
                }
            }
            return std::move(r);
        }
    }

    /// Calls f(shape) for an analytic shape or g(function obstacle), with the
    /// matching callback scope.
    template <typename Shape, typename Function>
    py::object on_obstacle(const py::handle& obstacle, const char* who, Shape&& shape_case,
                           Function&& function_case)
    {
        if (std::optional<SdfObstacle> s = as_shape(obstacle)) {
            return shape_case(*s);
        }
        if (py::isinstance<SignedDistanceObstacle>(obstacle)) {
            return function_case(obstacle.cast<const SignedDistanceObstacle&>());
        }
        throw ipc::invalid_argument(ipc::detail::concat(
            who, ": obstacle must be a PlaneObstacle, SphereObstacle, BoxObstacle, CapsuleObstacle or "
                 "SignedDistanceObstacle, got ",
            type_name(obstacle)));
    }

    /// Copies a Python sequence of shapes into the variant list.
    std::vector<SdfObstacle> shape_list(const py::handle& obj)
    {
        std::vector<SdfObstacle> out;
        if (obj.is_none()) {
            return out;
        }
        for (const py::handle item : obj) {
            std::optional<SdfObstacle> s = as_shape(item);
            ipc::require(s.has_value(), "ObstacleSet: shapes must hold PlaneObstacle, SphereObstacle, BoxObstacle "
                                        "or CapsuleObstacle objects (SignedDistanceObstacle objects go in "
                                        "functions), got ",
                         type_name(item));
            out.push_back(*s);
        }
        return out;
    }

    std::vector<SignedDistanceObstacle> function_list(const py::handle& obj)
    {
        std::vector<SignedDistanceObstacle> out;
        if (obj.is_none()) {
            return out;
        }
        for (const py::handle item : obj) {
            ipc::require(py::isinstance<SignedDistanceObstacle>(item),
                         "ObstacleSet: functions must hold SignedDistanceObstacle objects, got ", type_name(item));
            out.push_back(item.cast<const SignedDistanceObstacle&>());
        }
        return out;
    }

    void check_obstacle_index(const ObstacleSet& set, Index k, const char* who)
    {
        check_index(k, set.size(), who, "obstacle index");
    }

    py::tuple mesh_to_python(const ipc::ObstacleMesh& mesh)
    {
        py::array_t<double> V({ py::ssize_t(mesh.vertices.rows()), py::ssize_t(3) });
        auto v = V.mutable_unchecked<2>();
        for (Eigen::Index i = 0; i < mesh.vertices.rows(); ++i) {
            for (int j = 0; j < 3; ++j) {
                v(i, j) = mesh.vertices(i, j);
            }
        }
        py::array_t<std::int64_t> F({ py::ssize_t(mesh.faces.rows()), py::ssize_t(3) });
        auto f = F.mutable_unchecked<2>();
        for (Eigen::Index i = 0; i < mesh.faces.rows(); ++i) {
            for (int j = 0; j < 3; ++j) {
                f(i, j) = mesh.faces(i, j);
            }
        }
        return py::make_tuple(V, F);
    }

    const char* const sparse_note = " Returned as a scipy.sparse.csr_matrix of shape (3n, 3n) (x, y, z per vertex) "
                                    "when SciPy imports, else as a (rows, cols, values) tuple of NumPy arrays.";

} // namespace

void bind_obstacles(py::module_& m)
{
    // ------------------------------------------------------------- shapes
    py::class_<PlaneObstacle>(m, "PlaneObstacle",
                              "Half-space below a plane (analytic obstacle): points p with (p - point) . normal < 0 "
                              "are inside. Signed distance (p - point) . normal (m).")
        .def(py::init([](const py::object& point, const py::object& normal) {
                 const char* who = "PlaneObstacle";
                 PlaneObstacle plane(float_vector(point, who, "point", 3), float_vector(normal, who, "normal", 3));
                 ipc::check_obstacle(plane);
                 return plane;
             }),
             py::arg("point") = py::make_tuple(0.0, 0.0, 0.0), py::arg("normal") = py::make_tuple(0.0, 0.0, 1.0),
             "The plane through point ((3,) floats, m) with outward normal ((3,), normalised here). Defaults: "
             "the plane z = 0, inside z < 0. Raises ValueError for non-finite values or a zero normal.")
        .def_property(
            "point", [](const PlaneObstacle& s) { return to_numpy(s.point); },
            [](PlaneObstacle& s, const py::object& p) {
                set_checked(s, [&](PlaneObstacle& c) { c.point = float_vector(p, "PlaneObstacle", "point", 3); });
            },
            "a point of the plane, (3,) floats (m)")
        .def_property(
            "normal", [](const PlaneObstacle& s) { return to_numpy(s.normal); },
            [](PlaneObstacle& s, const py::object& n) {
                set_checked(s, [&](PlaneObstacle& c) {
                    c = PlaneObstacle(c.point, float_vector(n, "PlaneObstacle", "normal", 3));
                });
            },
            "outward unit normal, (3,) floats (normalised on assignment)")
        .def("__repr__", [](const PlaneObstacle& s) {
            return ipc::detail::concat("PlaneObstacle(point=(", s.point[0], ", ", s.point[1], ", ", s.point[2],
                                       "), normal=(", s.normal[0], ", ", s.normal[1], ", ", s.normal[2], "))");
        });

    py::class_<SphereObstacle>(m, "SphereObstacle",
                               "Ball of the given radius around center (analytic obstacle). Signed distance "
                               "|p - center| - radius (m).")
        .def(py::init([](const py::object& center, double radius) {
                 SphereObstacle s;
                 s.center = float_vector(center, "SphereObstacle", "center", 3);
                 s.radius = radius;
                 ipc::check_obstacle(s);
                 return s;
             }),
             py::arg("center") = py::make_tuple(0.0, 0.0, 0.0), py::arg("radius") = 1.0,
             "center: (3,) floats (m); radius (m, > 0). Raises ValueError for non-finite values or a radius <= 0.")
        .def_property(
            "center", [](const SphereObstacle& s) { return to_numpy(s.center); },
            [](SphereObstacle& s, const py::object& p) {
                set_checked(s, [&](SphereObstacle& c) { c.center = float_vector(p, "SphereObstacle", "center", 3); });
            },
            "centre, (3,) floats (m)")
        .def_property(
            "radius", [](const SphereObstacle& s) { return s.radius; },
            [](SphereObstacle& s, double r) { set_checked(s, [&](SphereObstacle& c) { c.radius = r; }); },
            "radius (m, > 0; ValueError otherwise)")
        .def("__repr__", [](const SphereObstacle& s) {
            return ipc::detail::concat("SphereObstacle(center=(", s.center[0], ", ", s.center[1], ", ", s.center[2],
                                       "), radius=", s.radius, ")");
        });

    py::class_<BoxObstacle>(m, "BoxObstacle",
                            "Axis-aligned box with rounded edges (analytic obstacle): the points within rounding of "
                            "[center - half_extents, center + half_extents]; rounding 0 is a sharp box.")
        .def(py::init([](const py::object& center, const py::object& half_extents, double rounding) {
                 BoxObstacle b;
                 b.center = float_vector(center, "BoxObstacle", "center", 3);
                 b.half_extents = float_vector(half_extents, "BoxObstacle", "half_extents", 3);
                 b.rounding = rounding;
                 ipc::check_obstacle(b);
                 return b;
             }),
             py::arg("center") = py::make_tuple(0.0, 0.0, 0.0), py::arg("half_extents") = py::make_tuple(1.0, 1.0, 1.0),
             py::arg("rounding") = 0.0,
             "center: (3,) floats (m); half_extents: (3,) floats (m, >= 0); rounding (m, >= 0). Raises ValueError "
             "for non-finite or negative values.")
        .def_property(
            "center", [](const BoxObstacle& s) { return to_numpy(s.center); },
            [](BoxObstacle& s, const py::object& p) {
                set_checked(s, [&](BoxObstacle& c) { c.center = float_vector(p, "BoxObstacle", "center", 3); });
            },
            "centre, (3,) floats (m)")
        .def_property(
            "half_extents", [](const BoxObstacle& s) { return to_numpy(s.half_extents); },
            [](BoxObstacle& s, const py::object& p) {
                set_checked(s, [&](BoxObstacle& c) {
                    c.half_extents = float_vector(p, "BoxObstacle", "half_extents", 3);
                });
            },
            "half-extents of the sharp box, (3,) floats (m, >= 0)")
        .def_property(
            "rounding", [](const BoxObstacle& s) { return s.rounding; },
            [](BoxObstacle& s, double r) { set_checked(s, [&](BoxObstacle& c) { c.rounding = r; }); },
            "rounding radius (m, >= 0)")
        .def("__repr__", [](const BoxObstacle& s) {
            return ipc::detail::concat("BoxObstacle(center=(", s.center[0], ", ", s.center[1], ", ", s.center[2],
                                       "), half_extents=(", s.half_extents[0], ", ", s.half_extents[1], ", ",
                                       s.half_extents[2], "), rounding=", s.rounding, ")");
        });

    py::class_<CapsuleObstacle>(m, "CapsuleObstacle",
                                "Points within radius of the segment [a, b] (analytic obstacle; a == b is a sphere).")
        .def(py::init([](const py::object& a, const py::object& b, double radius) {
                 CapsuleObstacle c;
                 c.a = float_vector(a, "CapsuleObstacle", "a", 3);
                 c.b = float_vector(b, "CapsuleObstacle", "b", 3);
                 c.radius = radius;
                 ipc::check_obstacle(c);
                 return c;
             }),
             py::arg("a") = py::make_tuple(0.0, 0.0, 0.0), py::arg("b") = py::make_tuple(0.0, 0.0, 1.0), py::arg("radius") = 1.0,
             "a, b: axis ends, (3,) floats (m); radius (m, > 0). Raises ValueError for non-finite values or a "
             "radius <= 0.")
        .def_property(
            "a", [](const CapsuleObstacle& s) { return to_numpy(s.a); },
            [](CapsuleObstacle& s, const py::object& p) {
                set_checked(s, [&](CapsuleObstacle& c) { c.a = float_vector(p, "CapsuleObstacle", "a", 3); });
            },
            "axis end, (3,) floats (m)")
        .def_property(
            "b", [](const CapsuleObstacle& s) { return to_numpy(s.b); },
            [](CapsuleObstacle& s, const py::object& p) {
                set_checked(s, [&](CapsuleObstacle& c) { c.b = float_vector(p, "CapsuleObstacle", "b", 3); });
            },
            "other axis end, (3,) floats (m)")
        .def_property(
            "radius", [](const CapsuleObstacle& s) { return s.radius; },
            [](CapsuleObstacle& s, double r) { set_checked(s, [&](CapsuleObstacle& c) { c.radius = r; }); },
            "radius (m, > 0)")
        .def("__repr__", [](const CapsuleObstacle& s) {
            return ipc::detail::concat("CapsuleObstacle(a=(", s.a[0], ", ", s.a[1], ", ", s.a[2], "), b=(", s.b[0],
                                       ", ", s.b[1], ", ", s.b[2], "), radius=", s.radius, ")");
        });

    // ------------------------------------------------- callback obstacles
    py::class_<SignedDistanceObstacle>(
        m, "SignedDistanceObstacle",
        "A general signed-distance obstacle given by Python callables (lengths in m): value(p) -> float (negative "
        "inside), gradient(p) -> (3,) (the outward unit normal for a true distance), optional hessian(p) -> "
        "(3, 3) (1/m; without it the barrier uses the Gauss-Newton term of the tangent-plane model), and a "
        "Lipschitz bound >= 1 of value (the CCD relies on it). p is a (3,) float64 array. The callables are "
        "called with the GIL held, never concurrently: calls whose obstacles include a SignedDistanceObstacle "
        "run their loops on one thread. An exception raised by a callable propagates out of the call that used "
        "it.")
        .def(py::init([](const py::object& value, const py::object& gradient, const py::object& hessian,
                         double lipschitz) {
                 const char* who = "SignedDistanceObstacle";
                 ipc::require(PyCallable_Check(value.ptr()), who, ": value must be callable, got ", type_name(value));
                 ipc::require(PyCallable_Check(gradient.ptr()), who, ": gradient must be callable, got ",
                              type_name(gradient));
                 ipc::require(hessian.is_none() || PyCallable_Check(hessian.ptr()), who,
                              ": hessian must be callable or None, got ", type_name(hessian));
                 auto state = std::make_shared<CallbackState>(value, gradient, hessian);
                 SignedDistanceObstacle f;
                 f.value = PyValue { state };
                 f.gradient = PyGradient { state };
                 if (!hessian.is_none()) {
                     f.hessian = PyHessian { state };
                 }
                 f.lipschitz = lipschitz;
                 ipc::check_obstacle(f);
                 return f;
             }),
             py::arg("value"), py::arg("gradient"), py::arg("hessian") = py::none(), py::arg("lipschitz") = 1.0,
             "value, gradient: callables of a (3,) point; hessian: callable or None; lipschitz: finite, >= 1 (1 "
             "for an exact signed distance). Raises ValueError otherwise.")
        .def_property(
            "lipschitz", [](const SignedDistanceObstacle& f) { return f.lipschitz; },
            [](SignedDistanceObstacle& f, double l) {
                SignedDistanceObstacle copy = f;
                copy.lipschitz = l;
                ipc::check_obstacle(copy);
                f.lipschitz = l;
            },
            "Lipschitz bound of the signed distance (finite, >= 1)")
        .def_property_readonly(
            "has_hessian", [](const SignedDistanceObstacle& f) { return bool(f.hessian); },
            "True when a hessian callable was given");

    // ---------------------------------------------- shape-level functions
    m.def(
        "check_obstacle",
        [](const py::object& obstacle) {
            on_obstacle(
                obstacle, "check_obstacle",
                [](const SdfObstacle& s) {
                    ipc::check_obstacle(s);
                    return py::object();
                },
                [](const SignedDistanceObstacle& f) {
                    ipc::check_obstacle(f);
                    return py::object();
                });
        },
        py::arg("obstacle"),
        "Raises ValueError naming the problem when the obstacle (any analytic shape or a "
        "SignedDistanceObstacle) is invalid: non-finite values, a zero normal, a radius <= 0, negative "
        "half-extents or rounding, a Lipschitz bound < 1.");
    m.def(
        "obstacle_name",
        [](const py::object& obstacle) {
            return on_obstacle(
                obstacle, "obstacle_name", [](const SdfObstacle& s) { return py::str(ipc::obstacle_name(s)); },
                [](const SignedDistanceObstacle&) { return py::str("function"); });
        },
        py::arg("obstacle"), "'plane', 'sphere', 'box', 'capsule' or 'function'.");
    m.def(
        "signed_distance",
        [](const py::object& obstacle, const py::object& p) {
            const char* who = "signed_distance";
            return on_obstacle(
                obstacle, who,
                [&](const SdfObstacle& s) {
                    CallbackScope scope;
                    return per_point<double>(p, who, scope, [&](const V3& x) { return ipc::signed_distance(s, x); });
                },
                [&](const SignedDistanceObstacle& f) {
                    CallbackScope scope(f);
                    return per_point<double>(p, who, scope, [&](const V3& x) { return f.value(x); });
                });
        },
        py::arg("obstacle"), py::arg("p"),
        "Signed distance (m) from p to the obstacle's surface: negative inside, positive outside, the exact "
        "Euclidean distance for the analytic shapes. p: a (3,) point (-> float) or an (n, 3) array (-> (n,)). "
        "Raises ValueError for a wrong shape or a non-obstacle.");
    m.def(
        "signed_distance_gradient",
        [](const py::object& obstacle, const py::object& p) {
            const char* who = "signed_distance_gradient";
            return on_obstacle(
                obstacle, who,
                [&](const SdfObstacle& s) {
                    CallbackScope scope;
                    return per_point<V3>(p, who, scope,
                                         [&](const V3& x) { return ipc::signed_distance_gradient(s, x); });
                },
                [&](const SignedDistanceObstacle& f) {
                    CallbackScope scope(f);
                    return per_point<V3>(p, who, scope, [&](const V3& x) { return f.gradient(x); });
                });
        },
        py::arg("obstacle"), py::arg("p"),
        "Unit gradient of the signed distance (the outward normal of the nearest surface point; a valid "
        "subgradient where it is not unique). p: (3,) -> (3,), or (n, 3) -> (n, 3).");
    m.def(
        "signed_distance_hessian",
        [](const py::object& obstacle, const py::object& p) {
            const char* who = "signed_distance_hessian";
            return on_obstacle(
                obstacle, who,
                [&](const SdfObstacle& s) {
                    CallbackScope scope;
                    return per_point<Eigen::Matrix3d>(
                        p, who, scope, [&](const V3& x) { return ipc::signed_distance_hessian(s, x); });
                },
                [&](const SignedDistanceObstacle& f) {
                    CallbackScope scope(f);
                    return per_point<Eigen::Matrix3d>(p, who, scope, [&](const V3& x) {
                        return f.hessian ? f.hessian(x) : Eigen::Matrix3d::Zero().eval();
                    });
                });
        },
        py::arg("obstacle"), py::arg("p"),
        "Hessian of the signed distance (1/m), positive semi-definite for the analytic shapes (zero for a "
        "plane); a SignedDistanceObstacle's hessian callable (zero without one). p: (3,) -> (3, 3), or (n, 3) "
        "-> (n, 3, 3).");
    m.def(
        "min_curvature_radius",
        [](const py::object& obstacle) {
            return ipc::min_curvature_radius(shape_argument(obstacle, "min_curvature_radius"));
        },
        py::arg("obstacle"),
        "Smallest radius of curvature of an analytic shape's surface (m): the sphere's or capsule's radius, the "
        "box's rounding, inf for a plane.");
    m.def(
        "segment_clear_of_obstacle",
        [](const py::object& obstacle, const py::object& p0, const py::object& p1, double margin) {
            const char* who = "segment_clear_of_obstacle";
            const SdfObstacle s = shape_argument(obstacle, who);
            return ipc::segment_clear_of_obstacle(s, float_vector(p0, who, "p0", 3), float_vector(p1, who, "p1", 3),
                                                  margin);
        },
        py::arg("obstacle"), py::arg("p0"), py::arg("p1"), py::arg("margin") = 0.0,
        "True when every point of the segment p0 -> p1 ((3,) floats, m) is at signed distance >= margin (m) "
        "from the analytic shape (exact minimum, less a rounding slack of about 1e-12 relative); False for NaN "
        "input.");
    m.def(
        "obstacle_mesh",
        [](const py::object& obstacle, int resolution, double extent) {
            return mesh_to_python(ipc::obstacle_mesh(shape_argument(obstacle, "obstacle_mesh"), resolution, extent));
        },
        py::arg("obstacle"), py::arg("resolution") = 24, py::arg("extent") = 1.0,
        "Triangle mesh inscribed in an analytic shape (for drawing): (V (n, 3) floats, F (k, 3) int64), closed "
        "and outward oriented except for the plane (an open square board of half-size extent, m). resolution: "
        "segments around a circle, in [8, 10000]. Raises ValueError for bad parameters.");

    // ------------------------------------------------------- obstacle set
    py::class_<ObstacleSet>(m, "ObstacleSet",
                            "The static obstacles of a scene as one indexed list: the analytic shapes first "
                            "(indices 0 .. len(shapes) - 1), then the SignedDistanceObstacle objects.")
        .def(py::init([](const py::object& shapes, const py::object& functions) {
                 return ObstacleSet(shape_list(shapes), function_list(functions));
             }),
             py::arg("shapes") = py::none(), py::arg("functions") = py::none(),
             "shapes: a sequence of PlaneObstacle, SphereObstacle, BoxObstacle, CapsuleObstacle; functions: a "
             "sequence of SignedDistanceObstacle (copies are kept; the callables are shared). Raises ValueError "
             "for an object of another type.")
        .def("size", &ObstacleSet::size, "number of obstacles")
        .def("__len__", &ObstacleSet::size)
        .def("empty", &ObstacleSet::empty, "True when there is no obstacle")
        .def_property_readonly(
            "shapes",
            [](const ObstacleSet& s) {
                py::list out;
                for (const SdfObstacle& shape : s.shapes) {
                    out.append(shape_to_python(shape));
                }
                return out;
            },
            "the analytic shapes (a list of copies)")
        .def_property_readonly(
            "functions",
            [](const ObstacleSet& s) {
                py::list out;
                for (const SignedDistanceObstacle& f : s.functions) {
                    out.append(py::cast(f));
                }
                return out;
            },
            "the SignedDistanceObstacle objects (a list of copies sharing the callables)")
        .def(
            "is_shape",
            [](const ObstacleSet& s, Index k) {
                check_obstacle_index(s, k, "ObstacleSet.is_shape");
                return s.is_shape(k);
            },
            py::arg("k"), "True when obstacle k is an analytic shape. Raises ValueError for k out of range.")
        .def(
            "name",
            [](const ObstacleSet& s, Index k) {
                check_obstacle_index(s, k, "ObstacleSet.name");
                return std::string(s.name(k));
            },
            py::arg("k"), "'plane', 'sphere', 'box', 'capsule' or 'function' for obstacle k.")
        .def(
            "lipschitz",
            [](const ObstacleSet& s, Index k) {
                check_obstacle_index(s, k, "ObstacleSet.lipschitz");
                return s.lipschitz(k);
            },
            py::arg("k"), "Lipschitz bound of obstacle k's signed distance (1 for a shape).")
        .def(
            "check", [](const ObstacleSet& s) { s.check("ObstacleSet.check"); },
            "Raises ValueError naming the first invalid obstacle.")
        .def("__repr__", [](const ObstacleSet& s) {
            return ipc::detail::concat("ObstacleSet(shapes=", s.shapes.size(), ", functions=", s.functions.size(),
                                       ")");
        });

    // -------------------------------------------------- contacts (barrier)
    using ipc::ObstacleCollisions;
    py::class_<ObstacleCollisions>(
        m, "ObstacleCollisions",
        "The active vertex-obstacle contacts: every colliding, non-prescribed vertex of a 3D CollisionMesh whose "
        "signed distance to an obstacle is below its offset xi (vertex radius + dmin) plus dhat. Keeps a copy of "
        "the obstacles. Add BarrierPotential(contacts, mesh, V) to the mesh-mesh barrier.")
        .def(py::init<>(), "An empty set.")
        .def(
            "build",
            [](ObstacleCollisions& c, const CollisionMesh& mesh, const py::object& V, const ObstacleSet& obstacles,
               double dhat, double dmin) {
                const FloatMatrix v = float_matrix(V, "ObstacleCollisions.build", "V");
                CallbackScope scope(obstacles);
                run(scope, [&] {
                    c.build(mesh, v.map, obstacles, dhat, dmin);
                    return 0;
                });
            },
            py::arg("mesh"), py::arg("V"), py::arg("obstacles"), py::arg("dhat"), py::arg("dmin") = 0.0,
            "Builds the contacts at positions V ((n, 3) floats, m) against obstacles (an ObstacleSet) with "
            "activation distance dhat (m, > 0) and extra offset dmin (m, >= 0). Vertices at or inside their "
            "offset are kept (the barrier then raises PenetrationError). Raises ValueError for a 2D mesh, bad "
            "positions or parameters, an invalid obstacle or a NaN signed distance.")
        .def("size", &ObstacleCollisions::size, "number of contacts")
        .def("__len__", &ObstacleCollisions::size)
        .def("empty", &ObstacleCollisions::empty, "True when no vertex is near an obstacle")
        .def("clear", &ObstacleCollisions::clear, "removes every contact and the obstacles")
        .def_property_readonly("dhat", &ObstacleCollisions::dhat, "activation distance of the last build (m; 0 if none)")
        .def_property_readonly("dmin", &ObstacleCollisions::dmin, "extra offset of the last build (m)")
        .def_property_readonly(
            "obstacles", [](const ObstacleCollisions& c) { return c.obstacles; },
            "the ObstacleSet the contacts refer to (a copy)")
        .def_property_readonly(
            "vertex_obstacle",
            [](const ObstacleCollisions& c) {
                return index_rows<2>(c.vertex_obstacle, [](const ipc::VertexObstacleCollision& s) {
                    return std::array<Index, 2> { s.vertex, s.obstacle };
                });
            },
            "(k, 2) int64: (vertex, obstacle index) of every contact, by increasing vertex then obstacle")
        .def(
            "offsets",
            [](const ObstacleCollisions& c) {
                py::array_t<double> out(py::ssize_t(c.size()));
                double* d = out.mutable_data();
                for (std::size_t k = 0; k < c.size(); ++k) {
                    d[k] = c.vertex_obstacle[k].offset;
                }
                return out;
            },
            "Offsets xi (m) of every contact (vertex radius + dmin).")
        .def("__repr__", [](const ObstacleCollisions& c) {
            return ipc::detail::concat("ObstacleCollisions(size=", c.size(), ", dhat=", c.dhat(), ")");
        });

    using Barrier = ipc::BarrierPotential<ipc::ClampedLogBarrier>;
    auto barrier = py::reinterpret_borrow<py::class_<Barrier>>(m.attr("BarrierPotential"));
    barrier
        .def(
            "__call__",
            [](const Barrier& b, const ObstacleCollisions& c, const CollisionMesh& mesh, const py::object& V) {
                const FloatMatrix v = float_matrix(V, "BarrierPotential", "V");
                CallbackScope scope(c.obstacles);
                return run(scope, [&] { return b(c, mesh, v.map); });
            },
            py::arg("contacts"), py::arg("mesh"), py::arg("V"),
            "Barrier energy (kappa included) of vertex-obstacle contacts at positions V ((n, 3) floats, m): "
            "kappa sum_k b(phi_k^2 - xi_k^2, 2 xi_k dhat + dhat^2) with phi the obstacle's signed distance. "
            "Raises ValueError for a 2D mesh, bad positions or a set built with another dhat, PenetrationError "
            "when a vertex is at or inside its offset.")
        .def(
            "gradient",
            [](const Barrier& b, const ObstacleCollisions& c, const CollisionMesh& mesh, const py::object& V) {
                const FloatMatrix v = float_matrix(V, "BarrierPotential.gradient", "V");
                CallbackScope scope(c.obstacles);
                return to_numpy(run(scope, [&] { return b.gradient(c, mesh, v.map); }));
            },
            py::arg("contacts"), py::arg("mesh"), py::arg("V"),
            "Gradient (3n,) of the obstacle barrier energy. Validates as __call__.")
        .def(
            "hessian",
            [](const Barrier& b, const ObstacleCollisions& c, const CollisionMesh& mesh, const py::object& V,
               ipc::PSDProjection projection) {
                const FloatMatrix v = float_matrix(V, "BarrierPotential.hessian", "V");
                CallbackScope scope(c.obstacles);
                return sparse_to_python(run(scope, [&] { return b.hessian(c, mesh, v.map, projection); }));
            },
            py::arg("contacts"), py::arg("mesh"), py::arg("V"), py::arg("projection") = ipc::PSDProjection::none,
            (std::string("Hessian of the obstacle barrier energy (exact Hessians of the analytic shapes' signed "
                         "distances, the callable's or zero for a SignedDistanceObstacle), each contact's 3 x 3 "
                         "block projected to PSD first unless projection is NONE.") +
             sparse_note)
                .c_str());

    // ------------------------------------------------- contacts (friction)
    using ipc::ObstacleFrictionCollisions;
    py::class_<ObstacleFrictionCollisions>(
        m, "ObstacleFrictionCollisions",
        "Lagged friction of vertex-obstacle contacts: per contact of an ObstacleCollisions set, the normal "
        "(the signed-distance gradient at the lag point), the tangent basis, the normal force of the clamped "
        "log barrier and mu; evaluated by FrictionPotential(contacts, mesh, U).")
        .def(py::init<>(), "An empty set.")
        .def(
            "build",
            [](ObstacleFrictionCollisions& f, const ObstacleCollisions& c, const CollisionMesh& mesh,
               const py::object& V, double dhat, double kappa, double mu) {
                const FloatMatrix v = float_matrix(V, "ObstacleFrictionCollisions.build", "V");
                CallbackScope scope(c.obstacles);
                run(scope, [&] {
                    f.build(c, mesh, v.map, dhat, kappa, mu);
                    return 0;
                });
            },
            py::arg("contacts"), py::arg("mesh"), py::arg("V"), py::arg("dhat"), py::arg("kappa"), py::arg("mu"),
            "Builds one frictional contact per contact of contacts (built at V) from the lag positions V ((n, 3), "
            "m), the barrier's dhat (m) and kappa, and the friction coefficient mu >= 0. Raises ValueError for "
            "bad input or another dhat, PenetrationError when a vertex is inside its offset, "
            "DegenerateGeometryError when an obstacle's gradient vanishes at a contact.")
        .def("size", &ObstacleFrictionCollisions::size, "number of contacts")
        .def("__len__", &ObstacleFrictionCollisions::size)
        .def("empty", &ObstacleFrictionCollisions::empty, "True when there is no contact")
        .def("clear", &ObstacleFrictionCollisions::clear, "removes every contact")
        .def_property_readonly(
            "vertex_obstacle",
            [](const ObstacleFrictionCollisions& f) {
                return index_rows<2>(f.vertex_obstacle, [](const ipc::VertexObstacleFriction& s) {
                    return std::array<Index, 2> { s.vertex, s.obstacle };
                });
            },
            "(k, 2) int64: (vertex, obstacle index) of every contact")
        .def(
            "normal_forces",
            [](const ObstacleFrictionCollisions& f) {
                py::array_t<double> out(py::ssize_t(f.size()));
                double* d = out.mutable_data();
                for (std::size_t k = 0; k < f.size(); ++k) {
                    d[k] = f.vertex_obstacle[k].contact.normal_force;
                }
                return out;
            },
            "Normal-force magnitudes lambda (N when the barrier energy is in J) of every contact.")
        .def("__repr__", [](const ObstacleFrictionCollisions& f) {
            return ipc::detail::concat("ObstacleFrictionCollisions(size=", f.size(), ")");
        });

    using Friction = ipc::FrictionPotential<>;
    auto friction = py::reinterpret_borrow<py::class_<Friction>>(m.attr("FrictionPotential"));
    friction
        .def(
            "__call__",
            [](const Friction& f, const ObstacleFrictionCollisions& c, const CollisionMesh& mesh,
               const py::object& U) {
                const FloatMatrix u = float_matrix(U, "FrictionPotential", "U");
                py::gil_scoped_release release;
                return f(c, mesh, u.map);
            },
            py::arg("contacts"), py::arg("mesh"), py::arg("U"),
            "Friction energy of lagged vertex-obstacle contacts for displacements U ((n, 3) floats, m). Raises "
            "ValueError for a 2D mesh, bad displacements or out-of-range vertices.")
        .def(
            "gradient",
            [](const Friction& f, const ObstacleFrictionCollisions& c, const CollisionMesh& mesh,
               const py::object& U) {
                const FloatMatrix u = float_matrix(U, "FrictionPotential.gradient", "U");
                Eigen::VectorXd g;
                {
                    py::gil_scoped_release release;
                    g = f.gradient(c, mesh, u.map);
                }
                return to_numpy(std::move(g));
            },
            py::arg("contacts"), py::arg("mesh"), py::arg("U"),
            "Gradient (3n,) of the obstacle friction energy.")
        .def(
            "hessian",
            [](const Friction& f, const ObstacleFrictionCollisions& c, const CollisionMesh& mesh,
               const py::object& U, ipc::PSDProjection projection) {
                const FloatMatrix u = float_matrix(U, "FrictionPotential.hessian", "U");
                Eigen::SparseMatrix<double> H;
                {
                    py::gil_scoped_release release;
                    H = f.hessian(c, mesh, u.map, projection);
                }
                return sparse_to_python(H);
            },
            py::arg("contacts"), py::arg("mesh"), py::arg("U"), py::arg("projection") = ipc::PSDProjection::none,
            (std::string("Hessian of the obstacle friction energy (PSD by construction).") + sparse_note).c_str());

    // ------------------------------------------------------ CCD, step size
    m.def(
        "point_obstacle_ccd",
        [](const ObstacleSet& obstacles, Index k, const py::object& p_t0, const py::object& p_t1,
           double min_distance, double tmax, double s) {
            const char* who = "point_obstacle_ccd";
            const V3 p0 = float_vector(p_t0, who, "p_t0", 3), p1 = float_vector(p_t1, who, "p_t1", 3);
            CallbackScope scope(obstacles);
            double toi = tmax;
            const bool hit =
                run(scope, [&] { return ipc::point_obstacle_ccd(obstacles, k, p0, p1, toi, min_distance, tmax, s); });
            return py::make_tuple(hit, toi);
        },
        py::arg("obstacles"), py::arg("k"), py::arg("p_t0"), py::arg("p_t1"), py::arg("min_distance") = 0.0,
        py::arg("tmax") = 1.0, py::arg("conservative_rescaling") = ipc::obstacle_ccd_default_rescaling,
        "CCD of a point moving linearly from p_t0 to p_t1 ((3,) floats, m) against obstacle k of an ObstacleSet "
        "-> (collides, toi); see the overload taking one obstacle. Raises ValueError also for k out of range.");
    m.def(
        "point_obstacle_ccd",
        [](const py::object& obstacle, const py::object& p_t0, const py::object& p_t1, double min_distance,
           double tmax, double s) {
            const char* who = "point_obstacle_ccd";
            const V3 p0 = float_vector(p_t0, who, "p_t0", 3), p1 = float_vector(p_t1, who, "p_t1", 3);
            return on_obstacle(
                obstacle, who,
                [&](const SdfObstacle& shape) {
                    double toi = tmax;
                    const bool hit = ipc::point_obstacle_ccd(shape, p0, p1, toi, min_distance, tmax, s);
                    return py::object(py::make_tuple(hit, toi));
                },
                [&](const SignedDistanceObstacle& f) {
                    CallbackScope scope(f);
                    double toi = tmax;
                    const bool hit =
                        run(scope, [&] { return ipc::point_obstacle_ccd(f, p0, p1, toi, min_distance, tmax, s); });
                    return py::object(py::make_tuple(hit, toi));
                });
        },
        py::arg("obstacle"), py::arg("p_t0"), py::arg("p_t1"), py::arg("min_distance") = 0.0, py::arg("tmax") = 1.0,
        py::arg("conservative_rescaling") = ipc::obstacle_ccd_default_rescaling,
        "CCD of a point moving linearly from p_t0 to p_t1 ((3,) floats, m) against a static obstacle (an "
        "analytic shape or a SignedDistanceObstacle) -> (collides, toi). The point keeps a signed distance >= "
        "min_distance + (1 - s)(phi(p_t0) - min_distance) on [0, toi] (s the conservative rescaling in (0, 1)); "
        "toi = tmax when there is no hit; (True, 0) when it starts at signed distance <= min_distance. Exact "
        "for a plane, conservative advancement otherwise. Raises ValueError for non-finite points or bad "
        "parameters.");
    m.def(
        "obstacle_collision_free_step_size",
        [](const CollisionMesh& mesh, const py::object& V0, const py::object& V1, const ObstacleSet& obstacles,
           double min_distance, double s) {
            const FloatMatrix v0 = float_matrix(V0, "obstacle_collision_free_step_size", "V0");
            const FloatMatrix v1 = float_matrix(V1, "obstacle_collision_free_step_size", "V1");
            CallbackScope scope(obstacles);
            return run(scope, [&] {
                return ipc::obstacle_collision_free_step_size(mesh, v0.map, v1.map, obstacles, min_distance, s);
            });
        },
        py::arg("mesh"), py::arg("V0"), py::arg("V1"), py::arg("obstacles"), py::arg("min_distance") = 0.0,
        py::arg("conservative_rescaling") = ipc::obstacle_ccd_default_rescaling,
        "Largest alpha in [0, 1] such that every colliding, non-prescribed vertex moving V0 -> V0 + alpha (V1 - "
        "V0) ((n, 3) floats, m) keeps at least the fraction 1 - s of its initial gap to every obstacle (offset: "
        "vertex radius + min_distance); exact for planes, conservative otherwise. Raises ValueError for a 2D "
        "mesh or bad input, PenetrationError when a vertex starts at or inside its offset.");
}

} // namespace ipc_python
