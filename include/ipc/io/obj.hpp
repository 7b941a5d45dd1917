#pragma once
/// @file
/// Minimal Wavefront OBJ reader: vertex positions ("v" lines) and faces ("f"
/// lines); everything else (normals, texture coordinates, groups,
/// materials) is ignored.

#include <ipc/core/error.hpp>

#include <Eigen/Core>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace ipc {

/// Positions and triangles read from an OBJ file.
struct ObjMesh {
    Eigen::MatrixXd vertices; ///< n x 3 positions (the file's units)
    Eigen::MatrixXi faces;    ///< k x 3 zero-based vertex indices
};

/// Reads the OBJ file at path. Face corners may be "i", "i/t", "i//n" or
/// "i/t/n" with 1-based (or negative, relative) indices; polygons with more
/// than three corners are split into a fan of triangles. Throws
/// ipc::invalid_argument when the file cannot be opened or a line is
/// malformed or references a missing vertex (the message gives the line).
inline ObjMesh read_obj(const std::string& path)
{
    std::ifstream file(path);
    require(file.good(), "cannot open OBJ file '", path, "'");
    std::vector<double> coordinates;
    std::vector<int> corners;
    std::string line;
    long line_number = 0;
    std::vector<long> polygon;
    while (std::getline(file, line)) {
        ++line_number;
        if (line.size() < 2 || (line[1] != ' ' && line[1] != '\t')) {
            continue;
        }
        if (line[0] == 'v') {
            const char* cursor = line.c_str() + 1;
            for (int k = 0; k < 3; ++k) {
                char* end = nullptr;
                const double value = std::strtod(cursor, &end);
                require(end != cursor, path, ":", line_number, ": expected three coordinates on a 'v' line");
                coordinates.push_back(value);
                cursor = end;
            }
        } else if (line[0] == 'f') {
            polygon.clear();
            std::istringstream stream(line.substr(2));
            std::string corner;
            const long num_vertices = long(coordinates.size() / 3);
            while (stream >> corner) {
                char* end = nullptr;
                long index = std::strtol(corner.c_str(), &end, 10);
                require(end != corner.c_str(), path, ":", line_number, ": bad face corner '", corner, "'");
                index = index < 0 ? num_vertices + index : index - 1;
                require(index >= 0 && index < num_vertices, path, ":", line_number, ": face references vertex ",
                        corner, " but only ", num_vertices, " vertices are defined so far");
                polygon.push_back(index);
            }
            require(polygon.size() >= 3, path, ":", line_number, ": a face needs at least three corners");
            for (size_t k = 1; k + 1 < polygon.size(); ++k) {
                corners.push_back(int(polygon[0]));
                corners.push_back(int(polygon[k]));
                corners.push_back(int(polygon[k + 1]));
            }
        }
    }
    ObjMesh mesh;
    mesh.vertices.resize(Eigen::Index(coordinates.size() / 3), 3);
    for (Eigen::Index i = 0; i < mesh.vertices.rows(); ++i) {
        for (Eigen::Index d = 0; d < 3; ++d) {
            mesh.vertices(i, d) = coordinates[size_t(3 * i + d)];
        }
    }
    mesh.faces.resize(Eigen::Index(corners.size() / 3), 3);
    for (Eigen::Index i = 0; i < mesh.faces.rows(); ++i) {
        for (Eigen::Index d = 0; d < 3; ++d) {
            mesh.faces(i, d) = corners[size_t(3 * i + d)];
        }
    }
    return mesh;
}

} // namespace ipc
