#pragma once
/// @file
/// What the example programs write per frame: an OBJ of every surface, rod
/// and particle, and a preview picture with a caption (scene, step, time,
/// contacts) and a colour legend, whatever solver produced the positions.

#include <common/model.hpp>
#include <common/obj_writer.hpp>
#include <common/png_output.hpp>
#include <common/rasterizer.hpp>

#include <ipc/mesh/collision_mesh.hpp>

#include <fmt/core.h>

#include <Eigen/Core>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

namespace ipc::examples {

/// How a scene is shown: its name for the caption, the camera and the cloth
/// opacity (below 1 shows what lies under the cloth).
struct FrameView {
    std::string name;
    Eigen::Vector3d eye { 0, 1, 2 };
    Eigen::Vector3d target { 0, 0, 0 };
    double shell_opacity = 1;
};

inline Color color_of(VertexKind k)
{
    switch (k) {
    case VertexKind::volume:
        return { 230, 120, 70 };
    case VertexKind::shell:
        return { 70, 130, 220 };
    case VertexKind::rod:
        return { 240, 200, 60 };
    case VertexKind::particle:
        return { 200, 60, 160 };
    case VertexKind::obstacle:
        return { 170, 170, 170 };
    }
    return { 255, 255, 255 };
}

inline const char* name_of(VertexKind k)
{
    switch (k) {
    case VertexKind::volume:
        return "soft volume";
    case VertexKind::shell:
        return "cloth";
    case VertexKind::rod:
        return "rods";
    case VertexKind::particle:
        return "particles";
    case VertexKind::obstacle:
        return "obstacles";
    }
    return "?";
}

/// Analytic obstacles drawn as meshes inscribed in their shapes (a plane as
/// a square board of its board_extent), for frame files and pictures.
struct ObstacleDrawing {
    Eigen::MatrixXd vertices;            ///< every obstacle's vertices, in order (m)
    std::vector<ObjObject> objects;      ///< one `obstacle_NAME` per obstacle (NAME_K when a name repeats)
    std::vector<Eigen::Vector3i> faces;  ///< all triangles, indices offset by first_vertex
};

/// The drawing of obstacles whose vertices will follow first_vertex others
/// in the file (indices in objects and faces include that offset).
inline ObstacleDrawing obstacle_drawing(const std::vector<AnalyticObstacle>& obstacles, Eigen::Index first_vertex)
{
    ObstacleDrawing out;
    out.vertices.resize(0, 3);
    std::vector<std::string> names;
    for (const AnalyticObstacle& o : obstacles) {
        names.push_back(ipc::obstacle_name(o.shape));
    }
    for (std::size_t k = 0; k < obstacles.size(); ++k) {
        const ipc::ObstacleMesh mesh = ipc::obstacle_mesh(obstacles[k].shape, 48, obstacles[k].board_extent);
        const Eigen::Index base = first_vertex + out.vertices.rows();
        out.vertices.conservativeResize(out.vertices.rows() + mesh.vertices.rows(), 3);
        out.vertices.bottomRows(mesh.vertices.rows()) = mesh.vertices;
        const bool unique = std::count(names.begin(), names.end(), names[k]) == 1;
        ObjObject object { "obstacle_" + names[k] + (unique ? "" : "_" + std::to_string(k)), {}, {}, {} };
        for (Eigen::Index f = 0; f < mesh.faces.rows(); ++f) {
            const Eigen::Vector3i t = mesh.faces.row(f).transpose().array() + int(base);
            object.triangles.push_back(t);
            out.faces.push_back(t);
        }
        out.objects.push_back(std::move(object));
    }
    return out;
}

/// Positions x followed by the drawing's vertices.
inline Eigen::MatrixXd with_drawing(const Eigen::MatrixXd& x, const ObstacleDrawing& drawing)
{
    Eigen::MatrixXd V(x.rows() + drawing.vertices.rows(), 3);
    V << x, drawing.vertices;
    return V;
}

/// The preview picture of positions x, 800 x 600 pixels: opaque bodies
/// first, then the cloth blended over them when the scene asks for it,
/// particles as outlined discs, a caption (scene, step, time, contacts) and
/// a colour legend. render_frame writes it as a PNG file; --video
/// (common/video_output.hpp) sends one per step to the encoder.
inline Rasterizer draw_frame(const Model& m, const ipc::CollisionMesh& mesh, const Eigen::MatrixXd& x,
    const FrameView& scene, std::size_t step, double time, std::size_t contacts)
{
    const Eigen::MatrixXi& F = mesh.faces();
    Rasterizer r(800, 600, scene.eye, scene.target);
    const ObstacleDrawing analytic = obstacle_drawing(m.analytic_obstacles, 0);
    for (const Eigen::Vector3i& t : analytic.faces) {
        r.triangle(analytic.vertices.row(t[0]).transpose(), analytic.vertices.row(t[1]).transpose(),
            analytic.vertices.row(t[2]).transpose(), color_of(VertexKind::obstacle));
    }
    auto vertex = [&](Eigen::Index i) -> Eigen::Vector3d { return x.row(i).transpose(); };

    std::vector<Eigen::Index> blended;
    for (Eigen::Index f = 0; f < F.rows(); ++f) {
        const VertexKind kind = m.kind[std::size_t(F(f, 0))];
        if (kind == VertexKind::shell && scene.shell_opacity < 1) {
            blended.push_back(f);
        } else {
            r.triangle(vertex(F(f, 0)), vertex(F(f, 1)), vertex(F(f, 2)), color_of(kind));
        }
    }
    for (const auto& e : m.contact_edges) {
        r.segment(vertex(e[0]), vertex(e[1]), color_of(VertexKind::rod), 3);
    }
    for (Eigen::Index v = 0; v < x.rows(); ++v) {
        if (m.kind[std::size_t(v)] == VertexKind::particle) {
            r.point(vertex(v), color_of(VertexKind::particle), 4.5, { 40, 10, 35 }, 1.5, true);
        }
    }
    // Blended cloth, farthest triangle first.
    std::vector<double> depth(blended.size());
    for (std::size_t k = 0; k < blended.size(); ++k) {
        const Eigen::Index f = blended[k];
        depth[k] = r.view_depth((vertex(F(f, 0)) + vertex(F(f, 1)) + vertex(F(f, 2))) / 3);
    }
    std::vector<std::size_t> order(blended.size());
    std::iota(order.begin(), order.end(), std::size_t(0));
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return depth[a] > depth[b]; });
    for (const std::size_t k : order) {
        const Eigen::Index f = blended[k];
        r.triangle(vertex(F(f, 0)), vertex(F(f, 1)), vertex(F(f, 2)), color_of(VertexKind::shell), scene.shell_opacity);
    }

    // Caption along the top.
    const int scale = 2;
    const std::string caption
        = fmt::format("{}   step {}   t = {:.3f} s   contacts {}", scene.name, step, time, contacts);
    r.panel(0, 0, r.width(), Rasterizer::text_height(scale) + 14, { 25, 30, 40 }, 0.8);
    r.text(12, 8, caption, { 255, 255, 255 }, scale);

    // Legend along the bottom: one swatch per kind of body in the scene.
    std::vector<VertexKind> kinds;
    for (const VertexKind k : { VertexKind::volume, VertexKind::shell, VertexKind::rod, VertexKind::particle,
             VertexKind::obstacle }) {
        if (std::find(m.kind.begin(), m.kind.end(), k) != m.kind.end()
            || (k == VertexKind::obstacle && !m.analytic_obstacles.empty())) {
            kinds.push_back(k);
        }
    }
    const int line = Rasterizer::text_height(scale);
    const int top = r.height() - line - 14;
    r.panel(0, top, r.width(), line + 14, { 25, 30, 40 }, 0.6);
    int left = 12;
    for (const VertexKind k : kinds) {
        r.panel(left, top + 7, 7 * scale, 7 * scale, color_of(k));
        left += 7 * scale + 8;
        r.text(left, top + 7, name_of(k), { 255, 255, 255 }, scale);
        left += Rasterizer::text_width(name_of(k), scale) + 22;
    }
    return r;
}

