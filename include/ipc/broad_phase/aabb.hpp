#pragma once
/// @file
/// Axis-aligned bounding boxes of a mesh's primitives, static (inflated for a
/// contact query) or swept (covering a linear trajectory, for CCD).
///
/// Boxes are stored in double precision with three components; 2D meshes use
/// a zero third component. Inflated bounds are rounded outward by one ulp so
/// that rounding never drops a pair that the exact inflation would keep.

#include <ipc/core/error.hpp>
#include <ipc/core/parallel.hpp>
#include <ipc/core/types.hpp>
#include <ipc/mesh/collision_mesh.hpp>

#include <Eigen/Core>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

namespace ipc {

/// Closed axis-aligned box [lower, upper] in 3D (metres).
struct AABB {
    /// Smallest x, y and z of the box (metres).
    std::array<double, 3> lower { { 0.0, 0.0, 0.0 } };
    /// Largest x, y and z of the box (metres).
    std::array<double, 3> upper { { 0.0, 0.0, 0.0 } };
};

/// True when the closed boxes a and b share a point.
inline bool overlaps(const AABB& a, const AABB& b)
{
    return a.lower[0] <= b.upper[0] && b.lower[0] <= a.upper[0] //
        && a.lower[1] <= b.upper[1] && b.lower[1] <= a.upper[1] //
        && a.lower[2] <= b.upper[2] && b.lower[2] <= a.upper[2];
}

/// Boxes of every vertex, edge and face of a mesh. Entries of vertices that
/// do not collide are present (so indices match) but never queried.
struct PrimitiveBoxes {
    /// Box of each vertex, indexed by vertex.
    std::vector<AABB> vertices;
    /// Box of each edge, indexed by edge.
    std::vector<AABB> edges;
    /// Box of each face, indexed by face.
    std::vector<AABB> faces;
};

namespace detail {

    /// The next representable value after x towards -infinity (down) or
    /// +infinity (up); equal to std::nextafter but inline, by stepping the
    /// bit pattern (finite nonzero x), since this runs six times per box.
    template <typename Float, typename Bits> Float next_toward_infinity(Float x, bool up)
    {
        static_assert(sizeof(Float) == sizeof(Bits), "bit pattern size");
        constexpr Float infinity = std::numeric_limits<Float>::infinity();
        if (!(x > -infinity && x < infinity) || x == Float(0)) {
            return std::nextafter(x, up ? infinity : -infinity); // zero, inf, NaN
        }
        Bits bits;
        std::memcpy(&bits, &x, sizeof(x));
        // The magnitude grows when moving away from zero.
        if ((x > Float(0)) == up) {
            ++bits;
        } else {
            --bits;
        }
        std::memcpy(&x, &bits, sizeof(x));
        return x;
    }

    /// Next double below x (std::nextafter(x, -inf)).
    inline double next_down(double x) { return next_toward_infinity<double, std::uint64_t>(x, false); }
    /// Next double above x (std::nextafter(x, +inf)).
    inline double next_up(double x) { return next_toward_infinity<double, std::uint64_t>(x, true); }
    /// Next float below x (std::nextafter(x, -inf)).
    inline float next_down(float x) { return next_toward_infinity<float, std::uint32_t>(x, false); }
    /// Next float above x (std::nextafter(x, +inf)).
    inline float next_up(float x) { return next_toward_infinity<float, std::uint32_t>(x, true); }

    /// A float f <= x, within about two float ulps of x (conservative lower
    /// bound for single-precision boxes; branch-free). Values below -FLT_MAX
    /// give -inf, above FLT_MAX give FLT_MAX; NaN gives NaN.
    inline float round_down_to_float(double x)
    {
        constexpr double largest = double(std::numeric_limits<float>::max());
        // Moving down by 2^-23 |x| (at least one float ulp at x) plus a tiny
        // absolute step, then rounding to nearest (at most half an ulp up),
        // stays below x.
        if (!(std::abs(x) <= largest)) { // out of the float range, infinite or NaN
            return x > 0 ? std::numeric_limits<float>::max()
                         : (x < 0 ? -std::numeric_limits<float>::infinity() : static_cast<float>(x));
        }
        const double lowered = x - (std::abs(x) * 0x1p-23 + 0x1p-140);
        return lowered < -largest ? -std::numeric_limits<float>::infinity() : static_cast<float>(lowered);
    }

    /// A float f >= x, within about two float ulps of x (see
    /// round_down_to_float). Values above FLT_MAX give +inf, below -FLT_MAX
    /// give -FLT_MAX; NaN gives NaN.
    inline float round_up_to_float(double x) { return -round_down_to_float(-x); }

    /// Moves the bounds of box outward by inflation (>= 0) and one ulp.
    inline void inflate_outward(AABB& box, double inflation)
    {
        for (size_t d = 0; d < 3; ++d) {
            box.lower[d] = next_down(box.lower[d] - inflation);
            box.upper[d] = next_up(box.upper[d] + inflation);
        }
    }

    /// Grows box to contain row v of positions (2 or 3 columns).
    inline void expand(AABB& box, const Eigen::Ref<const Eigen::MatrixXd>& positions, Index v)
    {
        for (Index d = 0; d < positions.cols(); ++d) {
            const double x = positions(v, d);
            box.lower[size_t(d)] = x < box.lower[size_t(d)] ? x : box.lower[size_t(d)];
            box.upper[size_t(d)] = x > box.upper[size_t(d)] ? x : box.upper[size_t(d)];
        }
    }

