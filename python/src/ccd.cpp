// Continuous collision detection: statuses and results; the three methods
// are bound in ccd_additive.cpp, ccd_inclusion.cpp and ccd_root_finding.cpp
// (one query at a time and in batches, the GIL released, queries in parallel).
// Also the CCD benchmark: query sets, the long-double reference, and
// benchmark_ccd for our methods (run in C++) and for Python objects.

#include "ccd_bind.hpp"

#include <ipc/benchmark/ccd_benchmark.hpp>
#include <ipc/ccd/ccd_reference.hpp>
#include <ipc/ccd/ccd_result.hpp>

#include <algorithm>
#include <array>
#include <string>
#include <utility>
#include <vector>

namespace ipc_python {

namespace {

    using V3 = Eigen::Vector3d;

    /// A NumPy copy of a 3D point.
    py::array_t<double> numpy_point(const V3& v)
    {
        py::array_t<double> a(3);
        std::copy(v.data(), v.data() + 3, a.mutable_data());
        return a;
    }

    /// A CCD method written in Python: an object whose point_triangle_ccd and
    /// edge_edge_ccd take the 8 points (1-D arrays of length 3) and the
    /// keywords min_distance and tmax, and return (collides, toi), a bool, or
    /// a CCDResult. The benchmark calls only these two.
    struct PythonCCD {
        py::object point_triangle, edge_edge;

        static bool call(const py::object& f, const std::array<const V3*, 8>& x, double& toi, double xi,
                         double tmax)
        {
            py::tuple args(8);
            for (std::size_t i = 0; i < 8; ++i) {
                args[i] = numpy_point(*x[i]);
            }
            const py::object r = f(*args, py::arg("min_distance") = xi, py::arg("tmax") = tmax);
            toi = tmax;
            if (py::isinstance<ipc::CCDResult>(r)) {
                const auto result = r.cast<ipc::CCDResult>();
                toi = result.toi;
                return result.collides();
            }
            if (py::isinstance<py::tuple>(r) || py::isinstance<py::list>(r)) {
                const auto items = py::reinterpret_borrow<py::sequence>(r);
                ipc::require(items.size() >= 1, "benchmark_ccd: the method returned an empty sequence");
                if (items.size() >= 2) {
                    toi = items[1].cast<double>();
                }
                return PyObject_IsTrue(items[0].ptr()) == 1;
            }
            const int truth = PyObject_IsTrue(r.ptr());
            if (truth < 0) {
                throw py::error_already_set();
            }
            return truth == 1;
        }

        bool point_triangle_ccd(const V3& p0, const V3& a0, const V3& b0, const V3& c0, const V3& p1,
                                const V3& a1, const V3& b1, const V3& c1, double& toi, double xi = 0,
                                double tmax = 1) const
        {
            return call(point_triangle, { { &p0, &a0, &b0, &c0, &p1, &a1, &b1, &c1 } }, toi, xi, tmax);
        }
        bool edge_edge_ccd(const V3& a0, const V3& b0, const V3& c0, const V3& d0, const V3& a1, const V3& b1,
                           const V3& c1, const V3& d1, double& toi, double xi = 0, double tmax = 1) const
        {
            return call(edge_edge, { { &a0, &b0, &c0, &d0, &a1, &b1, &c1, &d1 } }, toi, xi, tmax);
        }
        // Not used by the benchmark; present for the CCD concept.
        bool point_point_ccd(const V3&, const V3&, const V3&, const V3&, double&, double = 0, double = 1) const
        {
            throw ipc::error("benchmark_ccd: point-point queries of a Python method are not supported");
        }
        bool point_edge_ccd(const V3&, const V3&, const V3&, const V3&, const V3&, const V3&, double&,
                            double = 0, double = 1) const
        {
            throw ipc::error("benchmark_ccd: point-edge queries of a Python method are not supported");
        }
    };

