#pragma once
/// @file
/// What ipc_sim writes per frame of a 2D scene (common/model_2d.hpp): an
/// OBJ with the plane's vertices at z = 0 (the soft bodies' triangles as
/// faces, the rope and the obstacle edges as lines), and a picture of the
/// plane (filled bodies with their outlines, the rope, the obstacles) with
/// the caption and legend of the 3D pictures (common/frame_output.hpp).

#include <common/frame_output.hpp>
#include <common/model_2d.hpp>
#include <common/obj_writer.hpp>
#include <common/png_output.hpp>
#include <common/rasterizer.hpp>

#include <ipc/core/error.hpp>

#include <fmt/core.h>

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace ipc::examples {

/// Writes the frame at positions x (n x 2, m) as an OBJ with z = 0:
/// `o bodies` (the triangles), `o rope` (the rope segments as lines) and
/// `o obstacle_edges` (the fixed edges as lines). Throws
/// ipc::invalid_argument when x does not match the model, ipc::error when
/// the file cannot be written.
inline void write_frame_2d(const std::string& path, const Model2D& m, const Eigen::MatrixXd& x)
{
    require(x.rows() == m.num_vertices() && x.cols() == 2, "write_frame_2d: positions are ", x.rows(), " x ", x.cols(),
        ", expected ", m.num_vertices(), " x 2");
    Eigen::MatrixXd X = Eigen::MatrixXd::Zero(x.rows(), 3);
    X.leftCols<2>() = x;
    ObjObject bodies { "bodies", {}, {}, {} }, rope { "rope", {}, {}, {} }, obstacles { "obstacle_edges", {}, {}, {} };
    for (const auto& t : m.triangles) {
        bodies.triangles.emplace_back(int(t.vertices[0]), int(t.vertices[1]), int(t.vertices[2]));
    }
    for (const auto& s : m.springs) {
        rope.segments.emplace_back(int(s.vertices[0]), int(s.vertices[1]));
    }
    for (const auto& e : m.contact_edges) {
        if (m.fixed[std::size_t(e[0])] && m.fixed[std::size_t(e[1])]) {
            obstacles.segments.emplace_back(int(e[0]), int(e[1]));
        }
    }
    write_obj(path, X, { bodies, rope, obstacles });
}

/// The picture of positions x (n x 2, m) of a 2D scene: the window of
/// height view_height (m) centred at view_center, 800 x 600 pixels, with a
/// caption (scene name, step, time, contacts) and a legend. Throws like
/// write_frame_2d, and ipc::invalid_argument for a non-positive view height.
inline Rasterizer draw_frame_2d(const Model2D& m, const Eigen::MatrixXd& x, const std::string& name,
    const Eigen::Vector2d& view_center, double view_height, std::size_t step, double time, std::size_t contacts)
{
    require(x.rows() == m.num_vertices() && x.cols() == 2, "render_frame_2d: positions are ", x.rows(), " x ",
        x.cols(), ", expected ", m.num_vertices(), " x 2");
    require(std::isfinite(view_height) && view_height > 0, "render_frame_2d: view_height must be positive, got ",
        view_height);
    // A camera on the z axis looking at the plane: the plane is drawn to
    // scale (a perspective view of a parallel plane is a similarity).
    const double fov = 0.8;
    const double distance = 0.5 * view_height / std::tan(fov / 2);
    Rasterizer r(800, 600, Eigen::Vector3d(view_center.x(), view_center.y(), distance),
        Eigen::Vector3d(view_center.x(), view_center.y(), 0), fov);
    // Lines are lifted slightly towards the camera so the depth test keeps
    // them over the filled triangles.
    const auto at = [&](Index v, double lift) { return Eigen::Vector3d(x(v, 0), x(v, 1), lift * view_height); };
    for (const auto& t : m.triangles) {
        r.triangle(at(t.vertices[0], 0), at(t.vertices[1], 0), at(t.vertices[2], 0), color_of(VertexKind::volume));
    }
    const Color outline { 120, 55, 25 };
    for (const auto& e : m.contact_edges) {
        const VertexKind k = m.kind[std::size_t(e[0])];
        if (k == VertexKind::volume) {
            r.segment(at(e[0], 1e-3), at(e[1], 1e-3), outline, 2);
        }
    }
    for (const auto& s : m.springs) {
        r.segment(at(s.vertices[0], 2e-3), at(s.vertices[1], 2e-3), color_of(VertexKind::rod), 5);
    }
    for (const auto& e : m.contact_edges) {
        if (m.fixed[std::size_t(e[0])] && m.fixed[std::size_t(e[1])]) {
            r.segment(at(e[0], 3e-3), at(e[1], 3e-3), { 90, 90, 95 }, 7);
        }
    }

    const int scale = 2;
    const std::string caption = fmt::format("{}   step {}   t = {:.3f} s   contacts {}", name, step, time, contacts);
    r.panel(0, 0, r.width(), Rasterizer::text_height(scale) + 14, { 25, 30, 40 }, 0.8);
    r.text(12, 8, caption, { 255, 255, 255 }, scale);
    const int line = Rasterizer::text_height(scale);
    const int top = r.height() - line - 14;
    r.panel(0, top, r.width(), line + 14, { 25, 30, 40 }, 0.6);
    int left = 12;
    const std::pair<VertexKind, const char*> legend[] = { { VertexKind::volume, "soft bodies" },
        { VertexKind::rod, "rope" }, { VertexKind::obstacle, "box (fixed)" } };
    for (const auto& [k, label] : legend) {
        if (std::find(m.kind.begin(), m.kind.end(), k) == m.kind.end()) {
            continue;
        }
        r.panel(left, top + 7, 7 * scale, 7 * scale, k == VertexKind::obstacle ? Color { 150, 150, 158 } : color_of(k));
        left += 7 * scale + 8;
        r.text(left, top + 7, label, { 255, 255, 255 }, scale);
        left += Rasterizer::text_width(label, scale) + 22;
    }
    return r;
}

/// Writes the picture of draw_frame_2d to path as a PNG file.
inline void render_frame_2d(const std::string& path, const Model2D& m, const Eigen::MatrixXd& x,
    const std::string& name, const Eigen::Vector2d& view_center, double view_height, std::size_t step, double time,
    std::size_t contacts)
{
    const Rasterizer r = draw_frame_2d(m, x, name, view_center, view_height, step, time, contacts);
    write_png(path, r.image(), r.width(), r.height());
}

} // namespace ipc::examples
