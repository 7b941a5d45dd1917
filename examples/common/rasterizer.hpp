#pragma once
/// @file
/// A tiny software rasterizer for previews: perspective camera, z-buffer,
/// flat-shaded triangles (two-sided), depth-tested segments and round points.
/// Output is an RGB byte image for write_png.

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
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

    /// Flat-shaded triangle (world coordinates, metres).
    void triangle(const Eigen::Vector3d& a, const Eigen::Vector3d& b, const Eigen::Vector3d& c, const Color& color)
    {
        const Eigen::Vector3d n = (b - a).cross(c - a);
        if (!(n.norm() > 0)) {
            return;
        }
        const Eigen::Vector3d light = (-forward_ + up_ + 0.5 * right_).normalized();
        const double shade = 0.35 + 0.65 * std::abs(n.normalized().dot(light));
        const Color lit = scale(color, shade);
        Eigen::Vector3d p[3] = { project(a), project(b), project(c) };
        if (p[0].z() <= 0 || p[1].z() <= 0 || p[2].z() <= 0) {
            return; // behind the camera (no clipping in this preview renderer)
        }
        const double area = edge(p[0], p[1], p[2]);
        if (area == 0) {
            return;
        }
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
                plot(x, y, w0 * p[0].z() + w1 * p[1].z() + w2 * p[2].z(), lit);
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
            disc(r, thickness / 2.0, color);
        }
    }

    /// Round point of the given pixel radius, depth-tested.
    void point(const Eigen::Vector3d& a, const Color& color, double radius_pixels = 2.5)
    {
        const Eigen::Vector3d p = project(a);
        if (p.z() > 0) {
            disc(p, radius_pixels, color);
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
    void disc(const Eigen::Vector3d& p, double r, const Color& color)
    {
        for (int y = int(std::floor(p.y() - r)); y <= int(std::ceil(p.y() + r)); ++y) {
            for (int x = int(std::floor(p.x() - r)); x <= int(std::ceil(p.x() + r)); ++x) {
                if ((x + 0.5 - p.x()) * (x + 0.5 - p.x()) + (y + 0.5 - p.y()) * (y + 0.5 - p.y()) <= r * r + 0.25) {
                    plot(x, y, p.z() * (1 - 1e-4), color); // slightly in front of the surface it lies on
                }
            }
        }
    }
    void plot(int x, int y, double z, const Color& color)
    {
        if (x < 0 || y < 0 || x >= width_ || y >= height_) {
            return;
        }
        const std::size_t i = std::size_t(y) * std::size_t(width_) + std::size_t(x);
        if (z < depth_[i]) {
            depth_[i] = z;
            rgb_[3 * i] = color[0];
            rgb_[3 * i + 1] = color[1];
            rgb_[3 * i + 2] = color[2];
        }
    }

    int width_, height_;
    Eigen::Vector3d eye_, forward_, right_, up_;
    double focal_ = 1;
    std::vector<unsigned char> rgb_;
    std::vector<double> depth_;
};

} // namespace ipc::examples
