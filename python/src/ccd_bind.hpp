#pragma once
// The CCD binding code shared by the per-method translation units
// (ccd_additive.cpp, ccd_inclusion.cpp, ccd_root_finding.cpp). Each method
// gets its own unit so that g++ inlines the method's kernels into the batch
// loop as it does in C++ (one large unit with every method kept them out of
// line and made the batch calls about twice slower).

#include "common.hpp"

#include <ipc/benchmark/ccd_benchmark.hpp>
#include <ipc/ccd/ccd_result.hpp>
#include <ipc/core/parallel.hpp>

#include <array>
#include <string>

namespace ipc_python::ccd_binding {



    using V3 = Eigen::Vector3d;

    /// Number of vertices of each stencil kind.
    enum class Kind { point_point = 2, point_edge = 3, point_triangle = 4, edge_edge = 5 };
    constexpr int vertex_count(Kind k) { return k == Kind::edge_edge ? 4 : int(k); }
    constexpr const char* kind_name(Kind k)
    {
        return k == Kind::point_point ? "point_point"
            : k == Kind::point_edge   ? "point_edge"
            : k == Kind::point_triangle ? "point_triangle"
                                        : "edge_edge";
    }

    /// Runs one query of kind K on stacked positions x0 (t = 0) and x1 (t = 1).
    template <Kind K, typename Method, typename P>
    ipc::CCDResult query(const Method& ccd, const P* x0, const P* x1, double min_distance, double tmax)
    {
        if constexpr (K == Kind::point_point) {
            return ccd.point_point_ccd_result(x0[0], x0[1], x1[0], x1[1], min_distance, tmax);
        } else if constexpr (K == Kind::point_edge) {
            return ccd.point_edge_ccd_result(x0[0], x0[1], x0[2], x1[0], x1[1], x1[2], min_distance, tmax);
        } else if constexpr (K == Kind::point_triangle) {
            return ccd.point_triangle_ccd_result(x0[0], x0[1], x0[2], x0[3], x1[0], x1[1], x1[2], x1[3],
                                                 min_distance, tmax);
        } else {
            return ccd.edge_edge_ccd_result(x0[0], x0[1], x0[2], x0[3], x1[0], x1[1], x1[2], x1[3], min_distance,
                                            tmax);
        }
    }

    /// Drop-in bool shape through the method's throwing overload.
    template <Kind K, typename Method, typename P>
    bool query_bool(const Method& ccd, const P* x0, const P* x1, double& toi, double min_distance, double tmax)
    {
        if constexpr (K == Kind::point_point) {
            return ccd.point_point_ccd(x0[0], x0[1], x1[0], x1[1], toi, min_distance, tmax);
        } else if constexpr (K == Kind::point_edge) {
            return ccd.point_edge_ccd(x0[0], x0[1], x0[2], x1[0], x1[1], x1[2], toi, min_distance, tmax);
        } else if constexpr (K == Kind::point_triangle) {
            return ccd.point_triangle_ccd(x0[0], x0[1], x0[2], x0[3], x1[0], x1[1], x1[2], x1[3], toi,
                                          min_distance, tmax);
        } else {
            return ccd.edge_edge_ccd(x0[0], x0[1], x0[2], x0[3], x1[0], x1[1], x1[2], x1[3], toi, min_distance,
                                     tmax);
        }
    }

    using V2 = Eigen::Vector2d;

    /// Point-point and point-edge queries exist in 2D too.
    template <Kind K> constexpr bool planar_kind = K == Kind::point_point || K == Kind::point_edge;

    /// Reads the stencil's 2*N point arguments (N at t0, then N at t1), D
    /// coordinates each.
    template <Kind K, int D>
    std::array<Eigen::Matrix<double, D, 1>, 2 * vertex_count(K)> read_points(const py::args& args, const char* who)
    {
        constexpr int N = vertex_count(K);
        ipc::require(args.size() == std::size_t(2 * N), who, ": expected ", 2 * N,
                     " points (the stencil at t = 0, then at t = 1), got ", args.size());
        std::array<Eigen::Matrix<double, D, 1>, 2 * N> x;
        for (int i = 0; i < 2 * N; ++i) {
            const std::string what = "point argument " + std::to_string(i);
            x[std::size_t(i)] = float_vector(args[std::size_t(i)], who, what.c_str(), D);
        }
        return x;
    }