    /// Box of one point (third component zero in 2D).
    inline AABB point_box(const Eigen::Ref<const Eigen::MatrixXd>& positions, Index v)
    {
        AABB box;
        for (Index d = 0; d < positions.cols(); ++d) {
            box.lower[size_t(d)] = box.upper[size_t(d)] = positions(v, d);
        }
        return box;
    }

    /// Shared body of the static and swept box builders: box of each
    /// primitive over the given position sets, inflated by the primitive's
    /// radius plus extra, written into boxes (its memory reused).
    template <int NumPositionSets>
    void primitive_boxes(
        const CollisionMesh& mesh,
        const std::array<const Eigen::Ref<const Eigen::MatrixXd>*, NumPositionSets>& positions,
        double extra, PrimitiveBoxes& boxes)
    {
        boxes.vertices.resize(size_t(mesh.num_vertices()));
        boxes.edges.resize(size_t(mesh.num_edges()));
        boxes.faces.resize(size_t(mesh.num_faces()));
        const auto primitive_box = [&](const int* vertices, int count, double radius) {
            AABB box = point_box(*positions[0], vertices[0]);
            for (int k = 0; k < NumPositionSets; ++k) {
                for (int j = 0; j < count; ++j) {
                    if (k > 0 || j > 0) {
                        expand(box, *positions[size_t(k)], vertices[j]);
                    }
                }
            }
            inflate_outward(box, radius + extra);
            return box;
        };
        const Eigen::VectorXd& vertex_radii = mesh.vertex_radii();
        const Eigen::VectorXd& edge_radii = mesh.edge_radii();
        const Eigen::VectorXd& face_radii = mesh.face_radii();
        const Eigen::MatrixXi& E = mesh.edges();
        const Eigen::MatrixXi& F = mesh.faces();
        parallel_for(0, mesh.num_vertices(), [&](std::ptrdiff_t v) {
            const int vertex = int(v);
            boxes.vertices[size_t(v)] = primitive_box(&vertex, 1, vertex_radii[v]);
        });
        parallel_for(0, mesh.num_edges(), [&](std::ptrdiff_t e) {
            const int vertices[2] = { E(e, 0), E(e, 1) };
            boxes.edges[size_t(e)] = primitive_box(vertices, 2, edge_radii[e]);
        });
        parallel_for(0, mesh.num_faces(), [&](std::ptrdiff_t f) {
            const int vertices[3] = { F(f, 0), F(f, 1), F(f, 2) };
            boxes.faces[size_t(f)] = primitive_box(vertices, 3, face_radii[f]);
        });
    }

} // namespace detail

/// Boxes for a contact query at positions V (n x dim, metres): each
/// primitive's box inflated by its radius plus dhat/2 (metres, >= 0), so that
/// two boxes overlap whenever the primitives are closer than xi + dhat.
/// Validates V (size, finite) and dhat; throws ipc::invalid_argument.
/// Written into boxes, whose memory is reused.
inline void static_boxes(
    const CollisionMesh& mesh, const Eigen::Ref<const Eigen::MatrixXd>& V, double dhat, PrimitiveBoxes& boxes)
{
    mesh.check_positions(V, "static_boxes: positions V");
    require(std::isfinite(dhat) && dhat >= 0.0, "static_boxes: dhat must be finite and non-negative, got ", dhat);
    const std::array<const Eigen::Ref<const Eigen::MatrixXd>*, 1> sets = { { &V } };
    detail::primitive_boxes<1>(mesh, sets, 0.5 * dhat, boxes);
}

/// The same, returned.
inline PrimitiveBoxes static_boxes(
    const CollisionMesh& mesh, const Eigen::Ref<const Eigen::MatrixXd>& V, double dhat)
{
    PrimitiveBoxes boxes;
    static_boxes(mesh, V, dhat, boxes);
    return boxes;
}

/// Boxes for CCD over the linear trajectories from V0 to V1 (n x dim,
/// metres): each primitive's box over both ends (which contains the whole
/// straight-line motion), inflated by its radius plus min_distance/2
/// (metres, >= 0), so that two boxes overlap whenever the primitives come
/// closer than xi + min_distance at some t in [0, 1].
/// Validates V0, V1 and min_distance; throws ipc::invalid_argument.
/// Written into boxes, whose memory is reused.
inline void swept_boxes(
    const CollisionMesh& mesh,
    const Eigen::Ref<const Eigen::MatrixXd>& V0,
    const Eigen::Ref<const Eigen::MatrixXd>& V1,
    double min_distance,
    PrimitiveBoxes& boxes)
{
    mesh.check_positions(V0, "swept_boxes: start positions V0");
    mesh.check_positions(V1, "swept_boxes: end positions V1");
    require(std::isfinite(min_distance) && min_distance >= 0.0,
            "swept_boxes: min_distance must be finite and non-negative, got ", min_distance);
    const std::array<const Eigen::Ref<const Eigen::MatrixXd>*, 2> sets = { { &V0, &V1 } };
    detail::primitive_boxes<2>(mesh, sets, 0.5 * min_distance, boxes);
}

/// The same, returned.
inline PrimitiveBoxes swept_boxes(
    const CollisionMesh& mesh,
    const Eigen::Ref<const Eigen::MatrixXd>& V0,
    const Eigen::Ref<const Eigen::MatrixXd>& V1,
    double min_distance = 0.0)
{
    PrimitiveBoxes boxes;
    swept_boxes(mesh, V0, V1, min_distance, boxes);
    return boxes;
}

} // namespace ipc
