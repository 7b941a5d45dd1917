// The 2D scenes of ipc_sim (declared in scenes_2d.hpp).

#include "scenes_2d.hpp"

#include <ipc/core/error.hpp>

#include <Eigen/Geometry>

#include <algorithm>
#include <cmath>
#include <vector>

namespace ipc::examples {

Mesh2D grid_mesh_2d(int cells_x, int cells_y, double cell, bool (*keep)(int i, int j, int cells_x, int cells_y))
{
    require(cells_x >= 1 && cells_y >= 1 && std::isfinite(cell) && cell > 0,
        "grid_mesh_2d: need at least one cell each way and a positive cell size, got ", cells_x, " x ", cells_y,
        " cells of ", cell, " m");
    const auto id = [&](int i, int j) { return j * (cells_x + 1) + i; };
    std::vector<int> index(std::size_t((cells_x + 1) * (cells_y + 1)), -1);
    std::vector<Eigen::Vector3i> triangles;
    for (int j = 0; j < cells_y; ++j) {
        for (int i = 0; i < cells_x; ++i) {
            if (keep && !keep(i, j, cells_x, cells_y)) {
                continue;
            }
            const int a = id(i, j), b = id(i + 1, j), c = id(i + 1, j + 1), d = id(i, j + 1);
            if ((i + j) % 2 == 0) {
                triangles.emplace_back(a, b, c);
                triangles.emplace_back(a, c, d);
            } else {
                triangles.emplace_back(a, b, d);
                triangles.emplace_back(b, c, d);
            }
        }
    }
    require(!triangles.empty(), "grid_mesh_2d: keep() left no cell of the ", cells_x, " x ", cells_y, " grid");
    Mesh2D mesh;
    int count = 0;
    for (auto& t : triangles) {
        for (int k = 0; k < 3; ++k) {
            int& slot = index[std::size_t(t[k])];
            if (slot < 0) {
                slot = count++;
            }
        }
    }
    mesh.V.resize(count, 2);
    for (int j = 0; j <= cells_y; ++j) {
        for (int i = 0; i <= cells_x; ++i) {
            if (const int v = index[std::size_t(id(i, j))]; v >= 0) {
                mesh.V.row(v) << i * cell, j * cell;
            }
        }
    }
    mesh.T.resize(Index(triangles.size()), 3);
    for (std::size_t t = 0; t < triangles.size(); ++t) {
        for (int k = 0; k < 3; ++k) {
            mesh.T(Index(t), k) = index[std::size_t(triangles[t][k])];
        }
    }
    return mesh;
}

Mesh2D disc_mesh_2d(double radius, int rings, int segments)
{
    require(std::isfinite(radius) && radius > 0 && rings >= 1 && segments >= 3,
        "disc_mesh_2d: need radius > 0, rings >= 1 and segments >= 3, got ", radius, ", ", rings, ", ", segments);
    Mesh2D mesh;
    mesh.V.resize(1 + rings * segments, 2);
    mesh.V.row(0).setZero();
    const double pi = std::acos(-1.0);
    for (int r = 1; r <= rings; ++r) {
        for (int s = 0; s < segments; ++s) {
            // Alternate rings are turned half a segment: better shaped triangles.
            const double angle = 2 * pi * (s + 0.5 * (r % 2)) / segments;
            mesh.V.row(1 + (r - 1) * segments + s) << radius * r / rings * std::cos(angle),
                radius * r / rings * std::sin(angle);
        }
    }
    std::vector<Eigen::Vector3i> triangles;
    const auto ring = [&](int r, int s) { return 1 + (r - 1) * segments + (s % segments); };
    for (int s = 0; s < segments; ++s) {
        triangles.emplace_back(0, ring(1, s), ring(1, s + 1));
    }
    for (int r = 1; r < rings; ++r) {
        for (int s = 0; s < segments; ++s) {
            if (r % 2 == 1) { // ring r+1 is turned back half a segment against ring r
                triangles.emplace_back(ring(r, s), ring(r + 1, s + 1), ring(r, s + 1));
                triangles.emplace_back(ring(r, s), ring(r + 1, s), ring(r + 1, s + 1));
            } else {
                triangles.emplace_back(ring(r, s), ring(r + 1, s), ring(r, s + 1));
                triangles.emplace_back(ring(r, s + 1), ring(r + 1, s), ring(r + 1, s + 1));
            }
        }
    }
    mesh.T.resize(Index(triangles.size()), 3);
    for (std::size_t t = 0; t < triangles.size(); ++t) {
        mesh.T.row(Index(t)) = triangles[t].transpose();
    }
    return mesh;
}

namespace {