    /// 2D points as 3D points in the plane z = 0 (where the point-point and
    /// point-edge queries are exactly the 2D ones).
    template <std::size_t M> std::array<V3, M> pad(const std::array<V2, M>& x)
    {
        std::array<V3, M> y;
        for (std::size_t i = 0; i < M; ++i) {
            y[i] = V3(x[i][0], x[i][1], 0.0);
        }
        return y;
    }

    /// Reads the points (2D when the kind allows it and the first point has
    /// two coordinates) and calls f(x_t0, x_t1) with pointers to them: 2D
    /// points when the method has native 2D queries (Native2D), else 3D ones.
    template <Kind K, bool Native2D, typename F> auto with_points(const py::args& args, const char* who, F&& f)
    {
        constexpr int N = vertex_count(K);
        if constexpr (planar_kind<K>) {
            const py::array first = args.size() > 0 ? py::array::ensure(args[0]) : py::array();
            if (!first) {
                PyErr_Clear();
            }
            if (first && first.ndim() == 1 && first.shape(0) == 2) {
                const auto x = read_points<K, 2>(args, who);
                if constexpr (Native2D) {
                    return f(x.data(), x.data() + N);
                } else {
                    const auto y = pad(x);
                    return f(y.data(), y.data() + N);
                }
            }
        }
        const auto x = read_points<K, 3>(args, who);
        return f(x.data(), x.data() + N);
    }

    const char* const single_names[4] = {
        "p0_t0, p1_t0, p0_t1, p1_t1",
        "p_t0, e0_t0, e1_t0, p_t1, e0_t1, e1_t1",
        "p_t0, t0_t0, t1_t0, t2_t0, p_t1, t0_t1, t1_t1, t2_t1",
        "ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1",
    };
    constexpr int kind_index(Kind k) { return k == Kind::edge_edge ? 3 : int(k) - 2; }