    /// A Python method that also has point_triangle_ccd_result and
    /// edge_edge_ccd_result returning a CCDResult: the report then has its
    /// iterations.
    struct PythonResultCCD : PythonCCD {
        py::object point_triangle_result, edge_edge_result;

        static ipc::CCDResult call_result(const py::object& f, const std::array<const V3*, 8>& x, double xi,
                                          double tmax)
        {
            py::tuple args(8);
            for (std::size_t i = 0; i < 8; ++i) {
                args[i] = numpy_point(*x[i]);
            }
            const py::object r = f(*args, py::arg("min_distance") = xi, py::arg("tmax") = tmax);
            ipc::require(py::isinstance<ipc::CCDResult>(r), "benchmark_ccd: *_ccd_result must return a CCDResult, got ",
                         std::string(py::str(py::type::of(r))));
            return r.cast<ipc::CCDResult>();
        }

        ipc::CCDResult point_triangle_ccd_result(const V3& p0, const V3& a0, const V3& b0, const V3& c0,
                                                 const V3& p1, const V3& a1, const V3& b1, const V3& c1,
                                                 double xi = 0, double tmax = 1) const
        {
            return call_result(point_triangle_result, { { &p0, &a0, &b0, &c0, &p1, &a1, &b1, &c1 } }, xi, tmax);
        }
        ipc::CCDResult edge_edge_ccd_result(const V3& a0, const V3& b0, const V3& c0, const V3& d0,
                                            const V3& a1, const V3& b1, const V3& c1, const V3& d1,
                                            double xi = 0, double tmax = 1) const
        {
            return call_result(edge_edge_result, { { &a0, &b0, &c0, &d0, &a1, &b1, &c1, &d1 } }, xi, tmax);
        }
    };

    /// The 8 positions of each query as (n, 4, 3) arrays at t = 0 and t = 1.
    py::tuple query_arrays(const ipc::CCDQuerySet& set)
    {
        const py::ssize_t n = py::ssize_t(set.queries.size());
        py::array_t<double> x0({ n, py::ssize_t(4), py::ssize_t(3) }), x1({ n, py::ssize_t(4), py::ssize_t(3) });
        double* p0 = x0.mutable_data();
        double* p1 = x1.mutable_data();
        for (py::ssize_t q = 0; q < n; ++q) {
            for (int v = 0; v < 4; ++v) {
                for (int k = 0; k < 3; ++k) {
                    p0[(q * 4 + v) * 3 + k] = set.queries[std::size_t(q)].vertices[std::size_t(v)][k];
                    p1[(q * 4 + v) * 3 + k] = set.queries[std::size_t(q)].vertices[std::size_t(v + 4)][k];
                }
            }
        }
        return py::make_tuple(x0, x1);
    }

    py::list index_list(const std::vector<std::size_t>& indices)
    {
        py::list out;
        for (const std::size_t i : indices) {
            out.append(i);
        }
        return out;
    }

