// Friction options (static/kinetic coefficients, per-vertex coefficients and
// their blend, anisotropic friction; overloads and methods added to
// FrictionCollisions) and the barrier shapes as scalar functions.

#include "common.hpp"

#include <ipc/barrier/clamped_log_barrier.hpp>
#include <ipc/barrier/cubic_barrier.hpp>
#include <ipc/barrier/normalized_log_barrier.hpp>
#include <ipc/collisions/friction_collisions.hpp>
#include <ipc/friction/anisotropic_friction.hpp>
#include <ipc/friction/friction_blend.hpp>
#include <ipc/friction/static_kinetic_friction.hpp>

#include <string>

namespace ipc_python {

namespace {

    using PerVertex = py::array_t<double, py::array::forcecast>;

    /// A per-vertex coefficient array as a vector (1-D, numbers).
    Eigen::VectorXd per_vertex(const PerVertex& a, const char* what)
    {
        return float_vector(a, "FrictionCollisions.build", what);
    }

    /// Per-contact values (vertex_vertex, edge_vertex, edge_edge, face_vertex order).
    template <typename Get> py::array_t<double> per_contact(const ipc::FrictionCollisions& f, Get get)
    {
        py::array_t<double> out(py::ssize_t(f.size()));
        double* d = out.mutable_data();
        std::size_t k = 0;
        for (const auto& s : f.vertex_vertex) d[k++] = get(s.contact);
        for (const auto& s : f.edge_vertex) d[k++] = get(s.contact);
        for (const auto& s : f.edge_edge) d[k++] = get(s.contact);
        for (const auto& s : f.face_vertex) d[k++] = get(s.contact);
        return out;
    }