    template <Kind K, typename Method, bool Native2D, typename Class> void bind_kind(Class& cls, const char* method_name)
    {
        constexpr int N = vertex_count(K);
        const std::string name = kind_name(K);
        const std::string points = single_names[kind_index(K)];
        cls.def(
            (name + "_ccd").c_str(),
            [method_name, name](const Method& ccd, const py::args& args, double min_distance, double tmax) {
                const std::string who = std::string(method_name) + "." + name + "_ccd";
                double toi = tmax;
                const bool hit = with_points<K, Native2D>(args, who.c_str(), [&](const auto* x0, const auto* x1) {
                    return query_bool<K>(ccd, x0, x1, toi, min_distance, tmax);
                });
                return py::make_tuple(hit, toi);
            },
            py::arg("min_distance") = 0.0, py::arg("tmax") = 1.0,
            (name + "_ccd(" + points +
             ", *, min_distance=0, tmax=1) -> (collides, toi). Positions: 1-D float arrays of length 3 (m)" +
             std::string(planar_kind<K> ? (Native2D ? " or, in 2D, all of length 2" :
                                                      " or, in 2D, all of length 2 (queried in the plane z = 0)")
                                        : "") +
             ", the stencil at t = 0 then at t = 1 (linear motion). Returns whether the primitives may come within "
             "min_distance (m) before tmax (in [0, 1]) and a safe time of impact toi (tmax when they do not). "
             "Raises ValueError for non-finite coordinates or bad parameters.")
                .c_str());
        cls.def(
            (name + "_ccd_result").c_str(),
            [method_name, name](const Method& ccd, const py::args& args, double min_distance, double tmax) {
                const std::string who = std::string(method_name) + "." + name + "_ccd_result";
                return with_points<K, Native2D>(args, who.c_str(), [&](const auto* x0, const auto* x1) {
                    return query<K>(ccd, x0, x1, min_distance, tmax);
                });
            },
            py::arg("min_distance") = 0.0, py::arg("tmax") = 1.0,
            (name + "_ccd_result(" + points +
             ", *, min_distance=0, tmax=1) -> CCDResult (status, toi, iterations). Same query as " + name +
             "_ccd; invalid input gives status INVALID_INPUT instead of raising (wrong shapes still raise).")
                .c_str());
        cls.def(
            (name + "_ccd_batch").c_str(),
            [method_name, name](const Method& ccd, const py::object& x_t0, const py::object& x_t1,
                                const py::object& min_distance, double tmax) {
                constexpr int N = vertex_count(K);
                const std::string who_s = std::string(method_name) + "." + name + "_ccd_batch";
                const char* who = who_s.c_str();
                using A = py::array_t<double, py::array::c_style | py::array::forcecast>;
                auto read = [&](const py::object& obj, const char* what) {
                    A a = A::ensure(obj);
                    if (!a) {
                        PyErr_Clear();
                        throw ipc::invalid_argument(
                            ipc::detail::concat(who, ": ", what, " must be a float array of shape (n, ", N, ", 3)"));
                    }
                    ipc::require(a.ndim() == 3 && a.shape(1) == N && (a.shape(2) == 3 || (planar_kind<K> && a.shape(2) == 2)),
                                 who, ": ", what, " must have shape (n, ", N, planar_kind<K> ? ", 3) or (n, " : "",
                                 planar_kind<K> ? std::to_string(N) : std::string(), planar_kind<K> ? ", 2)" : ", 3)",
                                 ", got ", a.ndim(), " dimension(s)",
                                 a.ndim() == 3 ? ipc::detail::concat(" (", a.shape(0), ", ", a.shape(1), ", ",
                                                                     a.shape(2), ")")
                                               : std::string());
                    return a;
                };
                const A a0 = read(x_t0, "x_t0"), a1 = read(x_t1, "x_t1");
                const py::ssize_t n = a0.shape(0);
                ipc::require(a1.shape(0) == n, who, ": x_t0 has ", n, " queries but x_t1 has ", a1.shape(0));
                const py::ssize_t D = a0.shape(2);
                ipc::require(a1.shape(2) == D, who, ": x_t0 has ", D, " coordinates per point but x_t1 has ",
                             a1.shape(2));
                Eigen::VectorXd offsets;
                double uniform = 0;
                const bool per_query = py::isinstance<py::array>(min_distance) || py::isinstance<py::list>(min_distance)
                    || py::isinstance<py::tuple>(min_distance);
                if (per_query) {
                    offsets = float_vector(min_distance, who, "min_distance", n);
                } else {
                    uniform = min_distance.cast<double>();
                }
                py::array_t<double> toi(n);
                py::array_t<std::uint8_t> status(n);
                py::array_t<std::int64_t> iterations(n);
                const double* p0 = a0.data();
                const double* p1 = a1.data();
                double* t = toi.mutable_data();
                std::uint8_t* s = status.mutable_data();
                std::int64_t* it = iterations.mutable_data();
                const double* off = per_query ? offsets.data() : nullptr;
                {
                    py::gil_scoped_release release;
                    const auto store = [&](std::ptrdiff_t q, const ipc::CCDResult& r) {
                        t[q] = r.toi;
                        s[q] = std::uint8_t(r.status);
                        it[q] = r.iterations;
                    };
                    if (D == 3) {
                        ipc::parallel_for(0, std::ptrdiff_t(n), [&](std::ptrdiff_t q) {
                            std::array<V3, 2 * N> x;
                            for (int v = 0; v < N; ++v) {
                                x[std::size_t(v)] = Eigen::Map<const V3>(p0 + (q * N + v) * 3);
                                x[std::size_t(N + v)] = Eigen::Map<const V3>(p1 + (q * N + v) * 3);
                            }
                            store(q, query<K>(ccd, x.data(), x.data() + N, off ? off[q] : uniform, tmax));
                        });
                    } else if constexpr (planar_kind<K>) {
                        ipc::parallel_for(0, std::ptrdiff_t(n), [&](std::ptrdiff_t q) {
                            std::array<V2, 2 * N> x;
                            for (int v = 0; v < N; ++v) {
                                x[std::size_t(v)] = Eigen::Map<const V2>(p0 + (q * N + v) * 2);
                                x[std::size_t(N + v)] = Eigen::Map<const V2>(p1 + (q * N + v) * 2);
                            }
                            if constexpr (Native2D) {
                                store(q, query<K>(ccd, x.data(), x.data() + N, off ? off[q] : uniform, tmax));
                            } else {
                                const auto y = pad(x);
                                store(q, query<K>(ccd, y.data(), y.data() + N, off ? off[q] : uniform, tmax));
                            }
                        });
                    }
                }
                return py::make_tuple(toi, status, iterations);
            },
            py::arg("x_t0"), py::arg("x_t1"), py::arg("min_distance") = 0.0, py::arg("tmax") = 1.0,
            (name + "_ccd_batch(x_t0, x_t1, min_distance=0, tmax=1) -> (toi, status, iterations). x_t0, x_t1: "
                    "float arrays of shape (n, " +
             std::to_string(N) + ", 3)" +
             std::string(planar_kind<K> ? " (or (n, " + std::to_string(N) + ", 2) in 2D)" : "") +
             ": the stencil's vertices of n queries at t = 0 and at t = 1 (m), in the "
                                 "order of " + name + "_ccd's arguments. min_distance: a float or an (n,) array (m). Returns toi "
             "(n,) float64, status (n,) uint8 (int(CCDStatus)), iterations (n,) int64. Runs the queries in "
             "parallel with the GIL released; each query never raises (invalid input gives status "
             "INVALID_INPUT), wrong array shapes raise ValueError.")
                .c_str());
    }

