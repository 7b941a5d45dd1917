#pragma once
/// @file
/// A 2D scene's bodies for the 2D example solver: soft bodies meshed with
/// linear triangles (stable neo-Hookean, common/elasticity_2d.hpp), ropes
/// made of stiff springs, and fixed obstacle edges, all in the plane (n x 2
/// positions). Plane strain: masses are per metre of depth (kg/m), energies
/// J/m. Contact uses the soft bodies' boundary edges, the rope segments and
/// the obstacle edges; interior vertices of the soft bodies do not collide.

#include <common/elasticity_2d.hpp>
#include <common/model.hpp>

#include <ipc/core/error.hpp>
#include <ipc/core/math.hpp>
#include <ipc/mesh/collision_mesh.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ipc::examples {

/// The bodies of a 2D scene; build it with the add_* functions.
struct Model2D {
    /// A soft-body element: its vertices and Lame parameters (Pa).
    struct Triangle {
        std::array<Index, 3> vertices;
        double mu;
        double lambda;
    };
    /// A rope segment: its vertices, rest length (m) and axial stiffness (N).
    struct Spring {
        std::array<Index, 2> vertices;
        double rest_length;
        double stiffness;
    };

    Eigen::MatrixXd positions = Eigen::MatrixXd(0, 2);  ///< initial = rest positions (n x 2, m)
    Eigen::MatrixXd velocities = Eigen::MatrixXd(0, 2); ///< initial velocities (n x 2, m/s)
    Eigen::VectorXd mass = Eigen::VectorXd(0);          ///< lumped masses (kg/m; zero for obstacles)
    Eigen::VectorXd contact_radius = Eigen::VectorXd(0); ///< per vertex, half the contact thickness (m)
    std::vector<bool> fixed;                              ///< obstacle vertices: never move
    std::vector<VertexKind> kind; ///< volume (soft bodies), rod (ropes) or obstacle, for the pictures
    std::vector<Triangle> triangles;
    std::vector<Spring> springs;
    std::vector<std::array<Index, 2>> contact_edges; ///< boundary edges, rope segments and obstacle edges
    Eigen::Vector2d gravity { 0, -9.81 };            ///< m/s^2

    Index num_vertices() const { return positions.rows(); }

    /// Adds a soft body: rest positions X (k x 2, m), triangles T (m x 3,
    /// indices into X), Young's modulus E (Pa), Poisson ratio nu, density
    /// (kg/m^3), contact radius (m) and initial velocity (m/s). Masses are
    /// lumped (a third of each triangle's mass to each corner); the
    /// boundary edges (used by one triangle) become contact edges. Returns
    /// the index of its first vertex. Throws ipc::invalid_argument for bad
    /// sizes, indices or values and for a degenerate triangle.
    Index add_soft_body(const Eigen::MatrixXd& X, const Eigen::MatrixXi& T, double E, double nu, double density,
        double radius, const Eigen::Vector2d& velocity = Eigen::Vector2d::Zero())
    {
        require(X.cols() == 2 && X.rows() >= 3 && T.cols() == 3 && T.rows() >= 1,
            "Model2D::add_soft_body: X must be k x 2 (k >= 3) and T m x 3 (m >= 1), got ", X.rows(), " x ", X.cols(),
            " and ", T.rows(), " x ", T.cols());
        require(std::isfinite(density) && density > 0, "Model2D::add_soft_body: density must be positive, got ",
            density);
        require(T.minCoeff() >= 0 && T.maxCoeff() < X.rows(), "Model2D::add_soft_body: triangle index out of range [0, ",
            X.rows(), ")");
        const Eigen::Vector2d lame = lame_parameters_2d(E, nu);
        const Index first = add_vertices(X, VertexKind::volume, radius, velocity, false, "Model2D::add_soft_body");
        std::map<std::pair<Index, Index>, int> edge_uses;
        for (Index t = 0; t < T.rows(); ++t) {
            const std::array<Index, 3> v { first + T(t, 0), first + T(t, 1), first + T(t, 2) };
            const auto rest = triangle_rest_2d<double>(positions.row(v[0]).transpose(), positions.row(v[1]).transpose(),
                positions.row(v[2]).transpose());
            for (const Index i : v) {
                mass[i] += density * rest.area / 3;
            }
            triangles.push_back({ v, lame[0], lame[1] });
            for (int k = 0; k < 3; ++k) {
                const Index a = v[std::size_t(k)], b = v[std::size_t((k + 1) % 3)];
                ++edge_uses[{ std::min(a, b), std::max(a, b) }];
            }
        }
        for (Index t = 0; t < T.rows(); ++t) { // boundary edges, in triangle order
            for (int k = 0; k < 3; ++k) {
                const Index a = first + T(t, k), b = first + T(t, (k + 1) % 3);
                if (edge_uses[{ std::min(a, b), std::max(a, b) }] == 1) {
                    contact_edges.push_back({ a, b });
                }
            }
        }
        return first;
    }

