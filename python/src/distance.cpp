// Distance kernels: squared distances, gradients, Hessians and region types.

#include "common.hpp"

#include <ipc/distance/distance_type.hpp>
#include <ipc/distance/edge_edge.hpp>
#include <ipc/distance/line_line.hpp>
#include <ipc/distance/point_edge.hpp>
#include <ipc/distance/point_line.hpp>
#include <ipc/distance/point_plane.hpp>
#include <ipc/distance/point_point.hpp>
#include <ipc/distance/point_triangle.hpp>

#include <pybind11/stl.h>

#include <optional>

namespace ipc_python {

namespace {

    template <int D> using Vec = Eigen::Matrix<double, D, 1>;

    /// Calls f(std::integral_constant<int, D>) with D the length of first (2 or 3).
    template <typename F> auto with_dim(const py::handle& first, const char* who, const char* what, F&& f)
    {
        if (point_dimension(first, who, what) == 2) {
            return f(std::integral_constant<int, 2>());
        }
        return f(std::integral_constant<int, 3>());
    }

    /// Wraps a fixed-size Eigen result as a NumPy array.
    template <typename T> py::object out(const T& value)
    {
        if constexpr (std::is_arithmetic_v<T>) {
            return py::float_(double(value));
        } else {
            return to_numpy(value);
        }
    }

    // The three quantities of a kernel, for the shared binding code.
    enum class What { value, gradient, hessian };

