#pragma once
/// @file
/// Writes one frame as a Wavefront OBJ file: every vertex, the triangles as
/// faces, rod segments as lines, particles as points.

#include <ipc/core/error.hpp>

#include <Eigen/Core>

#include <fstream>
#include <string>
#include <vector>

namespace ipc::examples {

/// Writes positions V (n x 3, metres), triangles, line segments and points
/// (zero-based indices) to path. Throws ipc::error when the file cannot be
/// written.
inline void write_obj(const std::string& path, const Eigen::MatrixXd& V, const std::vector<Eigen::Vector3i>& triangles,
    const std::vector<Eigen::Vector2i>& segments, const std::vector<int>& points)
{
    std::ofstream out(path);
    require<error>(bool(out), "cannot open ", path, " for writing");
    out.precision(9);
    for (Eigen::Index i = 0; i < V.rows(); ++i) {
        out << "v " << V(i, 0) << ' ' << V(i, 1) << ' ' << V(i, 2) << '\n';
    }
    for (const auto& t : triangles) {
        out << "f " << t[0] + 1 << ' ' << t[1] + 1 << ' ' << t[2] + 1 << '\n';
    }
    for (const auto& s : segments) {
        out << "l " << s[0] + 1 << ' ' << s[1] + 1 << '\n';
    }
    for (const int p : points) {
        out << "p " << p + 1 << '\n';
    }
    require<error>(bool(out), "failed writing ", path);
}

} // namespace ipc::examples
