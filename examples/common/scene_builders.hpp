#pragma once
/// @file
/// Mesh generators for example scenes (y is up, metres): grid cloth, UV
/// sphere, open bowl, board, box and ball tetrahedral meshes, polyline rods
/// and particle lattices. Triangles are counter-clockwise seen from outside
/// (or from +y for flat sheets).

#include "mass.hpp"

#include <ipc/core/error.hpp>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <cmath>
#include <vector>

namespace ipc::examples {

/// A triangle mesh: vertices (n x 3) and faces (m x 3).
struct TriangleMesh {
    Eigen::MatrixXd vertices;
    Eigen::MatrixXi faces;
};

/// A tetrahedral mesh: vertices (n x 3) and tetrahedra (m x 4).
struct TetMesh {
    Eigen::MatrixXd vertices;
    Eigen::MatrixXi tets;
};

/// Flat rectangle from origin spanning the edge vectors u and v, with nu by
/// nv quads split in two; the triangles face u x v.
inline TriangleMesh quad_patch(const Eigen::Vector3d& origin, const Eigen::Vector3d& u, const Eigen::Vector3d& v, int nu, int nv)
{
    require(nu >= 1 && nv >= 1 && u.cross(v).norm() > 0, "quad_patch: bad resolution or degenerate edges");
    TriangleMesh m;
    m.vertices.resize((nu + 1) * (nv + 1), 3);
    for (int j = 0; j <= nv; ++j) {
        for (int i = 0; i <= nu; ++i) {
            m.vertices.row(j * (nu + 1) + i) = (origin + u * (double(i) / nu) + v * (double(j) / nv)).transpose();
        }
    }
    m.faces.resize(2 * nu * nv, 3);
    int f = 0;
    for (int j = 0; j < nv; ++j) {
        for (int i = 0; i < nu; ++i) {
            const int a = j * (nu + 1) + i, b = a + 1, c = a + nu + 1, d = c + 1;
            m.faces.row(f++) << a, b, d; // (b - a) x (d - a) = u x (u + v) ~ u x v
            m.faces.row(f++) << a, d, c;
        }
    }
    return m;
}

/// The union of the meshes with vertices closer than tolerance (m) merged.
inline TriangleMesh weld(const std::vector<TriangleMesh>& parts, double tolerance = 1e-9)
{
    std::vector<Eigen::RowVector3d> vertices;
    std::vector<Eigen::Vector3i> faces;
    for (const TriangleMesh& part : parts) {
        std::vector<int> id(std::size_t(part.vertices.rows()));
        for (Eigen::Index i = 0; i < part.vertices.rows(); ++i) {
            int found = -1;
            for (std::size_t k = 0; k < vertices.size() && found < 0; ++k) {
                if ((vertices[k] - part.vertices.row(i)).norm() <= tolerance) {
                    found = int(k);
                }
            }
            if (found < 0) {
                found = int(vertices.size());
                vertices.push_back(part.vertices.row(i));
            }
            id[std::size_t(i)] = found;
        }
        for (Eigen::Index f = 0; f < part.faces.rows(); ++f) {
            faces.emplace_back(id[std::size_t(part.faces(f, 0))], id[std::size_t(part.faces(f, 1))],
                id[std::size_t(part.faces(f, 2))]);
        }
    }
    TriangleMesh m;
    m.vertices.resize(Eigen::Index(vertices.size()), 3);
    for (std::size_t i = 0; i < vertices.size(); ++i) {
        m.vertices.row(Eigen::Index(i)) = vertices[i];
    }
    m.faces.resize(Eigen::Index(faces.size()), 3);
    for (std::size_t i = 0; i < faces.size(); ++i) {
        m.faces.row(Eigen::Index(i)) = faces[i].transpose();
    }
    return m;
}

/// Open box (a floor and four walls, no lid), width along x, depth along z,
/// floor centre at bottom; n quads per side, triangles facing inward.
inline TriangleMesh open_box_mesh(const Eigen::Vector3d& bottom, double width, double depth, double height, int n)
{
    require(width > 0 && depth > 0 && height > 0, "open_box_mesh: bad size");
    const Eigen::Vector3d X(width, 0, 0), Y(0, height, 0), Z(0, 0, depth);
    const Eigen::Vector3d lo = bottom - X / 2 - Z / 2;
    return weld({
        quad_patch(lo, Z, X, n, n),          // floor, facing +y
        quad_patch(lo, Y, Z, n, n),          // x = low, facing +x
        quad_patch(lo + X, Z, Y, n, n),      // x = high, facing -x
        quad_patch(lo, X, Y, n, n),          // z = low, facing +z
        quad_patch(lo + Z, Y, X, n, n),      // z = high, facing -z
    });
}

/// Horizontal rectangular cloth centred at center, size_x by size_z metres,
/// with nx by nz quads (each split in two, alternating diagonals), facing +y.
inline TriangleMesh grid_cloth(const Eigen::Vector3d& center, double size_x, double size_z, int nx, int nz)
{
    require(nx >= 1 && nz >= 1 && size_x > 0 && size_z > 0, "grid_cloth: bad size or resolution");
    TriangleMesh m;
    m.vertices.resize((nx + 1) * (nz + 1), 3);
    for (int j = 0; j <= nz; ++j) {
        for (int i = 0; i <= nx; ++i) {
            m.vertices.row(j * (nx + 1) + i) = center.transpose()
                + Eigen::RowVector3d(size_x * (double(i) / nx - 0.5), 0, size_z * (double(j) / nz - 0.5));
        }
    }
    m.faces.resize(2 * nx * nz, 3);
    int f = 0;
    for (int j = 0; j < nz; ++j) {
        for (int i = 0; i < nx; ++i) {
            const int a = j * (nx + 1) + i, b = a + 1, c = a + nx + 1, d = c + 1;
            // Facing +y: counter-clockwise seen from above means a -> c -> b.
            if ((i + j) % 2 == 0) {
                m.faces.row(f++) << a, c, b;
                m.faces.row(f++) << b, c, d;
            } else {
                m.faces.row(f++) << a, c, d;
                m.faces.row(f++) << a, d, b;
            }
        }
    }
    return m;
}

/// Flat rectangular cloth of nearly equilateral triangles (uniform edge
/// lengths, as point-based methods need): origin is one corner, u and v the
/// orthogonal side vectors; the spacing along u is |u| / round(|u| / edge),
/// rows are about edge * sqrt(3) / 2 apart (an even number of rows, so that
/// all four corners are vertices), odd rows are shifted by half a spacing
/// and have one vertex fewer (the sides along v zig-zag). Triangles face
/// u x v.
inline TriangleMesh lattice_cloth(const Eigen::Vector3d& origin, const Eigen::Vector3d& u, const Eigen::Vector3d& v, double edge)
{
    require(edge > 0 && u.norm() > 0 && v.norm() > 0 && std::abs(u.dot(v)) <= 1e-9 * u.norm() * v.norm(),
        "lattice_cloth: need orthogonal nonzero sides and a positive edge length");
    const int columns = std::max(1, int(std::lround(u.norm() / edge)));
    const int rows = std::max(2, 2 * int(std::lround(v.norm() / (edge * std::sqrt(3.0)))));
    std::vector<int> first(std::size_t(rows + 2), 0); // first vertex of each row
    for (int j = 0; j <= rows; ++j) {
        first[std::size_t(j + 1)] = first[std::size_t(j)] + (j % 2 == 0 ? columns + 1 : columns);
    }
    TriangleMesh m;
    m.vertices.resize(first[std::size_t(rows + 1)], 3);
    for (int j = 0; j <= rows; ++j) {
        const int count = j % 2 == 0 ? columns + 1 : columns;
        for (int i = 0; i < count; ++i) {
            const double s = (i + (j % 2 == 0 ? 0.0 : 0.5)) / columns;
            m.vertices.row(first[std::size_t(j)] + i) = (origin + s * u + (double(j) / rows) * v).transpose();
        }
    }
    std::vector<Eigen::Vector3i> faces;
    for (int j = 0; j < rows; ++j) {
        const int a = first[std::size_t(j)], b = first[std::size_t(j + 1)];
        if (j % 2 == 0) { // row j has columns + 1 vertices, row j + 1 has columns
            for (int i = 0; i < columns; ++i) {
                faces.emplace_back(a + i, a + i + 1, b + i);
                if (i + 1 < columns) {
                    faces.emplace_back(b + i, a + i + 1, b + i + 1);
                }
            }
        } else {
            for (int i = 0; i < columns; ++i) {
                faces.emplace_back(a + i, b + i + 1, b + i);
                if (i + 1 < columns) {
                    faces.emplace_back(a + i, a + i + 1, b + i + 1);
                }
            }
        }
    }
    m.faces.resize(Eigen::Index(faces.size()), 3);
    for (std::size_t f = 0; f < faces.size(); ++f) {
        m.faces.row(Eigen::Index(f)) = faces[f].transpose();
    }
    return m;
}

/// Closed UV sphere with the given rings (>= 3) and segments (>= 3).
inline TriangleMesh sphere_mesh(const Eigen::Vector3d& center, double radius, int rings, int segments)
{
    require(rings >= 3 && segments >= 3 && radius > 0, "sphere_mesh: bad size or resolution");
    TriangleMesh m;
    const int n = 2 + (rings - 1) * segments;
    m.vertices.resize(n, 3);
    m.vertices.row(0) = (center + Eigen::Vector3d(0, radius, 0)).transpose();
    m.vertices.row(n - 1) = (center - Eigen::Vector3d(0, radius, 0)).transpose();
    for (int r = 1; r < rings; ++r) {
        const double theta = pi * r / rings;
        for (int s = 0; s < segments; ++s) {
            const double phi = 2 * pi * s / segments;
            m.vertices.row(1 + (r - 1) * segments + s) = (center
                + radius * Eigen::Vector3d(std::sin(theta) * std::cos(phi), std::cos(theta), std::sin(theta) * std::sin(phi)))
                                                             .transpose();
        }
    }
    std::vector<Eigen::Vector3i> faces;
    auto at = [&](int r, int s) { return 1 + (r - 1) * segments + (s % segments); };
    for (int s = 0; s < segments; ++s) {
        faces.emplace_back(0, at(1, s + 1), at(1, s));
        faces.emplace_back(n - 1, at(rings - 1, s), at(rings - 1, s + 1));
    }
    for (int r = 1; r + 1 < rings; ++r) {
        for (int s = 0; s < segments; ++s) {
            faces.emplace_back(at(r, s), at(r, s + 1), at(r + 1, s));
            faces.emplace_back(at(r, s + 1), at(r + 1, s + 1), at(r + 1, s));
        }
    }
    m.faces.resize(Eigen::Index(faces.size()), 3);
    for (std::size_t i = 0; i < faces.size(); ++i) {
        m.faces.row(Eigen::Index(i)) = faces[i].transpose();
    }
    return m;
}

/// Open hemispherical bowl (the lower half of a sphere, rim at center.y),
/// triangles facing inward.
inline TriangleMesh bowl_mesh(const Eigen::Vector3d& center, double radius, int rings, int segments)
{
    require(rings >= 2 && segments >= 3 && radius > 0, "bowl_mesh: bad size or resolution");
    TriangleMesh m;
    const int n = 1 + rings * segments;
    m.vertices.resize(n, 3);
    m.vertices.row(0) = (center - Eigen::Vector3d(0, radius, 0)).transpose();
    for (int r = 1; r <= rings; ++r) {
        const double theta = pi / 2 * r / rings; // from the bottom up to the rim
        for (int s = 0; s < segments; ++s) {
            const double phi = 2 * pi * s / segments;
            m.vertices.row(1 + (r - 1) * segments + s) = (center
                + radius * Eigen::Vector3d(std::sin(theta) * std::cos(phi), -std::cos(theta), std::sin(theta) * std::sin(phi)))
                                                             .transpose();
        }
    }
    std::vector<Eigen::Vector3i> faces;
    auto at = [&](int r, int s) { return 1 + (r - 1) * segments + (s % segments); };
    for (int s = 0; s < segments; ++s) {
        faces.emplace_back(0, at(1, s + 1), at(1, s));
    }
    for (int r = 1; r < rings; ++r) {
        for (int s = 0; s < segments; ++s) {
            faces.emplace_back(at(r, s), at(r, s + 1), at(r + 1, s));
            faces.emplace_back(at(r, s + 1), at(r + 1, s + 1), at(r + 1, s));
        }
    }
    m.faces.resize(Eigen::Index(faces.size()), 3);
    for (std::size_t i = 0; i < faces.size(); ++i) {
        m.faces.row(Eigen::Index(i)) = faces[i].transpose();
    }
    return m;
}

/// Flat board: a horizontal n x n grid of size x size metres at center,
/// facing +y, optionally tilted by angle (radians) about the z axis.
inline TriangleMesh board_mesh(const Eigen::Vector3d& center, double size, int n, double tilt = 0)
{
    TriangleMesh m = grid_cloth(Eigen::Vector3d::Zero(), size, size, n, n);
    const Eigen::Matrix3d R = Eigen::AngleAxisd(tilt, Eigen::Vector3d::UnitZ()).toRotationMatrix();
    for (Eigen::Index i = 0; i < m.vertices.rows(); ++i) {
        m.vertices.row(i) = (R * m.vertices.row(i).transpose() + center).transpose();
    }
    return m;
}

/// Box [lo, hi] split into nx x ny x nz cubes of 6 tetrahedra each.
inline TetMesh box_tet_mesh(const Eigen::Vector3d& lo, const Eigen::Vector3d& hi, int nx, int ny, int nz)
{
    require(nx >= 1 && ny >= 1 && nz >= 1 && (hi - lo).minCoeff() > 0, "box_tet_mesh: bad size");
    TetMesh m;
    auto id = [&](int i, int j, int k) { return (k * (ny + 1) + j) * (nx + 1) + i; };
    m.vertices.resize((nx + 1) * (ny + 1) * (nz + 1), 3);
    for (int k = 0; k <= nz; ++k) {
        for (int j = 0; j <= ny; ++j) {
            for (int i = 0; i <= nx; ++i) {
                m.vertices.row(id(i, j, k)) = (lo.array()
                    + (hi - lo).array() * Eigen::Array3d(double(i) / nx, double(j) / ny, double(k) / nz))
                                                  .matrix()
                                                  .transpose();
            }
        }
    }
    // Kuhn split around the diagonal corner 0 -> corner 7 (bits x, y, z).
    static const int split[6][4] = { { 0, 1, 3, 7 }, { 0, 3, 2, 7 }, { 0, 2, 6, 7 }, { 0, 6, 4, 7 },
        { 0, 4, 5, 7 }, { 0, 5, 1, 7 } };
    m.tets.resize(6 * nx * ny * nz, 4);
    int t = 0;
    for (int k = 0; k < nz; ++k) {
        for (int j = 0; j < ny; ++j) {
            for (int i = 0; i < nx; ++i) {
                int corner[8];
                for (int c = 0; c < 8; ++c) {
                    corner[c] = id(i + (c & 1), j + ((c >> 1) & 1), k + ((c >> 2) & 1));
                }
                for (const auto& s : split) {
                    m.tets.row(t++) << corner[s[0]], corner[s[1]], corner[s[2]], corner[s[3]];
                }
            }
        }
    }
    return m;
}

/// A blocky ball: the cubes of an n^3 grid over the bounding box whose
/// centres lie inside the sphere, 6 tetrahedra each, unused vertices dropped.
inline TetMesh ball_tet_mesh(const Eigen::Vector3d& center, double radius, int n)
{
    const Eigen::Vector3d r(radius, radius, radius);
    const TetMesh box = box_tet_mesh(center - r, center + r, n, n, n);
    std::vector<int> keep;
    for (Eigen::Index t = 0; t < box.tets.rows(); t += 6) {
        // Corner 0 and 7 of the cube are in every tet of it: use their midpoint.
        const Eigen::Vector3d mid = (box.vertices.row(box.tets(t, 0)) + box.vertices.row(box.tets(t, 3))).transpose() / 2;
        if ((mid - center).norm() <= radius) {
            keep.push_back(int(t));
        }
    }
    std::vector<int> remap(std::size_t(box.vertices.rows()), -1);
    TetMesh m;
    m.tets.resize(Eigen::Index(keep.size() * 6), 4);
    int count = 0;
    for (std::size_t q = 0; q < keep.size(); ++q) {
        for (int s = 0; s < 6; ++s) {
            for (int k = 0; k < 4; ++k) {
                int& slot = remap[std::size_t(box.tets(keep[q] + s, k))];
                if (slot < 0) {
                    slot = count++;
                }
                m.tets(Eigen::Index(6 * q + std::size_t(s)), k) = slot;
            }
        }
    }
    m.vertices.resize(count, 3);
    for (std::size_t v = 0; v < remap.size(); ++v) {
        if (remap[v] >= 0) {
            m.vertices.row(remap[v]) = box.vertices.row(Eigen::Index(v));
        }
    }
    return m;
}

/// A ring of square cross-section (a torus swept by a square of side
/// 2 half_side) around center, in the plane of the orthonormal axes e1, e2,
/// with centreline radius radius and the given number of segments; the
/// cross-section is cells x cells squares (default one), and each segment
/// of each square is a hexahedron of 6 tetrahedra, positively oriented:
/// segments * (cells + 1)^2 vertices.
inline TetMesh ring_tet_mesh(const Eigen::Vector3d& center, const Eigen::Vector3d& e1, const Eigen::Vector3d& e2,
    double radius, double half_side, int segments, int cells = 1)
{
    require(segments >= 3 && cells >= 1 && half_side > 0 && radius > half_side,
        "ring_tet_mesh: bad size or resolution");
    const Eigen::Vector3d e3 = e1.cross(e2);
    const int side = cells + 1; // vertices along each side of the cross-section
    // Vertex (radial i, segment s, axial k); (radial, tangential, e3) is right-handed.
    auto id = [&](int i, int s, int k) { return ((s % segments) * side + k) * side + i; };
    TetMesh m;
    m.vertices.resize(segments * side * side, 3);
    for (int s = 0; s < segments; ++s) {
        const double theta = 2 * pi * s / segments;
        const Eigen::Vector3d radial = std::cos(theta) * e1 + std::sin(theta) * e2;
        for (int k = 0; k < side; ++k) {
            for (int i = 0; i < side; ++i) {
                const double u = (2.0 * i / cells - 1) * half_side, w = (2.0 * k / cells - 1) * half_side;
                m.vertices.row(id(i, s, k)) = (center + (radius + u) * radial + w * e3).transpose();
            }
        }
    }
    // Every hexahedron is cut along the same diagonal (corner 0 to 7), so
    // neighbouring hexahedra share their faces' diagonals.
    static const int split[6][4] = { { 0, 1, 3, 7 }, { 0, 3, 2, 7 }, { 0, 2, 6, 7 }, { 0, 6, 4, 7 },
        { 0, 4, 5, 7 }, { 0, 5, 1, 7 } };
    m.tets.resize(6 * segments * cells * cells, 4);
    int t = 0;
    for (int s = 0; s < segments; ++s) {
        for (int k = 0; k < cells; ++k) {
            for (int i = 0; i < cells; ++i) {
                int corner[8];
                for (int c = 0; c < 8; ++c) {
                    corner[c] = id(i + (c & 1), s + ((c >> 1) & 1), k + ((c >> 2) & 1));
                }
                for (const auto& q : split) {
                    m.tets.row(t++) << corner[q[0]], corner[q[1]], corner[q[2]], corner[q[3]];
                }
            }
        }
    }
    return m;
}

/// Voussoir k of an arch of `blocks` blocks: the annular sector between
/// radii inner and outer and angles pi k / blocks and pi (k + 1) / blocks
/// in the xy-plane around center, depth along z, each side face moved
/// inward by gap / 2 so that neighbours are gap apart (m); one cube of 6
/// tetrahedra.
inline TetMesh voussoir_tet_mesh(const Eigen::Vector3d& center, double inner, double outer, double depth, int blocks,
    int k, double gap)
{
    require(0 < inner && inner < outer && depth > 0 && 0 <= k && k < blocks && gap >= 0, "voussoir_tet_mesh: bad size");
    TetMesh m = box_tet_mesh(Eigen::Vector3d::Zero(), Eigen::Vector3d::Ones(), 1, 1, 1);
    for (Eigen::Index i = 0; i < m.vertices.rows(); ++i) {
        // (radial, angular, z) is right-handed, so the tets keep their orientation.
        const double r = inner + m.vertices(i, 0) * (outer - inner);
        const double theta = pi * (k + m.vertices(i, 1)) / blocks;
        const Eigen::Vector3d tangent(-std::sin(theta), std::cos(theta), 0);
        m.vertices.row(i) = (center + Eigen::Vector3d(r * std::cos(theta), r * std::sin(theta), (m.vertices(i, 2) - 0.5) * depth)
            + (0.5 - m.vertices(i, 1)) * gap * tangent)
                                .transpose();
    }
    return m;
}

/// Straight polyline from a to b with the given number of segments.
inline Eigen::MatrixXd rod_polyline(const Eigen::Vector3d& a, const Eigen::Vector3d& b, int segments)
{
    require(segments >= 1 && (b - a).norm() > 0, "rod_polyline: bad segments or zero length");
    Eigen::MatrixXd V(segments + 1, 3);
    for (int i = 0; i <= segments; ++i) {
        V.row(i) = (a + (b - a) * double(i) / segments).transpose();
    }
    return V;
}

/// Lattice of nx x ny x nz points with the given spacing, lowest corner at lo.
inline Eigen::MatrixXd particle_lattice(const Eigen::Vector3d& lo, double spacing, int nx, int ny, int nz)
{
    require(nx >= 1 && ny >= 1 && nz >= 1 && spacing > 0, "particle_lattice: bad size");
    Eigen::MatrixXd V(nx * ny * nz, 3);
    int i = 0;
    for (int k = 0; k < nz; ++k) {
        for (int j = 0; j < ny; ++j) {
            for (int a = 0; a < nx; ++a) {
                V.row(i++) = (lo + spacing * Eigen::Vector3d(a, j, k)).transpose();
            }
        }
    }
    return V;
}

} // namespace ipc::examples
