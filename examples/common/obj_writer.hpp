#pragma once
/// @file
/// Writes one frame as a Wavefront OBJ file: every vertex once, then named
/// objects (`o NAME`) holding triangles as faces, rod segments as lines and
/// particles as points, with 17 significant digits so that the file holds
/// the state exactly.

#include <ipc/core/error.hpp>

#include <Eigen/Core>

#include <fstream>
#include <limits>
#include <string>
#include <vector>

namespace ipc::examples {

/// A named part of an OBJ file (zero-based indices into the vertices).
struct ObjObject {
    std::string name;
    std::vector<Eigen::Vector3i> triangles;
    std::vector<Eigen::Vector2i> segments;
    std::vector<int> points;
};

/// Writes positions V (n x 3, metres) and the objects to path. Throws
/// ipc::error when the file cannot be written.
inline void write_obj(const std::string& path, const Eigen::MatrixXd& V, const std::vector<ObjObject>& objects)
{
    std::ofstream out(path);
    require<error>(bool(out), "cannot open ", path, " for writing");
    out.precision(std::numeric_limits<double>::max_digits10);
    for (Eigen::Index i = 0; i < V.rows(); ++i) {
        out << "v " << V(i, 0) << ' ' << V(i, 1) << ' ' << V(i, 2) << '\n';
    }
    for (const ObjObject& o : objects) {
        out << "o " << o.name << '\n';
        for (const auto& t : o.triangles) {
            out << "f " << t[0] + 1 << ' ' << t[1] + 1 << ' ' << t[2] + 1 << '\n';
        }
        for (const auto& s : o.segments) {
            out << "l " << s[0] + 1 << ' ' << s[1] + 1 << '\n';
        }
        for (const int p : o.points) {
            out << "p " << p + 1 << '\n';
        }
    }
    require<error>(bool(out), "failed writing ", path);
}

} // namespace ipc::examples