    /// Binds a barrier shape policy as a class of static, vectorised functions.
    template <typename Shape>
    void bind_barrier_shape(py::module_& m, const char* name, const char* doc, const char* value_units,
                            const char* first_units, const char* second_units)
    {
        const std::string raw = " x: squared distance minus the squared offset (m^2), x_hat > 0: squared activation "
                                "threshold (m^2). Raw kernel: no validation; floats or NumPy arrays (broadcast).";
        py::class_<Shape> cls(m, name, doc);
        cls.attr("diverges") = Shape::diverges;
        cls.def_static("value", py::vectorize([](double x, double x_hat) { return Shape::value(x, x_hat); }),
                       py::arg("x"), py::arg("x_hat"),
                       (std::string("Barrier value b(x, x_hat) (") + value_units + "); 0 for x >= x_hat." + raw)
                           .c_str());
        cls.def_static(
            "first_derivative",
            py::vectorize([](double x, double x_hat) { return Shape::first_derivative(x, x_hat); }), py::arg("x"),
            py::arg("x_hat"), (std::string("db/dx (") + first_units + ")." + raw).c_str());
        cls.def_static(
            "second_derivative",
            py::vectorize([](double x, double x_hat) { return Shape::second_derivative(x, x_hat); }), py::arg("x"),
            py::arg("x_hat"), (std::string("d2b/dx2 (") + second_units + ")." + raw).c_str());
    }

} // namespace

void bind_friction_options(py::module_& m)
{
    using ipc::CollisionMesh;
    using ipc::Collisions;
    using ipc::FrictionCollisions;

    py::enum_<ipc::FrictionBlend>(m, "FrictionBlend",
                                  "How the two sides' coefficients of a contact are combined from per-vertex "
                                  "coefficients (each side: the closest-point average of its vertices').")
        .value("GEOMETRIC_MEAN", ipc::FrictionBlend::geometric_mean, "sqrt(mu_1 mu_2) (the default)")
        .value("MEAN", ipc::FrictionBlend::mean, "(mu_1 + mu_2) / 2")
        .value("MIN", ipc::FrictionBlend::min, "min(mu_1, mu_2)")
        .value("MAX", ipc::FrictionBlend::max, "max(mu_1, mu_2)");
    m.def(
        "blend_friction_coefficients",
        [](double mu_1, double mu_2, ipc::FrictionBlend blend) {
            ipc::require(std::isfinite(mu_1) && mu_1 >= 0, "blend_friction_coefficients: mu_1 must be finite and "
                                                           "non-negative, got ", mu_1);
            ipc::require(std::isfinite(mu_2) && mu_2 >= 0, "blend_friction_coefficients: mu_2 must be finite and "
                                                           "non-negative, got ", mu_2);
            return ipc::blend_friction_coefficients(mu_1, mu_2, blend);
        },
        py::arg("mu_1"), py::arg("mu_2"), py::arg("blend") = ipc::FrictionBlend::geometric_mean,
        "Combines two sides' friction coefficients (dimensionless, >= 0) by blend; equal sides give their value. "
        "Raises ValueError for negative or non-finite coefficients.");

    auto friction = py::reinterpret_borrow<py::class_<FrictionCollisions>>(m.attr("FrictionCollisions"));
    friction
        .def(
            "build",
            [](FrictionCollisions& f, const Collisions& collisions, const CollisionMesh& mesh, const py::object& V,
               double dhat, double kappa, double mu_s, double mu_k, double transition) {
                const FloatMatrix v = float_matrix(V, "FrictionCollisions.build", "V");
                py::gil_scoped_release release;
                f.build(collisions, mesh, v.map, dhat, kappa, mu_s, mu_k, transition);
            },
            py::arg("collisions"), py::arg("mesh"), py::arg("V"), py::arg("dhat"), py::arg("kappa"), py::arg("mu_s"),
            py::arg("mu_k"), py::arg("transition") = 1.0,
            "Static and kinetic coefficients: as build(..., mu) with mu = mu_k, then every contact gets the "
            "static coefficient mu_s >= 0, which holds while the slip is below eps and falls smoothly (C1) to "
            "mu_k between eps and (1 + transition) eps (transition > 0, in multiples of the friction potential's "
            "eps). mu_s == mu_k gives the scalar build exactly. The exact Hessian is indefinite in the transition "
            "when mu_s > mu_k: pass a projection to FrictionPotential.hessian. Raises ValueError for bad "
            "coefficients or transition, and as build(..., mu).")
        .def(
            "build",
            [](FrictionCollisions& f, const Collisions& collisions, const CollisionMesh& mesh, const py::object& V,
               double dhat, double kappa, const PerVertex& mu, ipc::FrictionBlend blend) {
                const FloatMatrix v = float_matrix(V, "FrictionCollisions.build", "V");
                const Eigen::VectorXd m_v = per_vertex(mu, "per-vertex mu");
                py::gil_scoped_release release;
                f.build(collisions, mesh, v.map, dhat, kappa, m_v, blend);
            },
            py::arg("collisions"), py::arg("mesh"), py::arg("V"), py::arg("dhat"), py::arg("kappa"), py::arg("mu"),
            py::arg("blend") = ipc::FrictionBlend::geometric_mean,
            "Per-vertex coefficients: mu is an (n,) float array (one coefficient >= 0 per mesh vertex); each "
            "contact's coefficient is blended from its vertices' (the closest-point average on each side, the "
            "two sides combined by blend, a FrictionBlend). A uniform array gives the scalar build exactly. "
            "Raises ValueError for a wrongly sized, negative or non-finite mu (naming the entry), and as "
            "build(..., mu).")
        .def(
            "build",
            [](FrictionCollisions& f, const Collisions& collisions, const CollisionMesh& mesh, const py::object& V,
               double dhat, double kappa, const PerVertex& mu_s, const PerVertex& mu_k, ipc::FrictionBlend blend,
               double transition) {
                const FloatMatrix v = float_matrix(V, "FrictionCollisions.build", "V");
                const Eigen::VectorXd s = per_vertex(mu_s, "per-vertex mu_s");
                const Eigen::VectorXd k = per_vertex(mu_k, "per-vertex mu_k");
                py::gil_scoped_release release;
                f.build(collisions, mesh, v.map, dhat, kappa, s, k, blend, transition);
            },
            py::arg("collisions"), py::arg("mesh"), py::arg("V"), py::arg("dhat"), py::arg("kappa"), py::arg("mu_s"),
            py::arg("mu_k"), py::arg("blend") = ipc::FrictionBlend::geometric_mean, py::arg("transition") = 1.0,
            "Per-vertex static and kinetic coefficients ((n,) float arrays, >= 0), each blended per contact as "
            "above, with the static-to-kinetic transition width transition (> 0, multiples of eps).")
        .def(
            "make_anisotropic",
            [](FrictionCollisions& f, const py::object& direction, double scale_a, double scale_b) {
                f.make_anisotropic(float_vector(direction, "FrictionCollisions.make_anisotropic", "direction", 3),
                                   scale_a, scale_b);
            },
            py::arg("direction"), py::arg("scale_a"), py::arg("scale_b"),
            "Makes every contact anisotropic: the world material direction ((3,) floats, any non-zero length) is "
            "projected into each contact's tangent plane and the coefficients (static and kinetic) are scaled by "
            "scale_a >= 0 along it and scale_b >= 0 across it (elliptic friction; the stick threshold along an "
            "axis is eps / scale). Call once, right after build. Raises ValueError for a zero or non-finite "
            "direction or a negative or non-finite scale.")
        .def(
            "friction_coefficients",
            [](const FrictionCollisions& f) { return per_contact(f, [](const auto& c) { return c.mu; }); },
            "Friction coefficient mu of every contact (the kinetic one when a static coefficient is set), in the "
            "order vertex_vertex, edge_vertex, edge_edge, face_vertex.")
        .def(
            "static_friction_coefficients",
            [](const FrictionCollisions& f) {
                return per_contact(f, [](const auto& c) { return ipc::static_friction_coefficient(c); });
            },
            "Static coefficient mu_s = mu + (mu_s - mu_k) of every contact (equal to friction_coefficients() "
            "without a static coefficient), same order.");

    bind_barrier_shape<ipc::ClampedLogBarrier>(
        m, "ClampedLogBarrier",
        "IPC's clamped log barrier b(x, x_hat) = -(x - x_hat)^2 ln(x / x_hat) for 0 < x < x_hat, 0 beyond, "
        "+inf for x <= 0 (a true barrier; diverges = True). Static functions value, first_derivative, "
        "second_derivative (the same as barrier, barrier_first_derivative, barrier_second_derivative).",
        "m^4", "m^2", "dimensionless");
    bind_barrier_shape<ipc::CubicBarrier>(
        m, "CubicBarrier",
        "Cubic clamped penalty b(x, x_hat) = (x_hat - x)^3 / x_hat for x < x_hat, 0 beyond: the leading term of "
        "the clamped log barrier at x_hat, C2 there, finite at x = 0 (not a true barrier: diverges = False; keep "
        "pairs apart with CCD). Static functions value, first_derivative, second_derivative.",
        "m^4", "m^2", "dimensionless");
    bind_barrier_shape<ipc::NormalizedLogBarrier>(
        m, "NormalizedLogBarrier",
        "Dimensionless clamped log barrier b(x / x_hat, 1) = b(x, x_hat) / x_hat^2 (diverges = True): with it "
        "the stiffness carries units of energy whatever the length unit. Static functions value, "
        "first_derivative, second_derivative.",
        "dimensionless", "1/m^2", "1/m^4");
}

} // namespace ipc_python