    const char* const value_doc_units = "squared distance (m^2, length units squared)";

} // namespace

void bind_distance(py::module_& m)
{
    py::enum_<ipc::PointEdgeDistanceType>(m, "PointEdgeDistanceType",
                                          "Closest feature of the edge (e0, e1) to a point.")
        .value("P_E0", ipc::PointEdgeDistanceType::P_E0, "the endpoint e0")
        .value("P_E1", ipc::PointEdgeDistanceType::P_E1, "the endpoint e1")
        .value("P_E", ipc::PointEdgeDistanceType::P_E, "the edge's interior (point-line formula)");
    py::enum_<ipc::PointTriangleDistanceType>(m, "PointTriangleDistanceType",
                                              "Closest feature of the triangle (t0, t1, t2) to a point.")
        .value("P_T0", ipc::PointTriangleDistanceType::P_T0, "vertex t0")
        .value("P_T1", ipc::PointTriangleDistanceType::P_T1, "vertex t1")
        .value("P_T2", ipc::PointTriangleDistanceType::P_T2, "vertex t2")
        .value("P_E0", ipc::PointTriangleDistanceType::P_E0, "interior of edge t0-t1")
        .value("P_E1", ipc::PointTriangleDistanceType::P_E1, "interior of edge t1-t2")
        .value("P_E2", ipc::PointTriangleDistanceType::P_E2, "interior of edge t2-t0")
        .value("P_T", ipc::PointTriangleDistanceType::P_T, "the triangle's interior (point-plane formula)");
    py::enum_<ipc::EdgeEdgeDistanceType>(m, "EdgeEdgeDistanceType",
                                         "Closest features of the edges (ea0, ea1) and (eb0, eb1).")
        .value("EA0_EB0", ipc::EdgeEdgeDistanceType::EA0_EB0, "point-point ea0-eb0")
        .value("EA0_EB1", ipc::EdgeEdgeDistanceType::EA0_EB1, "point-point ea0-eb1")
        .value("EA1_EB0", ipc::EdgeEdgeDistanceType::EA1_EB0, "point-point ea1-eb0")
        .value("EA1_EB1", ipc::EdgeEdgeDistanceType::EA1_EB1, "point-point ea1-eb1")
        .value("EA_EB0", ipc::EdgeEdgeDistanceType::EA_EB0, "eb0 against the interior of edge a")
        .value("EA_EB1", ipc::EdgeEdgeDistanceType::EA_EB1, "eb1 against the interior of edge a")
        .value("EA0_EB", ipc::EdgeEdgeDistanceType::EA0_EB, "ea0 against the interior of edge b")
        .value("EA1_EB", ipc::EdgeEdgeDistanceType::EA1_EB, "ea1 against the interior of edge b")
        .value("EA_EB", ipc::EdgeEdgeDistanceType::EA_EB, "both interiors (line-line formula)");

    const char* const shapes2 =
        "Points are 1-D float arrays of length 2 or 3 (all the same), metres; non-finite coordinates raise "
        "ValueError.";
    const char* const shapes3 = "Points are 1-D float arrays of length 3, metres; non-finite coordinates raise "
                                "ValueError.";
    (void)value_doc_units;

    // ------------------------------------------------------------ point-point
    auto pp = [](What what) {
        return [what](const py::object& a, const py::object& b) -> py::object {
            const char* who = "point_point_distance_squared";
            return with_dim(a, who, "p0", [&](auto dim) -> py::object {
                constexpr int D = decltype(dim)::value;
                const Vec<D> p0 = point<D>(a, who, "p0"), p1 = point<D>(b, who, "p1");
                switch (what) {
                case What::value: return out(ipc::point_point_distance_squared(p0, p1));
                case What::gradient: return out(ipc::point_point_distance_squared_gradient(p0, p1));
                default: return out(ipc::point_point_distance_squared_hessian(p0, p1));
                }
            });
        };
    };
    m.def("point_point_distance_squared", pp(What::value), py::arg("p0"), py::arg("p1"),
          (std::string("|p0 - p1|^2 (m^2). ") + shapes2).c_str());
    m.def("point_point_distance_squared_gradient", pp(What::gradient), py::arg("p0"), py::arg("p1"),
          (std::string("Gradient of |p0 - p1|^2 with respect to (p0, p1): array of 2*dim entries (m). ") + shapes2)
              .c_str());
    m.def("point_point_distance_squared_hessian", pp(What::hessian), py::arg("p0"), py::arg("p1"),
          (std::string("Hessian of |p0 - p1|^2 with respect to (p0, p1): (2*dim, 2*dim) array "
                       "(dimensionless). ") +
           shapes2)
              .c_str());

    // ------------------------------------------------------------- point-line
    auto pl = [](What what) {
        return [what](const py::object& a, const py::object& b, const py::object& c) -> py::object {
            const char* who = "point_line_distance_squared";
            return with_dim(a, who, "p", [&](auto dim) -> py::object {
                constexpr int D = decltype(dim)::value;
                const Vec<D> p = point<D>(a, who, "p"), e0 = point<D>(b, who, "e0"), e1 = point<D>(c, who, "e1");
                switch (what) {
                case What::value: return out(ipc::point_line_distance_squared(p, e0, e1));
                case What::gradient: return out(ipc::point_line_distance_squared_gradient(p, e0, e1));
                default: return out(ipc::point_line_distance_squared_hessian(p, e0, e1));
                }
            });
        };
    };
    const std::string pl_note = std::string(" Raises DegenerateGeometryError (a ValueError) when e0 == e1. ") + shapes2;
    m.def("point_line_distance_squared", pl(What::value), py::arg("p"), py::arg("e0"), py::arg("e1"),
          ("Squared distance (m^2) from p to the infinite line through e0 and e1." + pl_note).c_str());
    m.def("point_line_distance_squared_gradient", pl(What::gradient), py::arg("p"), py::arg("e0"), py::arg("e1"),
          ("Gradient (3*dim entries) of the point-line squared distance with respect to (p, e0, e1)." + pl_note)
              .c_str());
    m.def("point_line_distance_squared_hessian", pl(What::hessian), py::arg("p"), py::arg("e0"), py::arg("e1"),
          ("Hessian (3*dim, 3*dim) of the point-line squared distance with respect to (p, e0, e1)." + pl_note)
              .c_str());

    // ------------------------------------------------------------- point-edge
    auto pe = [](What what) {
        return [what](const py::object& a, const py::object& b, const py::object& c,
                      std::optional<ipc::PointEdgeDistanceType> type) -> py::object {
            const char* who = "point_edge_distance_squared";
            return with_dim(a, who, "p", [&](auto dim) -> py::object {
                constexpr int D = decltype(dim)::value;
                const Vec<D> p = point<D>(a, who, "p"), e0 = point<D>(b, who, "e0"), e1 = point<D>(c, who, "e1");
                if (type) {
                    switch (what) {
                    case What::value: return out(ipc::point_edge_distance_squared(p, e0, e1, *type));
                    case What::gradient: return out(ipc::point_edge_distance_squared_gradient(p, e0, e1, *type));
                    default: return out(ipc::point_edge_distance_squared_hessian(p, e0, e1, *type));
                    }
                }
                switch (what) {
                case What::value: return out(ipc::point_edge_distance_squared(p, e0, e1));
                case What::gradient: return out(ipc::point_edge_distance_squared_gradient(p, e0, e1));
                default: return out(ipc::point_edge_distance_squared_hessian(p, e0, e1));
                }
            });
        };
    };
    const std::string pe_note = std::string(" type (PointEdgeDistanceType) forces a region's formula; None picks "
                                            "the closest region (point_edge_distance_type). ") +
                                shapes2;
    m.def("point_edge_distance_squared", pe(What::value), py::arg("p"), py::arg("e0"), py::arg("e1"),
          py::arg("type") = py::none(),
          ("Squared distance (m^2) from p to the segment e0-e1." + pe_note).c_str());
    m.def("point_edge_distance_squared_gradient", pe(What::gradient), py::arg("p"), py::arg("e0"), py::arg("e1"),
          py::arg("type") = py::none(),
          ("Gradient (3*dim entries, m) of the point-edge squared distance with respect to (p, e0, e1)." + pe_note)
              .c_str());
    m.def("point_edge_distance_squared_hessian", pe(What::hessian), py::arg("p"), py::arg("e0"), py::arg("e1"),
          py::arg("type") = py::none(),
          ("Hessian (3*dim, 3*dim) of the point-edge squared distance with respect to (p, e0, e1)." + pe_note)
              .c_str());
    m.def(
        "point_edge_distance_type",
        [](const py::object& a, const py::object& b, const py::object& c) {
            const char* who = "point_edge_distance_type";
            return with_dim(a, who, "p", [&](auto dim) {
                constexpr int D = decltype(dim)::value;
                return ipc::point_edge_distance_type(point<D>(a, who, "p"), point<D>(b, who, "e0"),
                                                     point<D>(c, who, "e1"));
            });
        },
        py::arg("p"), py::arg("e0"), py::arg("e1"),
        (std::string("Closest feature (PointEdgeDistanceType) of the edge (e0, e1) to p. ") + shapes2).c_str());

    // ---------------------------------------------------- 3D four-point kernels
    // Point-triangle, point-plane, edge-edge, line-line: (a, b, c, d) points.
    using P3 = Vec<3>;
    auto four = [](const char* who, const char* const names[4], const py::object& a, const py::object& b,
                   const py::object& c, const py::object& d) {
        point_dimension(a, who, names[0], 3);
        return std::array<P3, 4> { point<3>(a, who, names[0]), point<3>(b, who, names[1]),
                                   point<3>(c, who, names[2]), point<3>(d, who, names[3]) };
    };
    static const char* const pt_names[4] = { "p", "t0", "t1", "t2" };
    static const char* const ee_names[4] = { "ea0", "ea1", "eb0", "eb1" };

    auto pt = [four](What what) {
        return [four, what](const py::object& a, const py::object& b, const py::object& c, const py::object& d,
                            std::optional<ipc::PointTriangleDistanceType> type) -> py::object {
            const auto x = four("point_triangle_distance_squared", pt_names, a, b, c, d);
            if (type) {
                switch (what) {
                case What::value: return out(ipc::point_triangle_distance_squared(x[0], x[1], x[2], x[3], *type));
                case What::gradient:
                    return out(ipc::point_triangle_distance_squared_gradient(x[0], x[1], x[2], x[3], *type));
                default: return out(ipc::point_triangle_distance_squared_hessian(x[0], x[1], x[2], x[3], *type));
                }
            }
            switch (what) {
            case What::value: return out(ipc::point_triangle_distance_squared(x[0], x[1], x[2], x[3]));
            case What::gradient: return out(ipc::point_triangle_distance_squared_gradient(x[0], x[1], x[2], x[3]));
            default: return out(ipc::point_triangle_distance_squared_hessian(x[0], x[1], x[2], x[3]));
            }
        };
    };
    const std::string pt_note = std::string(" type (PointTriangleDistanceType) forces a region's formula; None "
                                            "picks the closest region. ") +
                                shapes3;
    m.def("point_triangle_distance_squared", pt(What::value), py::arg("p"), py::arg("t0"), py::arg("t1"),
          py::arg("t2"), py::arg("type") = py::none(),
          ("Squared distance (m^2) from p to the triangle (t0, t1, t2)." + pt_note).c_str());
    m.def("point_triangle_distance_squared_gradient", pt(What::gradient), py::arg("p"), py::arg("t0"),
          py::arg("t1"), py::arg("t2"), py::arg("type") = py::none(),
          ("Gradient (12 entries, m) of the point-triangle squared distance with respect to (p, t0, t1, t2)." +
           pt_note)
              .c_str());
    m.def("point_triangle_distance_squared_hessian", pt(What::hessian), py::arg("p"), py::arg("t0"),
          py::arg("t1"), py::arg("t2"), py::arg("type") = py::none(),
          ("Hessian (12, 12) of the point-triangle squared distance with respect to (p, t0, t1, t2)." + pt_note)
              .c_str());
    m.def(
        "point_triangle_distance_type",
        [four](const py::object& a, const py::object& b, const py::object& c, const py::object& d) {
            const auto x = four("point_triangle_distance_type", pt_names, a, b, c, d);
            return ipc::point_triangle_distance_type(x[0], x[1], x[2], x[3]);
        },
        py::arg("p"), py::arg("t0"), py::arg("t1"), py::arg("t2"),
        (std::string("Closest feature (PointTriangleDistanceType) of the triangle (t0, t1, t2) to p. ") + shapes3)
            .c_str());

    auto pplane = [four](What what) {
        return [four, what](const py::object& a, const py::object& b, const py::object& c,
                            const py::object& d) -> py::object {
            const auto x = four("point_plane_distance_squared", pt_names, a, b, c, d);
            switch (what) {
            case What::value: return out(ipc::point_plane_distance_squared(x[0], x[1], x[2], x[3]));
            case What::gradient: return out(ipc::point_plane_distance_squared_gradient(x[0], x[1], x[2], x[3]));
            default: return out(ipc::point_plane_distance_squared_hessian(x[0], x[1], x[2], x[3]));
            }
        };
    };
    const std::string pplane_note =
        std::string(" Raises DegenerateGeometryError (a ValueError) for a zero-area triangle. ") + shapes3;
    m.def("point_plane_distance_squared", pplane(What::value), py::arg("p"), py::arg("t0"), py::arg("t1"),
          py::arg("t2"), ("Squared distance (m^2) from p to the plane through t0, t1, t2." + pplane_note).c_str());
    m.def("point_plane_distance_squared_gradient", pplane(What::gradient), py::arg("p"), py::arg("t0"),
          py::arg("t1"), py::arg("t2"),
          ("Gradient (12 entries, m) of the point-plane squared distance with respect to (p, t0, t1, t2)." +
           pplane_note)
              .c_str());
    m.def("point_plane_distance_squared_hessian", pplane(What::hessian), py::arg("p"), py::arg("t0"),
          py::arg("t1"), py::arg("t2"),
          ("Hessian (12, 12) of the point-plane squared distance with respect to (p, t0, t1, t2)." + pplane_note)
              .c_str());

    auto ee = [four](What what) {
        return [four, what](const py::object& a, const py::object& b, const py::object& c, const py::object& d,
                            std::optional<ipc::EdgeEdgeDistanceType> type) -> py::object {
            const auto x = four("edge_edge_distance_squared", ee_names, a, b, c, d);
            if (type) {
                switch (what) {
                case What::value: return out(ipc::edge_edge_distance_squared(x[0], x[1], x[2], x[3], *type));
                case What::gradient:
                    return out(ipc::edge_edge_distance_squared_gradient(x[0], x[1], x[2], x[3], *type));
                default: return out(ipc::edge_edge_distance_squared_hessian(x[0], x[1], x[2], x[3], *type));
                }
            }
            switch (what) {
            case What::value: return out(ipc::edge_edge_distance_squared(x[0], x[1], x[2], x[3]));
            case What::gradient: return out(ipc::edge_edge_distance_squared_gradient(x[0], x[1], x[2], x[3]));
            default: return out(ipc::edge_edge_distance_squared_hessian(x[0], x[1], x[2], x[3]));
            }
        };
    };
    const std::string ee_note = std::string(" type (EdgeEdgeDistanceType) forces a region's formula; None picks "
                                            "the closest features. ") +
                                shapes3;
    m.def("edge_edge_distance_squared", ee(What::value), py::arg("ea0"), py::arg("ea1"), py::arg("eb0"),
          py::arg("eb1"), py::arg("type") = py::none(),
          ("Squared distance (m^2) between the segments (ea0, ea1) and (eb0, eb1)." + ee_note).c_str());
    m.def("edge_edge_distance_squared_gradient", ee(What::gradient), py::arg("ea0"), py::arg("ea1"),
          py::arg("eb0"), py::arg("eb1"), py::arg("type") = py::none(),
          ("Gradient (12 entries, m) of the edge-edge squared distance with respect to (ea0, ea1, eb0, eb1)." +
           ee_note)
              .c_str());
    m.def("edge_edge_distance_squared_hessian", ee(What::hessian), py::arg("ea0"), py::arg("ea1"),
          py::arg("eb0"), py::arg("eb1"), py::arg("type") = py::none(),
          ("Hessian (12, 12) of the edge-edge squared distance with respect to (ea0, ea1, eb0, eb1)." + ee_note)
              .c_str());
    m.def(
        "edge_edge_distance_type",
        [four](const py::object& a, const py::object& b, const py::object& c, const py::object& d) {
            const auto x = four("edge_edge_distance_type", ee_names, a, b, c, d);
            return ipc::edge_edge_distance_type(x[0], x[1], x[2], x[3]);
        },
        py::arg("ea0"), py::arg("ea1"), py::arg("eb0"), py::arg("eb1"),
        (std::string("Closest features (EdgeEdgeDistanceType) of the segments (ea0, ea1) and (eb0, eb1). ") +
         shapes3)
            .c_str());

    auto ll = [four](What what) {
        return [four, what](const py::object& a, const py::object& b, const py::object& c,
                            const py::object& d) -> py::object {
            const auto x = four("line_line_distance_squared", ee_names, a, b, c, d);
            switch (what) {
            case What::value: return out(ipc::line_line_distance_squared(x[0], x[1], x[2], x[3]));
            case What::gradient: return out(ipc::line_line_distance_squared_gradient(x[0], x[1], x[2], x[3]));
            default: return out(ipc::line_line_distance_squared_hessian(x[0], x[1], x[2], x[3]));
            }
        };
    };
    const std::string ll_note =
        std::string(" Raises DegenerateGeometryError (a ValueError) for parallel lines. ") + shapes3;
    m.def("line_line_distance_squared", ll(What::value), py::arg("ea0"), py::arg("ea1"), py::arg("eb0"),
          py::arg("eb1"),
          ("Squared distance (m^2) between the infinite lines through (ea0, ea1) and (eb0, eb1)." + ll_note)
              .c_str());
    m.def("line_line_distance_squared_gradient", ll(What::gradient), py::arg("ea0"), py::arg("ea1"),
          py::arg("eb0"), py::arg("eb1"),
          ("Gradient (12 entries, m) of the line-line squared distance with respect to (ea0, ea1, eb0, eb1)." +
           ll_note)
              .c_str());
    m.def("line_line_distance_squared_hessian", ll(What::hessian), py::arg("ea0"), py::arg("ea1"),
          py::arg("eb0"), py::arg("eb1"),
          ("Hessian (12, 12) of the line-line squared distance with respect to (ea0, ea1, eb0, eb1)." + ll_note)
              .c_str());
}

} // namespace ipc_python