/// Writes the picture of draw_frame to path as a PNG file.
inline void render_frame(const std::string& path, const Model& m, const ipc::CollisionMesh& mesh,
    const Eigen::MatrixXd& x, const FrameView& scene, std::size_t step, double time, std::size_t contacts)
{
    const Rasterizer r = draw_frame(m, mesh, x, scene, step, time, contacts);
    write_png(path, r.image(), r.width(), r.height());
}

/// Writes the frame at positions x as an OBJ: the simulated surfaces, rods
/// and particles under `o bodies`, and each connected obstacle (fixed or
/// scripted) under its own `o obstacle_K`, K = 0, 1, ... in vertex order;
/// held segments and points under `o obstacle_segments` and
/// `o obstacle_points`; the model's analytic obstacles follow, drawn as
/// meshes inscribed in their shapes (a plane as a square board), under
/// `o obstacle_NAME` (obstacle_drawing). Obstacles may touch or overlap each
/// other by design; bodies may not.
inline void write_frame(const std::string& path, const Model& m, const ipc::CollisionMesh& mesh,
    const Eigen::MatrixXd& x)
{
    // Connected obstacle components (union-find over their triangles).
    std::vector<int> parent(std::size_t(x.rows()));
    std::iota(parent.begin(), parent.end(), 0);
    const auto root = [&](int v) {
        while (parent[std::size_t(v)] != v) {
            v = parent[std::size_t(v)] = parent[std::size_t(parent[std::size_t(v)])];
        }
        return v;
    };
    const auto is_obstacle = [&](int v) { return m.kind[std::size_t(v)] == VertexKind::obstacle; };
    for (Eigen::Index f = 0; f < mesh.faces().rows(); ++f) {
        if (is_obstacle(mesh.faces()(f, 0))) {
            for (int k = 1; k < 3; ++k) {
                parent[std::size_t(root(mesh.faces()(f, k)))] = root(mesh.faces()(f, 0));
            }
        }
    }
    std::vector<ObjObject> objects(1);
    objects[0].name = "bodies";
    std::vector<int> component_object(std::size_t(x.rows()), -1);
    for (Eigen::Index f = 0; f < mesh.faces().rows(); ++f) {
        const Eigen::Vector3i t = mesh.faces().row(f).transpose();
        if (!is_obstacle(t[0])) {
            objects[0].triangles.push_back(t);
            continue;
        }
        int& object = component_object[std::size_t(root(t[0]))];
        if (object < 0) {
            object = int(objects.size());
            objects.push_back({ "obstacle_" + std::to_string(objects.size() - 1), {}, {}, {} });
        }
        objects[std::size_t(object)].triangles.push_back(t);
    }
    // Held segments (pins) and held points go under obstacle objects of
    // their own, so that `o bodies` holds only what is simulated.
    ObjObject obstacle_segments { "obstacle_segments", {}, {}, {} };
    ObjObject obstacle_points { "obstacle_points", {}, {}, {} };
    for (const auto& e : m.contact_edges) {
        (is_obstacle(e[0]) ? obstacle_segments : objects[0]).segments.push_back(e);
    }
    for (Eigen::Index v = 0; v < x.rows(); ++v) {
        if (m.kind[std::size_t(v)] == VertexKind::particle) {
            objects[0].points.push_back(int(v));
        }
    }
    for (const auto& body : m.bodies) {
        if (body.kind == Model::BodyKind::obstacle_points) {
            for (Index i = 0; i < body.num_vertices; ++i) {
                obstacle_points.points.push_back(int(body.first_vertex + i));
            }
        }
    }
    for (ObjObject* o : { &obstacle_segments, &obstacle_points }) {
        if (!o->segments.empty() || !o->points.empty()) {
            objects.push_back(std::move(*o));
        }
    }
    const ObstacleDrawing analytic = obstacle_drawing(m.analytic_obstacles, x.rows());
    objects.insert(objects.end(), analytic.objects.begin(), analytic.objects.end());
    write_obj(path, with_drawing(x, analytic), objects);
}

} // namespace ipc::examples