    /// Binds the reference query of one stencil (N vertices).
    template <int N, typename F> void bind_reference(py::module_& m, const char* name, const char* points, F f)
    {
        m.def(
            name,
            [name, f](const py::args& args, double min_distance) {
                ipc::require(args.size() == std::size_t(2 * N), name, ": expected ", 2 * N,
                             " points (the stencil at t = 0, then at t = 1), got ", args.size());
                std::array<V3, 2 * N> x;
                for (int i = 0; i < 2 * N; ++i) {
                    const std::string what = "point argument " + std::to_string(i);
                    x[std::size_t(i)] = float_vector(args[std::size_t(i)], name, what.c_str(), 3);
                }
                return f(x, min_distance);
            },
            py::arg("min_distance") = 0.0,
            (std::string(name) + "(" + points
             + ", *, min_distance=0) -> CCDReferenceResult. Long-double reference: do the primitives, moving "
               "linearly from the positions at t = 0 to those at t = 1 (1-D float arrays of length 3, m), come "
               "within min_distance (m) at some t in [0, 1]? answer is POSITIVE (a sampled time has distance at "
               "most min_distance (1 + 1e-12) + 1e-15 L, L the largest absolute coordinate), NEGATIVE (proven "
               "farther on all of [0, 1]) or UNDECIDED. Raises ValueError for non-finite input or a negative "
               "min_distance.")
                .c_str());
    }

} // namespace

static void bind_ccd_benchmark(py::module_& m)
{
    py::enum_<ipc::CCDQueryType>(m, "CCDQueryType", "The two kinds of queries of the CCD benchmark.")
        .value("EDGE_EDGE", ipc::CCDQueryType::edge_edge, "edge (v0, v1) against edge (v2, v3)")
        .value("VERTEX_FACE", ipc::CCDQueryType::vertex_face, "vertex v0 against triangle (v1, v2, v3)");
    py::enum_<ipc::CCDGroundTruth>(m, "CCDGroundTruth", "Where benchmark_ccd takes each query's ground truth from.")
        .value("AUTOMATIC", ipc::CCDGroundTruth::automatic, "FILES when min_distance is 0, otherwise REFERENCE")
        .value("FILES", ipc::CCDGroundTruth::files, "the queries' own ground truth (touching, distance 0)")
        .value("REFERENCE", ipc::CCDGroundTruth::reference,
               "the long-double reference: within min_distance at some t in [0, 1]");
    py::enum_<ipc::CCDReferenceAnswer>(m, "CCDReferenceAnswer", "The answers of the long-double CCD reference.")
        .value("NEGATIVE", ipc::CCDReferenceAnswer::negative, "proven farther than min_distance on [0, 1]")
        .value("POSITIVE", ipc::CCDReferenceAnswer::positive, "within min_distance at a sampled time")
        .value("UNDECIDED", ipc::CCDReferenceAnswer::undecided, "not settled within the reference's limits");

    py::class_<ipc::CCDReferenceResult>(m, "CCDReferenceResult", "What the long-double CCD reference found.")
        .def_readonly("answer", &ipc::CCDReferenceResult::answer, "CCDReferenceAnswer")
        .def_readonly("time", &ipc::CCDReferenceResult::time,
                      "for a POSITIVE answer, a time in [0, 1] with distance within the threshold; NaN otherwise")
        .def_readonly("evaluations", &ipc::CCDReferenceResult::evaluations, "distances computed")
        .def("positive", &ipc::CCDReferenceResult::positive, "True for a POSITIVE answer.")
        .def("__repr__", [](const ipc::CCDReferenceResult& r) {
            return ipc::detail::concat("CCDReferenceResult(answer=", ipc::to_string(r.answer), ", time=", r.time,
                                       ", evaluations=", r.evaluations, ")");
        });
    bind_reference<2>(m, "point_point_ccd_reference", "p0_t0, p1_t0, p0_t1, p1_t1",
                      [](const std::array<V3, 4>& x, double xi) {
                          return ipc::point_point_ccd_reference(x[0], x[1], x[2], x[3], xi);
                      });
    bind_reference<3>(m, "point_edge_ccd_reference", "p_t0, e0_t0, e1_t0, p_t1, e0_t1, e1_t1",
                      [](const std::array<V3, 6>& x, double xi) {
                          return ipc::point_edge_ccd_reference(x[0], x[1], x[2], x[3], x[4], x[5], xi);
                      });
    bind_reference<4>(m, "point_triangle_ccd_reference", "p_t0, t0_t0, t1_t0, t2_t0, p_t1, t0_t1, t1_t1, t2_t1",
                      [](const std::array<V3, 8>& x, double xi) {
                          return ipc::point_triangle_ccd_reference(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7],
                                                                   xi);
                      });
    bind_reference<4>(m, "edge_edge_ccd_reference", "ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1",
                      [](const std::array<V3, 8>& x, double xi) {
                          return ipc::edge_edge_ccd_reference(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], xi);
                      });

    py::class_<ipc::CCDQuerySet>(m, "CCDQuerySet",
                                 "One set of CCD queries of one type (from load_ccd_query_sets, or built in memory).")
        .def(py::init([](const std::string& name, ipc::CCDQueryType type, const py::object& x_t0,
                         const py::object& x_t1, const py::object& ground_truth) {
                 const char* who = "CCDQuerySet";
                 using A = py::array_t<double, py::array::c_style | py::array::forcecast>;
                 auto read = [&](const py::object& obj, const char* what) {
                     A a = A::ensure(obj);
                     if (!a) {
                         PyErr_Clear();
                         throw ipc::invalid_argument(
                             ipc::detail::concat(who, ": ", what, " must be a float array of shape (n, 4, 3)"));
                     }
                     ipc::require(a.ndim() == 3 && a.shape(1) == 4 && a.shape(2) == 3, who, ": ", what,
                                  " must have shape (n, 4, 3), got ", a.ndim(), " dimension(s)");
                     return a;
                 };
                 const A a0 = read(x_t0, "x_t0"), a1 = read(x_t1, "x_t1");
                 const py::ssize_t n = a0.shape(0);
                 ipc::require(a1.shape(0) == n, who, ": x_t0 has ", n, " queries but x_t1 has ", a1.shape(0));
                 std::vector<bool> truth(std::size_t(n), false);
                 if (!ground_truth.is_none()) {
                     const Eigen::VectorXd t = float_vector(ground_truth, who, "ground_truth", Eigen::Index(n));
                     for (py::ssize_t q = 0; q < n; ++q) {
                         truth[std::size_t(q)] = t(q) != 0;
                     }
                 }
                 ipc::CCDQuerySet set { name, type, {} };
                 set.queries.resize(std::size_t(n));
                 for (py::ssize_t q = 0; q < n; ++q) {
                     ipc::CCDQuery& query = set.queries[std::size_t(q)];
                     for (int v = 0; v < 4; ++v) {
                         query.vertices[std::size_t(v)] = Eigen::Map<const V3>(a0.data() + (q * 4 + v) * 3);
                         query.vertices[std::size_t(v + 4)] = Eigen::Map<const V3>(a1.data() + (q * 4 + v) * 3);
                     }
                     query.ground_truth = truth[std::size_t(q)];
                 }
                 return set;
             }),
             py::arg("name"), py::arg("type"), py::arg("x_t0"), py::arg("x_t1"), py::arg("ground_truth") = py::none(),
             "CCDQuerySet(name, type, x_t0, x_t1, ground_truth=None). name: shown in the report (not empty, not "
             "'all'); type: CCDQueryType; x_t0, x_t1: float arrays of shape (n, 4, 3), the 4 vertices of each query "
             "at t = 0 and t = 1 (m), vertex-face: vertex then triangle, edge-edge: edge a then edge b; "
             "ground_truth: (n,) truthy values, the answer for touching (distance 0), default all False.")
        .def_readonly("name", &ipc::CCDQuerySet::name, "name of the set")
        .def_readonly("type", &ipc::CCDQuerySet::type, "CCDQueryType of its queries")
        .def_property_readonly("x_t0", [](const ipc::CCDQuerySet& s) { return py::object(query_arrays(s)[0]); },
                               "(n, 4, 3) float array: the vertices at t = 0 (a copy)")
        .def_property_readonly("x_t1", [](const ipc::CCDQuerySet& s) { return py::object(query_arrays(s)[1]); },
                               "(n, 4, 3) float array: the vertices at t = 1 (a copy)")
        .def_property_readonly(
            "ground_truth",
            [](const ipc::CCDQuerySet& s) {
                py::array_t<bool> t(py::ssize_t(s.queries.size()));
                for (std::size_t q = 0; q < s.queries.size(); ++q) {
                    t.mutable_data()[q] = s.queries[q].ground_truth;
                }
                return t;
            },
            "(n,) bool array: each query's ground truth for touching (a copy)")
        .def("__len__", [](const ipc::CCDQuerySet& s) { return s.queries.size(); })
        .def("__repr__", [](const ipc::CCDQuerySet& s) {
            return ipc::detail::concat("CCDQuerySet(name='", s.name, "', type=", ipc::to_string(s.type), ", ",
                                       s.queries.size(), " queries)");
        });
    m.def(
        "load_ccd_query_sets",
        [](const std::string& folder, std::size_t max_queries_per_set) {
            py::list sets;
            for (ipc::CCDQuerySet& set : ipc::load_ccd_query_sets(folder, max_queries_per_set)) {
                sets.append(std::move(set));
            }
            return sets;
        },
        py::arg("folder"), py::arg("max_queries_per_set") = 0,
          "load_ccd_query_sets(folder, max_queries_per_set=0) -> list of CCDQuerySet. Reads every "
          "SET/edge-edge/data_*.csv and SET/vertex-face/data_*.csv below folder (the layout of Wang et al. 2021), "
          "files in path order, one set per SET and type; keeps the first max_queries_per_set queries of each set "
          "(0: all). Raises ValueError when folder is not a directory or holds no query file.");

    py::class_<ipc::CCDBenchmarkRow>(m, "CCDBenchmarkRow",
                                     "The scores of one method on one query set (set 'all': every set of one type).")
        .def_readonly("method", &ipc::CCDBenchmarkRow::method, "name of the method")
        .def_readonly("set", &ipc::CCDBenchmarkRow::set, "name of the query set; 'all' for the totals of one type")
        .def_readonly("type", &ipc::CCDBenchmarkRow::type, "CCDQueryType")
        .def_readonly("queries", &ipc::CCDBenchmarkRow::queries, "queries scored")
        .def_readonly("false_negatives", &ipc::CCDBenchmarkRow::false_negatives,
                      "positive queries reported as no collision (misses)")
        .def_readonly("false_positives", &ipc::CCDBenchmarkRow::false_positives,
                      "negative queries reported as a collision")
        .def_readonly("undecided", &ipc::CCDBenchmarkRow::undecided,
                      "queries the reference could not settle (in neither error count)")
        .def_property_readonly(
            "false_negative_queries", [](const ipc::CCDBenchmarkRow& r) { return index_list(r.false_negative_queries); },
            "indices (into the set's queries) of the false negatives; empty in 'all' rows")
        .def_property_readonly(
            "false_positive_queries", [](const ipc::CCDBenchmarkRow& r) { return index_list(r.false_positive_queries); },
            "indices of the false positives; empty in 'all' rows")
        .def_readonly("timed", &ipc::CCDBenchmarkRow::timed, "True when the times were measured")
        .def_readonly("ns_mean", &ipc::CCDBenchmarkRow::ns_mean, "mean time per query (ns)")
        .def_readonly("ns_median", &ipc::CCDBenchmarkRow::ns_median, "median time per query (ns)")
        .def_readonly("ns_p99", &ipc::CCDBenchmarkRow::ns_p99, "99th percentile of the time per query (ns)")
        .def_readonly("ns_max", &ipc::CCDBenchmarkRow::ns_max, "largest time per query (ns)")
        .def_readonly("has_iterations", &ipc::CCDBenchmarkRow::has_iterations,
                      "True when the method reported iterations (CCDResult from *_ccd_result)")
        .def_readonly("iterations_mean", &ipc::CCDBenchmarkRow::iterations_mean, "mean iterations per query")
        .def_readonly("iterations_max", &ipc::CCDBenchmarkRow::iterations_max, "largest iterations of a query")
        .def("__repr__", [](const ipc::CCDBenchmarkRow& r) {
            return ipc::detail::concat("CCDBenchmarkRow(method='", r.method, "', set='", r.set, "', type=",
                                       ipc::to_string(r.type), ", queries=", r.queries, ", false_negatives=",
                                       r.false_negatives, ", false_positives=", r.false_positives, ")");
        });

    py::class_<ipc::CCDBenchmarkReport>(m, "CCDBenchmarkReport",
                                        "What benchmark_ccd returns: one row per method, set and type, then the "
                                        "'all' rows of each type. str() gives the table.")
        .def(py::init<>(), "An empty report (min_distance 0, FILES), to append others to.")
        .def_readonly("min_distance", &ipc::CCDBenchmarkReport::min_distance,
                      "the minimum separation the methods were asked about (m)")
        .def_readonly("ground_truth", &ipc::CCDBenchmarkReport::ground_truth,
                      "CCDGroundTruth used: FILES or REFERENCE")
        .def_property_readonly(
            "rows",
            [](const ipc::CCDBenchmarkReport& r) {
                py::list rows;
                for (const ipc::CCDBenchmarkRow& row : r.rows) {
                    rows.append(row);
                }
                return rows;
            },
            "list of CCDBenchmarkRow (copies)")
        .def("append", &ipc::CCDBenchmarkReport::append, py::arg("other"),
             "Appends the rows of another report with the same min_distance and ground truth (ValueError "
             "otherwise), so that one table shows several methods.")
        .def("total", &ipc::CCDBenchmarkReport::total, py::arg("type"), py::arg("method") = "",
             "total(type, method='') -> CCDBenchmarkRow: the 'all' row of one query type for the method (default: "
             "the first). Raises ValueError when there is none.")
        .def("queries", &ipc::CCDBenchmarkReport::queries, "Queries scored, summed over the 'all' rows.")
        .def("false_negatives", &ipc::CCDBenchmarkReport::false_negatives,
             "False negatives, summed over the 'all' rows.")
        .def("false_positives", &ipc::CCDBenchmarkReport::false_positives,
             "False positives, summed over the 'all' rows.")
        .def("undecided", &ipc::CCDBenchmarkReport::undecided, "Undecided queries, summed over the 'all' rows.")
        .def("table", &ipc::ccd_benchmark_table, "The report as a Markdown table (str).")
        .def("json", &ipc::ccd_benchmark_json, "The report as JSON text (the layout of the ccd_benchmark program).")
        .def("__str__", &ipc::ccd_benchmark_table);

    m.def(
        "benchmark_ccd",
        [](const py::object& method, const py::object& sets, double min_distance, ipc::CCDGroundTruth ground_truth,
           std::size_t max_queries, bool time, int repeats, int calls_per_batch, std::string name) {
            if (py::hasattr(method, "_benchmark_ccd")) { // one of ipc's CCD classes: runs in C++
                return method.attr("_benchmark_ccd")(sets, min_distance, ground_truth, max_queries, time, repeats,
                                                     calls_per_batch, name)
                    .cast<ipc::CCDBenchmarkReport>();
            }
            ipc::require(py::hasattr(method, "point_triangle_ccd") && py::hasattr(method, "edge_edge_ccd"),
                         "benchmark_ccd: method must be one of ipc's CCD classes or an object with "
                         "point_triangle_ccd and edge_edge_ccd methods (e.g. types.SimpleNamespace("
                         "point_triangle_ccd=f, edge_edge_ccd=g)), got ",
                         std::string(py::str(py::type::of(method))));
            if (name.empty()) {
                name = py::str(py::type::of(method).attr("__name__")).cast<std::string>();
            }
            const std::vector<ipc::CCDQuerySet> all = ccd_binding::query_sets(sets);
            const ipc::CCDBenchmarkOptions options = ccd_binding::benchmark_options(
                min_distance, ground_truth, max_queries, time, repeats, calls_per_batch);
            PythonCCD drop_in { method.attr("point_triangle_ccd"), method.attr("edge_edge_ccd") };
            if (py::hasattr(method, "point_triangle_ccd_result") && py::hasattr(method, "edge_edge_ccd_result")) {
                PythonResultCCD with_result;
                static_cast<PythonCCD&>(with_result) = drop_in;
                with_result.point_triangle_result = method.attr("point_triangle_ccd_result");
                with_result.edge_edge_result = method.attr("edge_edge_ccd_result");
                return ipc::benchmark_ccd(with_result, all, options, name);
            }
            return ipc::benchmark_ccd(drop_in, all, options, name);
        },
        py::arg("method"), py::arg("sets"), py::kw_only(), py::arg("min_distance") = 0.0,
        py::arg("ground_truth") = ipc::CCDGroundTruth::automatic, py::arg("max_queries") = 0,
        py::arg("time") = true, py::arg("repeats") = 5, py::arg("calls_per_batch") = 4, py::arg("name") = "",
        "benchmark_ccd(method, sets, *, min_distance=0, ground_truth=CCDGroundTruth.AUTOMATIC, max_queries=0, "
        "time=True, repeats=5, calls_per_batch=4, name='') -> CCDBenchmarkReport. Scores a CCD method on query "
        "sets (a CCDQuerySet or a list of them): false negatives and positives against the ground truth (the "
        "files' column for min_distance 0, else the long-double reference within min_distance), undecided "
        "queries, time per query (mean, median, 99th percentile, max, ns; each query's fastest of `repeats` "
        "rounds of `calls_per_batch` calls) and iterations. method: an ipc CCD class (AdditiveCCD, "
        "InclusionCCD, RootFindingCCD; run in C++ with the GIL released) or any object with "
        "point_triangle_ccd(p_t0, t0_t0, t1_t0, t2_t0, p_t1, t0_t1, t1_t1, t2_t1, min_distance=, tmax=) and "
        "edge_edge_ccd(ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1, min_distance=, tmax=) "
        "taking 1-D float arrays of length 3 and returning (collides, toi), a bool or a CCDResult; with "
        "point_triangle_ccd_result and edge_edge_ccd_result returning a CCDResult too, the report has its "
        "iterations. max_queries: score at most that many queries of each set (0: all). name: the method's "
        "name in the report (default: its class name). Raises ValueError for bad options.");
}