    /// The query sets of a benchmark call: one CCDQuerySet or a sequence of them.
    inline std::vector<ipc::CCDQuerySet> query_sets(const py::handle& obj)
    {
        if (py::isinstance<ipc::CCDQuerySet>(obj)) {
            return { obj.cast<ipc::CCDQuerySet>() };
        }
        ipc::require(py::isinstance<py::sequence>(obj) && !py::isinstance<py::str>(obj),
                     "benchmark_ccd: sets must be a CCDQuerySet or a list of them, got ",
                     std::string(py::str(py::type::of(obj))));
        std::vector<ipc::CCDQuerySet> sets;
        for (const py::handle item : py::reinterpret_borrow<py::sequence>(obj)) {
            ipc::require(py::isinstance<ipc::CCDQuerySet>(item), "benchmark_ccd: sets must hold CCDQuerySet, got ",
                         std::string(py::str(py::type::of(item))));
            sets.push_back(item.cast<ipc::CCDQuerySet>());
        }
        return sets;
    }

    /// The benchmark's options from the keyword arguments of benchmark_ccd.
    inline ipc::CCDBenchmarkOptions benchmark_options(double min_distance, ipc::CCDGroundTruth ground_truth,
                                                      std::size_t max_queries, bool time, int repeats,
                                                      int calls_per_batch)
    {
        ipc::CCDBenchmarkOptions options;
        options.min_distance = min_distance;
        options.ground_truth = ground_truth;
        options.max_queries = max_queries;
        options.time = time;
        options.repeats = repeats;
        options.calls_per_batch = calls_per_batch;
        return options;
    }

    /// Gives a method class the hook ipc.benchmark_ccd calls (`_benchmark_ccd`,
    /// same arguments): the benchmark then runs the method in C++, GIL released.
    template <typename Method, typename Class> void bind_benchmark_hook(Class& cls)
    {
        cls.def("_benchmark_ccd",
                [](const Method& ccd, const py::object& sets, double min_distance, ipc::CCDGroundTruth ground_truth,
                   std::size_t max_queries, bool time, int repeats, int calls_per_batch, const std::string& name) {
                    const std::vector<ipc::CCDQuerySet> all = query_sets(sets);
                    const ipc::CCDBenchmarkOptions options
                        = benchmark_options(min_distance, ground_truth, max_queries, time, repeats, calls_per_batch);
                    py::gil_scoped_release release;
                    return ipc::benchmark_ccd(ccd, all, options, name);
                });
    }

    /// Binds the four kinds; Native2D: the method has 2D point-point and
    /// point-edge overloads (else 2D queries are padded with z = 0).
    template <typename Method, bool Native2D = false, typename Class>
    void bind_method(Class& cls, const char* method_name)
    {
        bind_kind<Kind::point_point, Method, Native2D>(cls, method_name);
        bind_kind<Kind::point_edge, Method, Native2D>(cls, method_name);
        bind_kind<Kind::point_triangle, Method, Native2D>(cls, method_name);
        bind_kind<Kind::edge_edge, Method, Native2D>(cls, method_name);
        bind_benchmark_hook<Method>(cls);
    }


} // namespace ipc_python::ccd_binding
