#pragma once
/// @file
/// Unsigned distance of one primitive pair and its first derivative, for
/// solvers that linearise the distance (barrier-free augmented Lagrangian:
/// c(y) = d(x) + grad d(x) . (y - x) - delta) rather than put a barrier on
/// it. No Hessian and no edge-edge mollifier.
///
/// With the closest features of the pair (the distance type), the closest
/// points are fixed combinations of the stencil's vertices, so their
/// difference is r = sum_i w_i x_i over the stencil (weights w: +1 and the
/// barycentric coordinates, negated, of the other side). Then d = |r| and
/// grad_{x_i} d = w_i r / d. The distance and gradient themselves come from
/// the squared-distance kernels of the type, d = sqrt(d^2) and
/// grad d = grad(d^2) / (2 d), which are accurate at small d; the weights
/// describe the closest points, e.g. for friction.
///
/// A vertex facing a static obstacle (PairKind::vertex_obstacle) has the
/// obstacle's signed distance phi instead, with gradient grad phi; that
/// overload takes the ObstacleSet.

#include <ipc/collisions/pair_id.hpp>
#include <ipc/core/error.hpp>
#include <ipc/core/types.hpp>
#include <ipc/distance/distance_type.hpp>
#include <ipc/distance/edge_edge.hpp>
#include <ipc/distance/point_edge.hpp>
#include <ipc/distance/point_point.hpp>
#include <ipc/distance/point_triangle.hpp>
#include <ipc/friction/closest_point.hpp>
#include <ipc/mesh/collision_mesh.hpp>
#include <ipc/obstacles/obstacle_set.hpp>

#include <Eigen/Core>

#include <array>
#include <cmath>
#include <variant>

namespace ipc {

/// Distance of one pair at one configuration.
struct PairDistance {
    /// The pair measured.
    PairId pair;
    PairVertices stencil; ///< the pair's vertices, in the kernel's order (see pair_vertices)
    /// Closest features: none for point-point, else the kernel's distance type.
    std::variant<std::monostate, PointEdgeDistanceType, PointTriangleDistanceType, EdgeEdgeDistanceType> type;
    double distance = 0;            ///< unsigned distance d > 0 (m)
    Vector<double, 12> gradient;    ///< d d / d x over the stencil (3 per vertex, zero past count)
    std::array<double, 4> weights {}; ///< closest-point difference r = sum w_i x_i (zero past count)
};

namespace detail {
    /// Row i of V as a 3D point (z = 0 for a 2-column V).
    inline Eigen::Vector3d pair_row(const Eigen::Ref<const Eigen::MatrixXd>& V, Index i)
    {
        return Eigen::Vector3d(V(i, 0), V(i, 1), V.cols() > 2 ? V(i, 2) : 0.0);
    }

    /// Weights of (p, e0, e1) for the point-edge type.
    inline std::array<double, 4> point_edge_weights(PointEdgeDistanceType type, const Eigen::Vector3d& p,
                                                    const Eigen::Vector3d& e0, const Eigen::Vector3d& e1)
    {
        switch (type) {
        case PointEdgeDistanceType::P_E0: return { { 1, -1, 0, 0 } };
        case PointEdgeDistanceType::P_E1: return { { 1, 0, -1, 0 } };
        default: {
            const double eta = point_edge_closest_point(p, e0, e1);
            return { { 1, -(1 - eta), -eta, 0 } };
        }
        }
    }

    /// Weights of (p, t0, t1, t2) for the point-triangle type.
    inline std::array<double, 4> point_triangle_weights(PointTriangleDistanceType type, const Eigen::Vector3d& p,
                                                        const Eigen::Vector3d& t0, const Eigen::Vector3d& t1,
                                                        const Eigen::Vector3d& t2)
    {
        using Type = PointTriangleDistanceType;
        switch (type) {
        case Type::P_T0: return { { 1, -1, 0, 0 } };
        case Type::P_T1: return { { 1, 0, -1, 0 } };
        case Type::P_T2: return { { 1, 0, 0, -1 } };
        case Type::P_E0: {
            const double eta = point_edge_closest_point(p, t0, t1);
            return { { 1, -(1 - eta), -eta, 0 } };
        }
        case Type::P_E1: {
            const double eta = point_edge_closest_point(p, t1, t2);
            return { { 1, 0, -(1 - eta), -eta } };
        }
        case Type::P_E2: {
            const double eta = point_edge_closest_point(p, t2, t0);
            return { { 1, -eta, 0, -(1 - eta) } };
        }
        default: {
            const Eigen::Vector2d beta = point_triangle_closest_point(p, t0, t1, t2);
            return { { 1, -(1 - beta[0] - beta[1]), -beta[0], -beta[1] } };
        }
        }
    }

