#pragma once
/// @file
/// A tiny software rasterizer for previews: perspective camera, z-buffer,
/// flat-shaded triangles (two-sided, opaque or blended), depth-tested
/// segments, outlined round points, and screen-space panels and text in the
/// built-in bitmap font. Output is an RGB byte image for write_png.
///
/// Blended (opacity < 1) triangles are depth-tested but leave the depth
/// buffer alone, so draw them after everything opaque, farthest first
/// (view_depth gives the sort key).

#include "bitmap_font.hpp"

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace ipc::examples {

/// 8-bit RGB colour.
using Color = std::array<unsigned char, 3>;

/// Z-buffered RGB image with a look-at perspective camera.
class Rasterizer {
public:
    /// Image of width x height pixels; the camera at eye looks at target
    /// with a vertical field of view fov_y (radians), y up.
    Rasterizer(int width, int height, const Eigen::Vector3d& eye, const Eigen::Vector3d& target, double fov_y = 0.8)
        : width_(width)
        , height_(height)
        , eye_(eye)
        , rgb_(std::size_t(width) * std::size_t(height) * 3, 0)
        , depth_(std::size_t(width) * std::size_t(height), std::numeric_limits<double>::infinity())
    {
        forward_ = (target - eye).normalized();
        Eigen::Vector3d up = Eigen::Vector3d::UnitY();
        if (std::abs(forward_.dot(up)) > 0.99) {
            up = Eigen::Vector3d::UnitZ();
        }
        right_ = forward_.cross(up).normalized();
        up_ = right_.cross(forward_);
        focal_ = 0.5 * height / std::tan(fov_y / 2);
        for (int y = 0; y < height; ++y) { // vertical background gradient
            const auto shade = static_cast<unsigned char>(235 - 50 * y / std::max(1, height - 1));
            for (int x = 0; x < width; ++x) {
                auto* p = &rgb_[3 * (std::size_t(y) * std::size_t(width) + std::size_t(x))];
                p[0] = shade;
                p[1] = shade;
                p[2] = static_cast<unsigned char>(std::min(255, shade + 15));
            }
        }
    }

    /// Flat-shaded triangle (world coordinates, metres). With opacity below
    /// 1 it is blended over what is already drawn and does not hide what is
    /// drawn after it.
    void triangle(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c, const Color& color,
        double opacity = 1)
    {
        const Eigen::Vector3d n = (b - a).cross(c - a);
        if (!(n.norm() > 0)) {
            return;
        }
        const Eigen::Vector3d light = (-forward_ + up_ + 0.5 * right_).normalized();
        const double shade = 0.35 + 0.65 * std::abs(n.normalized().dot(light));
        const Color lit = scale(color, shade);
        const Eigen::Vector3d p[3] = { project(a), project(b), project(c) };
        if (p[0].z() <= 0 || p[1].z() <= 0 || p[2].z() <= 0) {
            return; // behind the camera (no clipping in this preview renderer)
        }
        const double area = edge(p[0], p[1], p[2]);
        if (area == 0) {
            return;
        }
        const double alpha = std::clamp(opacity, 0.0, 1.0);
        const int x0 = std::max(0, int(std::floor(std::min({ p[0].x(), p[1].x(), p[2].x() }))));
        const int x1 = std::min(width_ - 1, int(std::ceil(std::max({ p[0].x(), p[1].x(), p[2].x() }))));
        const int y0 = std::max(0, int(std::floor(std::min({ p[0].y(), p[1].y(), p[2].y() }))));
        const int y1 = std::min(height_ - 1, int(std::ceil(std::max({ p[0].y(), p[1].y(), p[2].y() }))));
        for (int y = y0; y <= y1; ++y) {
            for (int x = x0; x <= x1; ++x) {
                const Eigen::Vector3d q(x + 0.5, y + 0.5, 0);
                const double w0 = edge(p[1], p[2], q) / area, w1 = edge(p[2], p[0], q) / area,
                             w2 = edge(p[0], p[1], q) / area;
                if (w0 < 0 || w1 < 0 || w2 < 0) {
                    continue;
                }
                const double z = w0 * p[0].z() + w1 * p[1].z() + w2 * p[2].z();
                if (alpha >= 1) {
                    plot(x, y, z, lit);
                } else {
                    blend(x, y, z, lit, alpha);
                }
            }
        }
    }

    /// Segment drawn with the given pixel thickness, depth-tested.
    void segment(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Color& color, int thickness = 2)
    {
        const Eigen::Vector3d p = project(a), q = project(b);
        if (p.z() <= 0 || q.z() <= 0) {
            return;
        }
        const int steps = std::max(1, int(std::ceil((q.head<2>() - p.head<2>()).norm())));
        for (int i = 0; i <= steps; ++i) {
            const Eigen::Vector3d r = p + (q - p) * double(i) / steps;
            disc(r, thickness / 2.0, color, color, 0);
        }
    }

    /// Round point of the given pixel radius, depth-tested, filled with
    /// color and ringed by an outline outline_pixels wide (none when 0).
    /// With shaded, the fill is lit like a small sphere (brightest towards
    /// the upper left, color itself at the centre).
    void point(const Eigen::Vector3d& a, const Color& color, double radius_pixels = 2.5,
        const Color& outline = { 30, 30, 30 }, double outline_pixels = 0, bool shaded = false)
    {
        const Eigen::Vector3d p = project(a);
        if (p.z() > 0) {
            disc(p, radius_pixels, color, outline, outline_pixels, shaded);
        }
    }

    /// Distance of x in front of the camera along its viewing direction
    /// (the sort key for blended triangles).
    double view_depth(const Eigen::Vector3d& x) const { return (x - eye_).dot(forward_); }

    /// A screen rectangle (pixels, top-left corner x, y) blended over the
    /// image with the given opacity, in front of everything.
    void panel(int x, int y, int w, int h, const Color& color, double opacity = 1)
    {
        const double alpha = std::clamp(opacity, 0.0, 1.0);
        for (int j = std::max(0, y); j < std::min(height_, y + h); ++j) {
            for (int i = std::max(0, x); i < std::min(width_, x + w); ++i) {
                mix(index(i, j), color, alpha);
            }
        }
    }

    /// Width in pixels of text drawn at the given scale.
    static int text_width(const std::string& text, int scale = 1)
    {
        return text.empty() ? 0 : (int(text.size()) * glyph_advance - 1) * scale;
    }
    /// Height in pixels of a line of text (descenders included).
    static int text_height(int scale = 1) { return glyph_height * scale; }

    /// Text in the built-in font with its top-left corner at pixel (x, y),
    /// each font pixel drawn as scale x scale image pixels, in front of
    /// everything. Characters the font lacks are drawn as '?'.
    void text(int x, int y, const std::string& text, const Color& color, int scale = 1)
    {
        const Glyph* unknown = find_glyph('?');
        for (std::size_t k = 0; k < text.size(); ++k) {
            const Glyph* g = find_glyph(text[k]);
            g = g != nullptr ? g : unknown;
            const int left = x + int(k) * glyph_advance * scale;
            for (int gy = 0; gy < glyph_height; ++gy) {
                for (int gx = 0; gx < glyph_width; ++gx) {
                    if (!glyph_ink(*g, gx, gy)) {
                        continue;
                    }
                    for (int sy = 0; sy < scale; ++sy) {
                        for (int sx = 0; sx < scale; ++sx) {
                            const int px = left + gx * scale + sx, py = y + gy * scale + sy;
                            if (px >= 0 && py >= 0 && px < width_ && py < height_) {
                                mix(index(px, py), color, 1);
                            }
                        }
                    }
                }
            }
        }
    }

    /// The RGB bytes, row by row from the top.
    const std::vector<unsigned char>& image() const { return rgb_; }
    int width() const { return width_; }
    int height() const { return height_; }

private:
    Eigen::Vector3d project(const Eigen::Vector3d& x) const
    {
        const Eigen::Vector3d d = x - eye_;
        const double z = d.dot(forward_);
        return { width_ / 2.0 + focal_ * d.dot(right_) / z, height_ / 2.0 - focal_ * d.dot(up_) / z, z };
    }
    static double edge(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c)
    {
        return (b.x() - a.x()) * (c.y() - a.y()) - (b.y() - a.y()) * (c.x() - a.x());
    }
    static Color scale(const Color& c, double s)
    {
        return { static_cast<unsigned char>(std::min(255.0, c[0] * s)),
            static_cast<unsigned char>(std::min(255.0, c[1] * s)), static_cast<unsigned char>(std::min(255.0, c[2] * s)) };
    }
    std::size_t index(int x, int y) const { return std::size_t(y) * std::size_t(width_) + std::size_t(x); }
    void disc(const Eigen::Vector3d& p, double r, const Color& fill, const Color& outline, double outline_width,
        bool shaded = false)
    {
        const double inner = std::max(0.0, r - outline_width);
        const Eigen::Vector3d light = Eigen::Vector3d(-0.45, -0.55, 0.7).normalized(); // screen x right, y down
        for (int y = int(std::floor(p.y() - r)); y <= int(std::ceil(p.y() + r)); ++y) {
            for (int x = int(std::floor(p.x() - r)); x <= int(std::ceil(p.x() + r)); ++x) {
                const double dx = x + 0.5 - p.x(), dy = y + 0.5 - p.y(), d2 = dx * dx + dy * dy;
                if (d2 > r * r + 0.25) {
                    continue;
                }
                Color c = outline;
                if (d2 <= inner * inner) {
                    c = fill;
                    if (shaded && inner > 0) {
                        // Normal of a sphere seen from the front; shade 1 at the centre.
                        const Eigen::Vector3d n(dx / inner, dy / inner, std::sqrt(std::max(0.0, 1 - d2 / (inner * inner))));
                        c = scale(fill, 0.55 + 0.45 * std::max(0.0, n.dot(light)) / light.z());
                    }
                }
                plot(x, y, p.z() * (1 - 1e-4), c); // slightly in front of the surface the point lies on
            }
        }
    }
    void plot(int x, int y, double z, const Color& color)
    {
        if (x < 0 || y < 0 || x >= width_ || y >= height_) {
            return;
        }
        const std::size_t i = index(x, y);
        if (z < depth_[i]) {
            depth_[i] = z;
            rgb_[3 * i] = color[0];
            rgb_[3 * i + 1] = color[1];
            rgb_[3 * i + 2] = color[2];
        }
    }
    void blend(int x, int y, double z, const Color& color, double alpha)
    {
        if (x < 0 || y < 0 || x >= width_ || y >= height_) {
            return;
        }
        const std::size_t i = index(x, y);
        if (z < depth_[i]) {
            mix(i, color, alpha);
        }
    }
    void mix(std::size_t i, const Color& color, double alpha)
    {
        for (int k = 0; k < 3; ++k) {
            auto& v = rgb_[3 * i + std::size_t(k)];
            v = static_cast<unsigned char>(std::lround((1 - alpha) * v + alpha * color[std::size_t(k)]));
        }
    }

    int width_, height_;
    Eigen::Vector3d eye_, forward_, right_, up_;
    double focal_ = 1;
    std::vector<unsigned char> rgb_;
    std::vector<double> depth_;
};

} // namespace ipc::examples