    /// mesh turned by angle (rad) about its bounding-box centre, then moved
    /// so that this centre lies at center.
    Eigen::MatrixXd placed(const Mesh2D& mesh, const Eigen::Vector2d& center, double angle = 0)
    {
        const Eigen::RowVector2d middle = 0.5 * (mesh.V.colwise().minCoeff() + mesh.V.colwise().maxCoeff());
        const Eigen::Matrix2d R = Eigen::Rotation2Dd(angle).toRotationMatrix();
        Eigen::MatrixXd V = (mesh.V.rowwise() - middle) * R.transpose();
        return V.rowwise() + center.transpose();
    }

    bool l_shape(int i, int j, int cells_x, int cells_y) { return i < cells_x / 2 || j < cells_y / 2; }

    Scene2D boxes_2d(bool paper)
    {
        Scene2D s;
        s.name = "boxes_2d";
        s.description = "soft squares, a disc, an L shape and a rope fall into an open box with friction (2D)";
        s.parameters.dt = 0.01;
        s.parameters.dhat = 1e-3;
        s.parameters.mu = 0.25;
        s.parameters.eps_v = 1e-3;
        s.frames = 100;
        const double radius = 0.002; // contact radius of every vertex: offset 4 mm
        s.offset = 2 * radius;
        Model2D& m = s.model;

        // The open box: a floor 0.9 m wide (narrower than the bodies side by
        // side, so they pile up) and two walls 0.8 m high.
        Eigen::MatrixXd box(4, 2);
        box << -0.45, 0.8, -0.45, 0.0, 0.45, 0.0, 0.45, 0.8;
        Eigen::MatrixXi walls(3, 2);
        walls << 0, 1, 1, 2, 2, 3;
        m.add_obstacle(box, walls, radius);

        // Soft bodies, 0.16 m across (rubber-like: E = 0.1 MPa, nu = 0.4).
        const int cells = paper ? 10 : 4;
        const double side = 0.16, density = 1000, E = 1e5, nu = 0.4;
        const Mesh2D square = grid_mesh_2d(cells, cells, side / cells);
        const Mesh2D l = grid_mesh_2d(cells, cells, side / cells, l_shape);
        const Mesh2D disc = disc_mesh_2d(0.09, paper ? 5 : 2, paper ? 36 : 14);
        const double pi = std::acos(-1.0);
        const auto add = [&](const Mesh2D& shape, double x, double y, double degrees, double stiffness) {
            m.add_soft_body(placed(shape, { x, y }, degrees * pi / 180), shape.T, stiffness, nu, density, radius);
        };
        add(square, -0.33, 0.18, 0, E);
        add(square, -0.05, 0.16, 15, E);
        add(square, 0.30, 0.23, 0, 2 * E);
        add(disc, -0.25, 0.45, 0, 0.5 * E);
        add(l, 0.05, 0.44, 0, 2 * E);
        add(square, 0.30, 0.55, -25, E);
        if (paper) {
            add(square, -0.30, 0.68, 0, E);
            add(square, 0.02, 0.68, 30, 0.5 * E);
        }

        // A rope above them all, longer than the squares but shorter than
        // the box is wide: it falls in and drapes over the bodies.
        const int segments = paper ? 64 : 24;
        Eigen::MatrixXd rope(segments + 1, 2);
        for (int i = 0; i <= segments; ++i) {
            const double t = double(i) / segments;
            rope.row(i) << -0.38 + 0.76 * t, 0.9 + 0.02 * std::sin(3 * pi * t);
        }
        m.add_rope(rope, 1e4, 1.0, radius);

        s.view_center = { 0, 0.45 };
        s.view_height = 1.05;
        return s;
    }

} // namespace

std::vector<std::string> scene_names_2d() { return { "boxes_2d" }; }

bool is_scene_2d(const std::string& name)
{
    const auto names = scene_names_2d();
    return std::find(names.begin(), names.end(), name) != names.end();
}

Scene2D make_scene_2d(const std::string& name, bool paper)
{
    if (name == "boxes_2d") {
        return boxes_2d(paper);
    }
    throw invalid_argument("make_scene_2d: unknown 2D scene '" + name + "' (known: boxes_2d)");
}

} // namespace ipc::examples