    /// Weights of (a0, a1, b0, b1) for the edge-edge type (r from b to a).
    inline std::array<double, 4> edge_edge_weights(EdgeEdgeDistanceType type, const Eigen::Vector3d& a0,
                                                   const Eigen::Vector3d& a1, const Eigen::Vector3d& b0,
                                                   const Eigen::Vector3d& b1)
    {
        using Type = EdgeEdgeDistanceType;
        switch (type) {
        case Type::EA0_EB0: return { { 1, 0, -1, 0 } };
        case Type::EA0_EB1: return { { 1, 0, 0, -1 } };
        case Type::EA1_EB0: return { { 0, 1, -1, 0 } };
        case Type::EA1_EB1: return { { 0, 1, 0, -1 } };
        case Type::EA_EB0: {
            const double eta = point_edge_closest_point(b0, a0, a1);
            return { { 1 - eta, eta, -1, 0 } };
        }
        case Type::EA_EB1: {
            const double eta = point_edge_closest_point(b1, a0, a1);
            return { { 1 - eta, eta, 0, -1 } };
        }
        case Type::EA0_EB: {
            const double eta = point_edge_closest_point(a0, b0, b1);
            return { { 1, 0, -(1 - eta), -eta } };
        }
        case Type::EA1_EB: {
            const double eta = point_edge_closest_point(a1, b0, b1);
            return { { 0, 1, -(1 - eta), -eta } };
        }
        default: {
            const Eigen::Vector2d gamma = edge_edge_closest_point(a0, a1, b0, b1);
            return { { 1 - gamma[0], gamma[0], -(1 - gamma[1]), -gamma[1] } };
        }
        }
    }

