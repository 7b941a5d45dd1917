// Scene adaptation for the repulsion integrator (see repulsion_scenes.hpp).

#include "repulsion_scenes.hpp"

#include <common/scene_builders.hpp>

#include <ipc/core/error.hpp>
#include <ipc/distance/edge_edge.hpp>
#include <ipc/distance/point_triangle.hpp>

#include <Eigen/Eigenvalues>

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace ipc::examples {

namespace {
    /// A flat rectangular cloth: corner, orthogonal sides (facing u x v as
    /// the original triangles did) and its area.
    struct Rectangle {
        Eigen::Vector3d origin, u, v;
    };

    double shell_area(const Model& model, const Model::Shell& shell)
    {
        double area = 0;
        for (Index f = 0; f < shell.faces.rows(); ++f) {
            const Eigen::Vector3d a = model.positions.row(shell.faces(f, 0)).transpose();
            const Eigen::Vector3d b = model.positions.row(shell.faces(f, 1)).transpose();
            const Eigen::Vector3d c = model.positions.row(shell.faces(f, 2)).transpose();
            area += 0.5 * (b - a).cross(c - a).norm();
        }
        return area;
    }

    Rectangle rectangle_of(const Model& model, const Model::Shell& shell, std::size_t index)
    {
        const Eigen::MatrixXd V = model.positions.middleRows(shell.first_vertex, shell.num_vertices);
        const Eigen::RowVector3d mean = V.colwise().mean();
        const Eigen::MatrixXd centred = V.rowwise() - mean;
        const Eigen::SelfAdjointEigenSolver<Eigen::Matrix3d> eigen(centred.transpose() * centred);
        // Eigenvalues ascend: the normal first, then the short and long sides.
        Eigen::Vector3d normal = eigen.eigenvectors().col(0);
        Eigen::Vector3d u = eigen.eigenvectors().col(2), w = eigen.eigenvectors().col(1);
        const Eigen::Vector3d a = V.row(shell.faces(0, 0) - shell.first_vertex).transpose();
        const Eigen::Vector3d b = V.row(shell.faces(0, 1) - shell.first_vertex).transpose();
        const Eigen::Vector3d c = V.row(shell.faces(0, 2) - shell.first_vertex).transpose();
        if ((b - a).cross(c - a).dot(normal) < 0) {
            normal = -normal;
        }
        if (u.cross(w).dot(normal) < 0) {
            w = -w;
        }
        const Eigen::VectorXd s = centred * u, r = centred * w, h = centred * normal;
        const double size = std::max(s.maxCoeff() - s.minCoeff(), r.maxCoeff() - r.minCoeff());
        require(h.cwiseAbs().maxCoeff() <= 1e-9 * size, "repulsion: cloth ", index,
            " is not flat; the lattice remeshing handles flat rectangular sheets");
        const double width = s.maxCoeff() - s.minCoeff(), depth = r.maxCoeff() - r.minCoeff();
        require(std::abs(shell_area(model, shell) - width * depth) <= 1e-6 * width * depth, "repulsion: cloth ",
            index, " is not a rectangle; the lattice remeshing handles flat rectangular sheets");
        return { mean.transpose() + s.minCoeff() * u + r.minCoeff() * w, width * u, depth * w };
    }

    /// Distance between two rectangles: the least distance from a corner of
    /// one to a triangle of the other, or between two sides.
    double rectangle_distance(const Rectangle& a, const Rectangle& b)
    {
        const auto corners = [](const Rectangle& r) {
            return std::array<Eigen::Vector3d, 4> { r.origin, r.origin + r.u, r.origin + r.u + r.v, r.origin + r.v };
        };
        const auto ca = corners(a), cb = corners(b);
        double d2 = std::numeric_limits<double>::infinity();
        for (int side = 0; side < 2; ++side) {
            const auto& p = side == 0 ? ca : cb;
            const auto& q = side == 0 ? cb : ca;
            for (const auto& corner : p) {
                d2 = std::min({ d2, ipc::point_triangle_distance_squared(corner, q[0], q[1], q[2]),
                    ipc::point_triangle_distance_squared(corner, q[0], q[2], q[3]) });
            }
        }
        for (int i = 0; i < 4; ++i) {
            for (int j = 0; j < 4; ++j) {
                d2 = std::min(d2, ipc::edge_edge_distance_squared(ca[std::size_t(i)], ca[std::size_t((i + 1) % 4)],
                                      cb[std::size_t(j)], cb[std::size_t((j + 1) % 4)]));
            }
        }
        return std::sqrt(d2);
    }

    double point_segment_distance(const Eigen::Vector3d& q, const Eigen::Vector3d& a, const Eigen::Vector3d& b)
    {
        const Eigen::Vector3d d = b - a;
        const double t = d.squaredNorm() > 0 ? std::clamp((q - a).dot(d) / d.squaredNorm(), 0.0, 1.0) : 0.0;
        return (a + t * d - q).norm();
    }
} // namespace

double choose_rest_edge(const Scene& scene, double target_vertices)
{
    require(target_vertices >= 1, "repulsion: target vertex count must be positive");
    const Model& m = scene.model;
    double area = 0;
    for (const auto& shell : m.shells) {
        area += shell_area(m, shell);
    }
    require(area > 0, "repulsion: scene ", scene.name, " has no cloth");
    // A lattice of edge l has about area / (l^2 sqrt(3) / 2) vertices.
    double edge = std::sqrt(area / (target_vertices * std::sqrt(3.0) / 2));
    // Distinct sheets must start at least B + B_t = 1.547 L_ref apart; keep
    // 10% to spare. The sheets are flat rectangles (two triangles each), so
    // their distance is the least corner-triangle or side-side distance.
    std::vector<Rectangle> rectangles;
    for (std::size_t k = 0; k < m.shells.size(); ++k) {
        rectangles.push_back(rectangle_of(m, m.shells[k], k));
    }
    for (std::size_t a = 0; a < rectangles.size(); ++a) {
        for (std::size_t b = a + 1; b < rectangles.size(); ++b) {
            edge = std::min(edge, rectangle_distance(rectangles[a], rectangles[b]) / (1.1 * 1.547));
        }
    }
    return edge;
}

RepulsionScene repulsion_scene(const Scene& scene, bool paper, double rest_edge, double dt)
{
    const Model& m = scene.model;
    RepulsionScene out;
    RepulsionParameters& p = out.parameters;
    p.rest_edge = rest_edge > 0 ? rest_edge : choose_rest_edge(scene, paper ? 5e4 : 1e3);
    p.dt = dt > 0 ? dt : std::min(0.01, scene.physics.dt);
    p.friction = scene.physics.friction;
    p.self_friction = scene.physics.friction;
    const bool has_obstacle_mesh
        = std::find(m.kind.begin(), m.kind.end(), VertexKind::obstacle) != m.kind.end();
    require(!has_obstacle_mesh || !scene.shapes.empty(), "repulsion: scene ", scene.name,
        " has obstacle meshes but no signed-distance shapes for them");
    out.obstacles = scene.shapes;
    out.obstacles.insert(out.obstacles.end(), m.analytic_obstacles.begin(), m.analytic_obstacles.end());
    for (const auto& o : out.obstacles) {
        p.obstacles.push_back(o.shape);
    }
    for (const VertexKind k : { VertexKind::volume, VertexKind::rod, VertexKind::particle }) {
        const auto count = std::count(m.kind.begin(), m.kind.end(), k);
        if (count > 0) {
            out.notes.push_back(fmt::format("left out {} {} vertices: the repulsion method simulates cloth only",
                count, name_of(k)));
        }
    }
    const std::vector<bool> fixed = m.fixed;
    std::vector<const ScriptedMotion*> motion(std::size_t(m.num_vertices()), nullptr);
    for (const auto& s : m.scripted) {
        motion[std::size_t(s.vertex)] = &s.motion;
    }

    out.model.gravity = m.gravity;
    for (std::size_t k = 0; k < m.shells.size(); ++k) {
        const Model::Shell& shell = m.shells[k];
        const Rectangle r = rectangle_of(m, shell, k);
        const TriangleMesh lattice = lattice_cloth(r.origin, r.u, r.v, p.rest_edge);
        const Index base = out.model.add_shell(lattice.vertices, lattice.faces, shell.material, 0);
        const double spacing = r.u.norm() / std::max(1L, std::lround(r.u.norm() / p.rest_edge));
        const double tolerance = 0.55 * spacing;

        // Held features of the original: vertices, and mesh edges whose two
        // ends are held.
        const auto is_held = [&](Index v) { return fixed[std::size_t(v)] || motion[std::size_t(v)] != nullptr; };
        std::vector<Index> held_vertices;
        std::vector<std::pair<Index, Index>> held_edges;
        for (Index v = shell.first_vertex; v < shell.first_vertex + shell.num_vertices; ++v) {
            if (is_held(v)) {
                held_vertices.push_back(v);
            }
        }
        for (Index f = 0; f < shell.faces.rows(); ++f) {
            for (int e = 0; e < 3; ++e) {
                const Index a = shell.faces(f, e), b = shell.faces(f, (e + 1) % 3);
                if (a < b && is_held(a) && is_held(b)) {
                    held_edges.emplace_back(a, b);
                }
            }
        }
        // Initial velocity: a uniform one carries over; otherwise the
        // nearest original vertex's.
        const Eigen::MatrixXd V0 = m.positions.middleRows(shell.first_vertex, shell.num_vertices);
        const Eigen::MatrixXd W0 = m.velocities.middleRows(shell.first_vertex, shell.num_vertices);
        const bool uniform = (W0.rowwise() - W0.row(0)).cwiseAbs().maxCoeff() == 0;
        for (Index i = 0; i < lattice.vertices.rows(); ++i) {
            const Eigen::Vector3d q = lattice.vertices.row(i).transpose();
            Index nearest_original = 0;
            if (!uniform) {
                (V0.rowwise() - q.transpose()).rowwise().squaredNorm().minCoeff(&nearest_original);
            }
            out.model.velocities.row(base + i) = W0.row(nearest_original);
            Index source = -1;
            double best = tolerance;
            for (const Index v : held_vertices) {
                const double d = (m.positions.row(v).transpose() - q).norm();
                if (d <= best) {
                    best = d;
                    source = v;
                }
            }
            for (const auto& [a, b] : held_edges) {
                const double d = point_segment_distance(q, m.positions.row(a).transpose(), m.positions.row(b).transpose());
                if (d <= best) {
                    best = d;
                    const bool a_nearer = (m.positions.row(a).transpose() - q).norm()
                        <= (m.positions.row(b).transpose() - q).norm();
                    source = a_nearer ? a : b;
                }
            }
            if (source < 0) {
                continue;
            }
            if (motion[std::size_t(source)]) {
                out.model.script(base + i, *motion[std::size_t(source)]);
            } else {
                out.model.fix(base + i);
            }
        }
    }
    const double steps_per_frame = std::max(1.0, std::round(scene.physics.dt / p.dt));
    out.frames = int(scene.frames * steps_per_frame);
    out.notes.push_back(fmt::format("cloth remeshed as a uniform lattice of edge {:.4g} m ({} vertices); h = {} s",
        p.rest_edge, out.model.num_vertices(), p.dt));
    // Held vertices carry the cloth's weight, or drive it, through the
    // membrane. Jacobi descent spreads their pull a few vertices per
    // iteration, so at paper size the cloth near them stretches to the cap
    // and the rest lags (hanging_cloth at 50K vertices froze): there the
    // dynamics take factored Newton steps.
    const std::vector<bool> held = out.model.held();
    if (paper && std::find(held.begin(), held.end(), true) != held.end()) {
        p.dynamics = RepulsionDynamics::factored;
        out.notes.push_back("held vertices at paper size: dynamics by factored Newton steps (--dynamics chebyshev for "
                            "the paper's Jacobi descent)");
    }
    return out;
}

} // namespace ipc::examples
