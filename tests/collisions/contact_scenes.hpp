#pragma once
// Small contact scenes of every codimension mix, and a brute-force reference
// of the active set that looks at every admissible pair of the mesh.

#include <ipc/barrier/offset_barrier.hpp>
#include <ipc/collisions/collisions.hpp>
#include <ipc/distance/distance_type.hpp>
#include <ipc/distance/edge_edge.hpp>
#include <ipc/distance/edge_edge_mollifier.hpp>
#include <ipc/distance/point_edge.hpp>
#include <ipc/distance/point_point.hpp>
#include <ipc/distance/point_triangle.hpp>
#include <ipc/mesh/collision_mesh.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <random>
#include <tuple>
#include <vector>

namespace ipc::test {

struct Scene {
    ipc::CollisionMesh mesh;
    Eigen::MatrixXd V; // current positions
};

// Grid sheet of nx x ny vertices on [0, width]^2 at height z (rows appended
// to V, triangles to F), gently waved with amplitude `wave`.
inline void add_sheet(Eigen::MatrixXd& V, Eigen::MatrixXi& F, int nx, int ny, double width, double z,
                      double wave, const Eigen::Vector2d& shift = Eigen::Vector2d::Zero())
{
    const Eigen::Index first = V.rows();
    V.conservativeResize(first + nx * ny, 3);
    for (int j = 0; j < ny; ++j) {
        for (int i = 0; i < nx; ++i) {
            const double x = width * i / (nx - 1) + shift.x(), y = width * j / (ny - 1) + shift.y();
            V.row(first + j * nx + i) << x, y, z + wave * std::sin(7 * x + 3 * y) * std::cos(5 * y);
        }
    }
    const Eigen::Index f0 = F.rows();
    F.conservativeResize(f0 + 2 * (nx - 1) * (ny - 1), 3);
    Eigen::Index f = f0;
    for (int j = 0; j + 1 < ny; ++j) {
        for (int i = 0; i + 1 < nx; ++i) {
            const int a = int(first) + j * nx + i, b = a + 1, c = a + nx, d = c + 1;
            F.row(f++) << a, b, d;
            F.row(f++) << a, d, c;
        }
    }
}

// Polyline rod of n vertices from `start` to `end` (rows appended to V,
// segments to E).
inline void add_rod(Eigen::MatrixXd& V, Eigen::MatrixXi& E, int n, const Eigen::Vector3d& start,
                    const Eigen::Vector3d& end)
{
    const Eigen::Index first = V.rows();
    V.conservativeResize(first + n, 3);
    for (int i = 0; i < n; ++i) {
        V.row(first + i) = (start + (end - start) * double(i) / (n - 1)).transpose();
    }
    const Eigen::Index e0 = E.rows();
    E.conservativeResize(e0 + n - 1, 2);
    for (int i = 0; i + 1 < n; ++i) {
        E.row(e0 + i) << int(first) + i, int(first) + i + 1;
    }
}

inline void add_particle(Eigen::MatrixXd& V, const Eigen::Vector3d& p)
{
    V.conservativeResize(V.rows() + 1, 3);
    V.row(V.rows() - 1) = p.transpose();
}

// Adds uniform noise of size `amount` to every coordinate.
inline void jitter(Eigen::MatrixXd& V, double amount, unsigned seed)
{
    std::mt19937 generator(seed);
    std::uniform_real_distribution<double> uniform(-amount, amount);
    for (Eigen::Index i = 0; i < V.size(); ++i) {
        V.data()[i] += uniform(generator);
    }
}

// The end positions of a random motion: V0 jittered by up to `amount`.
inline Eigen::MatrixXd random_motion(const Eigen::MatrixXd& V0, double amount, unsigned seed)
{
    Eigen::MatrixXd V1 = V0;
    jitter(V1, amount, seed);
    return V1;
}

// The scenes: every codimension mix close enough for many active pairs of
// every type at dhat = 0.05. radius > 0 gives every vertex that radius, and
// `varied` gives the vertices radii in [0, radius].
inline std::vector<Scene> mixed_scenes(double radius = 0, bool varied = false)
{
    std::vector<Scene> scenes;
    const auto finish = [&](Eigen::MatrixXd V, const Eigen::MatrixXi& E, const Eigen::MatrixXi& F, unsigned seed) {
        jitter(V, 0.01, seed);
        Eigen::VectorXd radii = Eigen::VectorXd::Constant(V.rows(), radius);
        if (varied) {
            for (Eigen::Index i = 0; i < V.rows(); ++i) {
                radii[i] = radius * double((i * 7) % 5) / 4.0;
            }
        }
        Scene scene { ipc::CollisionMesh(V, E, F, radii), V };
        scenes.push_back(scene);
    };
    {   // shell on shell
        Eigen::MatrixXd V(0, 3);
        Eigen::MatrixXi E(0, 2), F(0, 3);
        add_sheet(V, F, 5, 5, 1.0, 0.0, 0.02);
        add_sheet(V, F, 4, 5, 0.8, 0.04, 0.02, { 0.13, 0.05 });
        finish(V, E, F, 1);
    }
    {   // rods on a shell, rods crossing each other
        Eigen::MatrixXd V(0, 3);
        Eigen::MatrixXi E(0, 2), F(0, 3);
        add_sheet(V, F, 4, 4, 1.0, 0.0, 0.0);
        add_rod(V, E, 6, { 0.05, 0.1, 0.03 }, { 0.9, 0.8, 0.035 });
        add_rod(V, E, 5, { 0.8, 0.05, 0.06 }, { 0.1, 0.9, 0.05 });
        add_rod(V, E, 4, { 0.1, 0.5, 0.07 }, { 0.95, 0.52, 0.07 });
        finish(V, E, F, 2);
    }
    {   // particles on a shell, on rods and on each other
        Eigen::MatrixXd V(0, 3);
        Eigen::MatrixXi E(0, 2), F(0, 3);
        add_sheet(V, F, 4, 4, 1.0, 0.0, 0.0);
        add_rod(V, E, 5, { 0.0, 0.5, 0.1 }, { 1.0, 0.5, 0.1 });
        for (int i = 0; i < 12; ++i) {
            add_particle(V, { 0.08 * i + 0.03, 0.45 + 0.01 * (i % 3), i % 2 ? 0.03 : 0.13 });
        }
        add_particle(V, { 0.5, 0.2, 0.02 });
        add_particle(V, { 0.52, 0.21, 0.03 });
        finish(V, E, F, 3);
    }
    {   // nearly parallel edges: two sheets with aligned grids, plus parallel rods
        Eigen::MatrixXd V(0, 3);
        Eigen::MatrixXi E(0, 2), F(0, 3);
        add_sheet(V, F, 3, 3, 1.0, 0.0, 0.0);
        add_sheet(V, F, 3, 3, 1.0, 0.03, 0.0, { 0.25, 0.0 });
        add_rod(V, E, 3, { 0.1, 0.2, -0.03 }, { 0.9, 0.2, -0.03 });
        add_rod(V, E, 3, { 0.1, 0.23, -0.04 }, { 0.9, 0.231, -0.04 });
        Eigen::MatrixXd W = V;
        jitter(W, 1e-4, 4); // small jitter keeps grid edges nearly parallel
        Eigen::VectorXd radii = Eigen::VectorXd::Constant(W.rows(), radius);
        scenes.push_back({ ipc::CollisionMesh(W, E, F, radii), W });
    }
    return scenes;
}

// Reduced stencil keys of the brute-force reference.
using Key = std::array<Index, 5>; // kind (0 vv, 1 ev, 2 ee, 3 fv), vertices..., padded with -1

// A stencil and its offset: source pairs merge only when both agree.
using OffsetKey = std::pair<Key, double>;

struct Reference {
    std::map<OffsetKey, int> counts; // stencil and offset -> number of source pairs
    int active_pairs = 0;
    double energy = 0; // sum of barrier (mollified for edge-edge) over active pairs, kappa = 1
};

inline Eigen::Vector3d row(const Eigen::MatrixXd& V, Index i) { return V.row(i).transpose(); }

// Brute force over every admissible pair of the mesh: distances by the
// automatic distance functions, the activity test d < xi + dhat, and the
// reduction to the closest features.
inline Reference brute_force_reference(const ipc::CollisionMesh& mesh, const Eigen::MatrixXd& V, double dhat,
                                       double dmin = 0)
{
    Reference ref;
    const Eigen::MatrixXi& E = mesh.edges();
    const Eigen::MatrixXi& F = mesh.faces();
    const Eigen::MatrixXd& rest = mesh.rest_positions();
    const auto add = [&](Key key, double xi) { ref.counts[{ key, xi }] += 1; };
    const auto pp = [](Index a, Index b) { return Key { 0, std::min(a, b), std::max(a, b), -1, -1 }; };
    const auto pe = [](Index p, Index e0, Index e1) { return Key { 1, p, std::min(e0, e1), std::max(e0, e1), -1 }; };
    const auto active = [&](double d2, double xi) { return std::sqrt(d2) < xi + dhat; };
    const auto barrier = [&](double d2, double xi) { return ipc::offset_barrier(d2, xi, dhat); };

    for (Index v0 = 0; v0 < mesh.num_vertices(); ++v0) {
        for (Index v1 = v0 + 1; v1 < mesh.num_vertices(); ++v1) {
            if (!mesh.can_collide_vertex_vertex(v0, v1)) {
                continue;
            }
            const double d2 = ipc::point_point_distance_squared(row(V, v0), row(V, v1));
            const double xi = mesh.vertex_vertex_offset(v0, v1) + dmin;
            if (active(d2, xi)) {
                ++ref.active_pairs;
                ref.energy += barrier(d2, xi);
                add(pp(v0, v1), xi);
            }
        }
    }
    for (Index e = 0; e < mesh.num_edges(); ++e) {
        for (Index v = 0; v < mesh.num_vertices(); ++v) {
            if (!mesh.can_collide_edge_vertex(e, v)) {
                continue;
            }
            const Index e0 = E(e, 0), e1 = E(e, 1);
            const double d2 = ipc::point_edge_distance_squared(row(V, v), row(V, e0), row(V, e1));
            const double xi = mesh.edge_vertex_offset(e, v) + dmin;
            if (!active(d2, xi)) {
                continue;
            }
            ++ref.active_pairs;
            ref.energy += barrier(d2, xi);
            switch (ipc::point_edge_distance_type(row(V, v), row(V, e0), row(V, e1))) {
            case ipc::PointEdgeDistanceType::P_E0: add(pp(v, e0), xi); break;
            case ipc::PointEdgeDistanceType::P_E1: add(pp(v, e1), xi); break;
            case ipc::PointEdgeDistanceType::P_E: add(pe(v, e0, e1), xi); break;
            }
        }
    }
    for (Index ea = 0; ea < mesh.num_edges(); ++ea) {
        for (Index eb = ea + 1; eb < mesh.num_edges(); ++eb) {
            if (!mesh.can_collide_edge_edge(ea, eb)) {
                continue;
            }
            const Index a0 = E(ea, 0), a1 = E(ea, 1), b0 = E(eb, 0), b1 = E(eb, 1);
            const Eigen::Vector3d pa0 = row(V, a0), pa1 = row(V, a1), pb0 = row(V, b0), pb1 = row(V, b1);
            const double d2 = ipc::edge_edge_distance_squared(pa0, pa1, pb0, pb1);
            const double xi = mesh.edge_edge_offset(ea, eb) + dmin;
            if (!active(d2, xi)) {
                continue;
            }
            ++ref.active_pairs;
            const double eps_x = ipc::edge_edge_mollifier_threshold(row(rest, a0), row(rest, a1), row(rest, b0),
                                                                    row(rest, b1));
            ref.energy += ipc::edge_edge_mollifier(pa0, pa1, pb0, pb1, eps_x) * barrier(d2, xi);
            const auto type = ipc::edge_edge_distance_type(pa0, pa1, pb0, pb1);
            const double cross = (pa1 - pa0).cross(pb1 - pb0).squaredNorm();
            using T = ipc::EdgeEdgeDistanceType;
            if (type == T::EA_EB || cross < eps_x) {
                add(Key { 2, a0, a1, b0, b1 }, xi);
                continue;
            }
            switch (type) {
            case T::EA0_EB0: add(pp(a0, b0), xi); break;
            case T::EA0_EB1: add(pp(a0, b1), xi); break;
            case T::EA1_EB0: add(pp(a1, b0), xi); break;
            case T::EA1_EB1: add(pp(a1, b1), xi); break;
            case T::EA_EB0: add(pe(b0, a0, a1), xi); break;
            case T::EA_EB1: add(pe(b1, a0, a1), xi); break;
            case T::EA0_EB: add(pe(a0, b0, b1), xi); break;
            case T::EA1_EB: add(pe(a1, b0, b1), xi); break;
            case T::EA_EB: break;
            }
        }
    }
    for (Index f = 0; f < mesh.num_faces(); ++f) {
        for (Index v = 0; v < mesh.num_vertices(); ++v) {
            if (!mesh.can_collide_face_vertex(f, v)) {
                continue;
            }
            const Index t0 = F(f, 0), t1 = F(f, 1), t2 = F(f, 2);
            const Eigen::Vector3d p = row(V, v), q0 = row(V, t0), q1 = row(V, t1), q2 = row(V, t2);
            const double d2 = ipc::point_triangle_distance_squared(p, q0, q1, q2);
            const double xi = mesh.face_vertex_offset(f, v) + dmin;
            if (!active(d2, xi)) {
                continue;
            }
            ++ref.active_pairs;
            ref.energy += barrier(d2, xi);
            using T = ipc::PointTriangleDistanceType;
            switch (ipc::point_triangle_distance_type(p, q0, q1, q2)) {
            case T::P_T: add(Key { 3, v, t0, t1, t2 }, xi); break;
            case T::P_T0: add(pp(v, t0), xi); break;
            case T::P_T1: add(pp(v, t1), xi); break;
            case T::P_T2: add(pp(v, t2), xi); break;
            case T::P_E0: add(pe(v, t0, t1), xi); break;
            case T::P_E1: add(pe(v, t1, t2), xi); break;
            case T::P_E2: add(pe(v, t2, t0), xi); break;
            }
        }
    }
    return ref;
}

// The same keys read from a built Collisions set (weights as counts).
inline std::map<OffsetKey, int> collision_counts(const ipc::Collisions& c)
{
    std::map<OffsetKey, int> counts;
    for (const auto& s : c.vertex_vertex) {
        counts[{ Key { 0, std::min(s.vertices[0], s.vertices[1]), std::max(s.vertices[0], s.vertices[1]), -1, -1 }, s.offset }] +=
            int(s.weight);
    }
    for (const auto& s : c.edge_vertex) {
        counts[{ Key { 1, s.vertices[0], std::min(s.vertices[1], s.vertices[2]), std::max(s.vertices[1], s.vertices[2]),
                     -1 }, s.offset }] += int(s.weight);
    }
    for (const auto& s : c.edge_edge) {
        counts[{ Key { 2, s.vertices[0], s.vertices[1], s.vertices[2], s.vertices[3] }, s.offset }] += int(s.weight);
    }
    for (const auto& s : c.face_vertex) {
        counts[{ Key { 3, s.vertices[0], s.vertices[1], s.vertices[2], s.vertices[3] }, s.offset }] += int(s.weight);
    }
    return counts;
}

// Every admissible pair of the mesh as candidates (no broad phase).
inline ipc::Candidates all_candidates(const ipc::CollisionMesh& mesh)
{
    ipc::Candidates c;
    for (Index v0 = 0; v0 < mesh.num_vertices(); ++v0) {
        for (Index v1 = v0 + 1; v1 < mesh.num_vertices(); ++v1) {
            if (mesh.can_collide_vertex_vertex(v0, v1)) {
                c.vertex_vertex.push_back({ v0, v1 });
            }
        }
    }
    for (Index e = 0; e < mesh.num_edges(); ++e) {
        for (Index v = 0; v < mesh.num_vertices(); ++v) {
            if (mesh.can_collide_edge_vertex(e, v)) {
                c.edge_vertex.push_back({ e, v });
            }
        }
    }
    for (Index ea = 0; ea < mesh.num_edges(); ++ea) {
        for (Index eb = ea + 1; eb < mesh.num_edges(); ++eb) {
            if (mesh.can_collide_edge_edge(ea, eb)) {
                c.edge_edge.push_back({ ea, eb });
            }
        }
    }
    for (Index f = 0; f < mesh.num_faces(); ++f) {
        for (Index v = 0; v < mesh.num_vertices(); ++v) {
            if (mesh.can_collide_face_vertex(f, v)) {
                c.face_vertex.push_back({ f, v });
            }
        }
    }
    return c;
}

} // namespace ipc::test