    /// Throws ipc::invalid_argument unless V has the mesh's shape and the
    /// rows of the stencil's vertices are finite. Only those rows are read,
    /// so that a solver linearising many pairs pays per pair, not per
    /// vertex of the mesh.
    inline void check_pair_positions(const CollisionMesh& mesh, const Eigen::Ref<const Eigen::MatrixXd>& V,
                                     const PairVertices& stencil)
    {
        require(V.rows() == mesh.num_vertices(), "pair_distance: V has ", V.rows(), " rows but the mesh has ",
                mesh.num_vertices(), " vertices");
        require(V.cols() == mesh.dim(), "pair_distance: V has ", V.cols(), " columns but the mesh is ", mesh.dim(),
                "D");
        for (int k = 0; k < stencil.count; ++k) {
            const Index v = stencil.vertices[std::size_t(k)];
            for (Index d = 0; d < V.cols(); ++d) {
                require(std::isfinite(V(v, d)), "pair_distance: V: vertex ", v, " has a non-finite coordinate (",
                        V(v, d), ")");
            }
        }
    }
} // namespace detail

/// Distance, gradient, closest features and closest-point weights of pair
/// `id` at positions V (n x mesh.dim(), m). A 2D mesh is evaluated in the
/// plane z = 0: its pairs are point-edge and point-point, and the gradient
/// keeps 3 entries per vertex, whose z entries are 0. Reads only the pair's
/// rows of V, so a call costs the same on any mesh size. Throws
/// ipc::invalid_argument for bad positions (a shape other than the mesh's
/// names both; a non-finite coordinate of the pair's vertices names the
/// vertex), an out-of-range pair, an edge-edge or
/// point-triangle pair of a 2D mesh or a vertex-obstacle pair (use the
/// overload with the obstacles), and
/// ipc::penetration when the pair's distance is zero (the linearisation
/// needs d > 0; it names the pair).
inline PairDistance pair_distance(const CollisionMesh& mesh, const Eigen::Ref<const Eigen::MatrixXd>& V,
                                  const PairId& id)
{
    require(id.kind != PairKind::vertex_obstacle, "pair_distance: vertex_obstacle pair (", id.a, ", ", id.b,
            ") needs the obstacles: call pair_distance(mesh, V, id, obstacles)");
    require(mesh.dim() == 3 || id.kind == PairKind::edge_vertex || id.kind == PairKind::vertex_vertex,
            "pair_distance: a 2D mesh has point-edge and point-point pairs only, got a ", to_string(id.kind), " pair");
    PairDistance out;
    out.pair = id;
    out.stencil = pair_vertices(mesh, id);
    detail::check_pair_positions(mesh, V, out.stencil);
    const auto& s = out.stencil.vertices;
    const auto x = [&](int k) { return detail::pair_row(V, s[std::size_t(k)]); };
    double d2 = 0;
    out.gradient.setZero();
    switch (id.kind) {
    case PairKind::vertex_vertex: {
        const Eigen::Vector3d a = x(0), b = x(1);
        d2 = point_point_distance_squared(a, b);
        out.gradient.head<6>() = point_point_distance_squared_gradient(a, b);
        out.weights = { { 1, -1, 0, 0 } };
        break;
    }
    case PairKind::edge_vertex: {
        const Eigen::Vector3d p = x(0), e0 = x(1), e1 = x(2);
        const PointEdgeDistanceType type = point_edge_distance_type(p, e0, e1);
        d2 = point_edge_distance_squared(p, e0, e1, type);
        out.gradient.head<9>() = point_edge_distance_squared_gradient(p, e0, e1, type);
        out.type = type;
        out.weights = detail::point_edge_weights(type, p, e0, e1);
        break;
    }
    case PairKind::edge_edge: {
        const Eigen::Vector3d a0 = x(0), a1 = x(1), b0 = x(2), b1 = x(3);
        const EdgeEdgeDistanceType type = edge_edge_distance_type(a0, a1, b0, b1);
        d2 = edge_edge_distance_squared(a0, a1, b0, b1, type);
        out.gradient = edge_edge_distance_squared_gradient(a0, a1, b0, b1, type);
        out.type = type;
        out.weights = detail::edge_edge_weights(type, a0, a1, b0, b1);
        break;
    }
    case PairKind::face_vertex: {
        const Eigen::Vector3d p = x(0), t0 = x(1), t1 = x(2), t2 = x(3);
        const PointTriangleDistanceType type = point_triangle_distance_type(p, t0, t1, t2);
        d2 = point_triangle_distance_squared(p, t0, t1, t2, type);
        out.gradient = point_triangle_distance_squared_gradient(p, t0, t1, t2, type);
        out.type = type;
        out.weights = detail::point_triangle_weights(type, p, t0, t1, t2);
        break;
    }
    case PairKind::vertex_obstacle: break; // rejected above
    }
    require<penetration>(d2 > 0, "pair_distance: ", to_string(id.kind), " pair (", id.a, ", ", id.b,
                         ") has zero distance");
    out.distance = std::sqrt(d2);
    out.gradient /= 2 * out.distance;
    return out;
}

/// The same for any pair, vertex-obstacle pairs included (3D meshes only):
/// for PairKind::vertex_obstacle, distance is obstacle a's signed distance
/// phi at vertex b (> 0 outside), gradient is grad phi over the one-vertex
/// stencil (a unit vector for the analytic shapes), weights are (1) and
/// type is none. Other pairs are as above. Also throws
/// ipc::invalid_argument for an obstacle index out of range or a 2D mesh
/// with a vertex-obstacle pair, and ipc::penetration when phi <= 0.
inline PairDistance pair_distance(const CollisionMesh& mesh, const Eigen::Ref<const Eigen::MatrixXd>& V,
                                  const PairId& id, const ObstacleSet& obstacles)
{
    if (id.kind != PairKind::vertex_obstacle) {
        return pair_distance(mesh, V, id);
    }
    require(mesh.dim() == 3, "pair_distance: vertex-obstacle pairs need a 3D mesh");
    require(id.a >= 0 && id.a < obstacles.size(), "pair_distance: vertex_obstacle pair (", id.a, ", ", id.b,
            ") names obstacle ", id.a, " but the set has ", obstacles.size());
    PairDistance out;
    out.pair = id;
    out.stencil = pair_vertices(mesh, id);
    detail::check_pair_positions(mesh, V, out.stencil);
    const Eigen::Vector3d p = detail::pair_row(V, id.b);
    const double phi = obstacles.signed_distance(id.a, p);
    require<penetration>(phi > 0, "pair_distance: vertex ", id.b, " is at signed distance ", phi, " from obstacle ",
                         id.a, " (", obstacles.name(id.a), ")");
    out.distance = phi;
    out.gradient.setZero();
    out.gradient.head<3>() = obstacles.gradient(id.a, p);
    out.weights = { { 1, 0, 0, 0 } };
    return out;
}

} // namespace ipc