void bind_ccd(py::module_& m)
{
    py::enum_<ipc::CCDStatus>(m, "CCDStatus", "Which case a CCD query ended in.")
        .value("NO_HIT", ipc::CCDStatus::no_hit, "the primitives stay farther apart than min_distance up to tmax")
        .value("HIT", ipc::CCDStatus::hit, "they may come within min_distance; toi is a safe time before it")
        .value("INITIALLY_WITHIN_OFFSET", ipc::CCDStatus::initially_within_offset,
               "already at or inside min_distance at t = 0 (toi = 0)")
        .value("ITERATION_CAP", ipc::CCDStatus::iteration_cap,
               "stopped at the iteration bound; toi is conservative (safe)")
        .value("INVALID_INPUT", ipc::CCDStatus::invalid_input, "NaN or infinite coordinates, or impossible parameters");
    py::class_<ipc::CCDResult>(m, "CCDResult", "Result of one CCD query.")
        .def(py::init<>())
        .def_readwrite("status", &ipc::CCDResult::status, "CCDStatus of the query")
        .def_readwrite("toi", &ipc::CCDResult::toi,
                       "time of impact in [0, tmax]: the primitives stay at least min_distance apart on [0, toi]")
        .def_readwrite("iterations", &ipc::CCDResult::iterations, "iterations (or subdivisions) used")
        .def("collides", &ipc::CCDResult::collides, "True unless status is NO_HIT.")
        .def("__repr__", [](const ipc::CCDResult& r) {
            return ipc::detail::concat("CCDResult(status=", ipc::to_string(r.status), ", toi=", r.toi,
                                       ", iterations=", r.iterations, ")");
        });

    bind_ccd_benchmark(m);

    bind_additive_ccd(m);

    bind_inclusion_ccd(m);

    bind_root_finding_ccd(m);
}

} // namespace ipc_python