    /// Adds a rope through the points P (k x 2, m, k >= 2): one spring of
    /// axial stiffness (N) per segment, mass linear_density (kg/m per metre
    /// of depth) times the segment length shared by its ends. Returns the
    /// index of its first vertex. Throws ipc::invalid_argument for bad
    /// values or a segment of zero length.
    Index add_rope(const Eigen::MatrixXd& P, double stiffness, double linear_density, double radius)
    {
        require(P.cols() == 2 && P.rows() >= 2, "Model2D::add_rope: P must be k x 2 with k >= 2, got ", P.rows(),
            " x ", P.cols());
        require(std::isfinite(stiffness) && stiffness > 0, "Model2D::add_rope: stiffness must be positive, got ",
            stiffness);
        require(std::isfinite(linear_density) && linear_density > 0,
            "Model2D::add_rope: linear_density must be positive, got ", linear_density);
        const Index first = add_vertices(P, VertexKind::rod, radius, Eigen::Vector2d::Zero(), false, "Model2D::add_rope");
        for (Index i = 0; i + 1 < P.rows(); ++i) {
            const double length = (P.row(i + 1) - P.row(i)).norm();
            require(length > 0, "Model2D::add_rope: segment ", i, " has zero length");
            springs.push_back({ { first + i, first + i + 1 }, length, stiffness });
            contact_edges.push_back({ first + i, first + i + 1 });
            mass[first + i] += linear_density * length / 2;
            mass[first + i + 1] += linear_density * length / 2;
        }
        return first;
    }

    /// Adds a fixed obstacle: points P (k x 2, m) joined by the edges E
    /// (m x 2, indices into P). Returns the index of its first vertex.
    /// Throws ipc::invalid_argument for bad sizes, indices or values.
    Index add_obstacle(const Eigen::MatrixXd& P, const Eigen::MatrixXi& E, double radius)
    {
        require(P.cols() == 2 && P.rows() >= 2 && E.cols() == 2 && E.rows() >= 1,
            "Model2D::add_obstacle: P must be k x 2 and E m x 2, got ", P.rows(), " x ", P.cols(), " and ", E.rows(),
            " x ", E.cols());
        require(E.minCoeff() >= 0 && E.maxCoeff() < P.rows(), "Model2D::add_obstacle: edge index out of range [0, ",
            P.rows(), ")");
        const Index first = add_vertices(P, VertexKind::obstacle, radius, Eigen::Vector2d::Zero(), true,
            "Model2D::add_obstacle");
        for (Index e = 0; e < E.rows(); ++e) {
            contact_edges.push_back({ first + E(e, 0), first + E(e, 1) });
        }
        return first;
    }

    /// The collision mesh: contact_edges with the per-vertex radii, the
    /// obstacle vertices prescribed, interior soft-body vertices not
    /// colliding. Throws what CollisionMesh's construction throws.
    CollisionMesh collision_mesh() const
    {
        Eigen::MatrixXi E(Index(contact_edges.size()), 2);
        for (std::size_t i = 0; i < contact_edges.size(); ++i) {
            E.row(Index(i)) << int(contact_edges[i][0]), int(contact_edges[i][1]);
        }
        return CollisionMesh::Builder(positions)
            .edges(E)
            .vertex_radii(contact_radius)
            .prescribed_vertices(fixed)
            .isolated_vertices_are_particles(false)
            .build();
    }

private:
    Index add_vertices(const Eigen::MatrixXd& X, VertexKind k, double radius, const Eigen::Vector2d& velocity,
        bool is_fixed, const char* where)
    {
        require(all_finite(X), where, ": positions must be finite");
        require(std::isfinite(radius) && radius >= 0, where, ": radius must be finite and >= 0, got ", radius);
        require(all_finite(velocity), where, ": velocity must be finite");
        const Index first = positions.rows(), n = first + X.rows();
        positions.conservativeResize(n, 2);
        positions.bottomRows(X.rows()) = X;
        velocities.conservativeResize(n, 2);
        velocities.bottomRows(X.rows()).rowwise() = velocity.transpose();
        mass.conservativeResize(n);
        mass.tail(X.rows()).setZero();
        contact_radius.conservativeResize(n);
        contact_radius.tail(X.rows()).setConstant(radius);
        fixed.resize(std::size_t(n), is_fixed);
        kind.resize(std::size_t(n), k);
        return first;
    }
};

} // namespace ipc::examples
