#pragma once
/// @file
/// The contact lemmas of the vertex-repulsion method (Wu, Wu, Yang, Wang
/// 2020, section 3 and appendix A): a vertex cannot touch a triangle, nor can
/// two edges cross, unless some pair of their vertices is closer than a bound
/// that depends only on edge lengths.
/// - Vertex-triangle (eq. 2): a point in the closed triangle is within the
///   circumradius of some corner when the triangle is acute (the circumcentre
///   is the farthest point from all three corners), and within half the
///   longest edge otherwise.
/// - Edge-edge (eq. 4): when two segments share a point, the shortest of the
///   four cross vertex distances is at most 0.5 sqrt(l0^2 + l1^2) (attained
///   when they bisect each other at right angles).
/// Both bounds grow with every edge length, so with all edges at most L no
/// contact can happen while every non-adjacent vertex pair is at least
/// B = max(L/sqrt(3), L/sqrt(2)) = L/sqrt(2) apart.
///
/// Lengths are in metres (any length unit); the functions take non-negative
/// lengths and are not validated. Lengths that violate the triangle
/// inequality by rounding count as a degenerate triangle (half the longest
/// edge); no input of finite non-negative lengths gives NaN.

#include <cmath>
#include <utility>

namespace ipc {

/// Eq. 2: if a point lies in the closed triangle with edge lengths a, b, c,
/// its distance to the nearest corner is at most this bound: the circumradius
/// a b c / sqrt(l (l-2a)(l-2b)(l-2c)), l = a + b + c, for an acute triangle
/// (longest^2 < sum of the other two squared), else half the longest edge
/// (right, obtuse and zero-area triangles). The circumradius is evaluated
/// with Kahan's cancellation-free area formula and is never below half the
/// longest edge, so the bound is continuous across right triangles and
/// non-decreasing in each edge length.
template <typename T> T point_triangle_separation_bound(T a, T b, T c)
{
    using std::sqrt;
    // Sort so that a >= b >= c.
    if (a < b) {
        std::swap(a, b);
    }
    if (b < c) {
        std::swap(b, c);
    }
    if (a < b) {
        std::swap(a, b);
    }
    const T half_longest = T(0.5) * a;
    if (!(a * a < b * b + c * c)) {
        return half_longest; // right, obtuse or degenerate
    }
    // 4 Area = sqrt(l (l-2a)(l-2b)(l-2c)) in Kahan's form, one square root
    // per factor to avoid underflow for slivers.
    const T four_area = sqrt(a + (b + c)) * sqrt(c - (a - b)) * sqrt(c + (a - b)) * sqrt(a + (b - c));
    const T circumradius = (a / four_area) * b * c;
    // Acute slivers (two near-right angles) tend to half the longest edge;
    // guard against 0 / 0 and overflow there.
    if (!(circumradius >= half_longest) || !(circumradius - circumradius == T(0))) {
        return half_longest;
    }
    return circumradius;
}

/// Eq. 4: if two segments of lengths l0 and l1 cross (share a point), the
/// shortest of the four cross vertex distances is at most
/// 0.5 sqrt(l0^2 + l1^2).
template <typename T> T edge_edge_separation_bound(T l0, T l1)
{
    using std::sqrt;
    return T(0.5) * sqrt(l0 * l0 + l1 * l1);
}

/// With every edge at most L = max_edge_length: the separation B below which
/// a vertex pair must come before any contact can happen, the larger of the
/// two lemma bounds at their worst case, max(L/sqrt(3), L/sqrt(2)) = L/sqrt(2)
/// (up to rounding). Computed as max(point_triangle_separation_bound(L, L, L),
/// edge_edge_separation_bound(L, L)), so in floating point too it is never
/// below either bound for edges of length at most L.
template <typename T> T repulsion_separation(T max_edge_length)
{
    const T L = max_edge_length;
    const T vt = point_triangle_separation_bound(L, L, L);
    const T ee = edge_edge_separation_bound(L, L);
    return vt < ee ? ee : vt;
}

} // namespace ipc
