#pragma once
// Brute-force long double reference distances for the distance tests. They
// solve the closest-point problems directly (normal equations and clamping)
// and do not call the library.

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <algorithm>
#include <limits>

namespace ipc::test {

using Vec3L = Eigen::Matrix<long double, 3, 1>;
using Vec2L = Eigen::Matrix<long double, 2, 1>;

/// Squared distance from p to the segment a-b (clamped projection).
template <int DIM>
long double reference_point_segment(
    const Eigen::Matrix<long double, DIM, 1>& p, const Eigen::Matrix<long double, DIM, 1>& a,
    const Eigen::Matrix<long double, DIM, 1>& b)
{
    const Eigen::Matrix<long double, DIM, 1> ab = b - a;
    const long double len2 = ab.dot(ab);
    long double t = 0;
    if (len2 > 0) {
        t = std::clamp((p - a).dot(ab) / len2, 0.0L, 1.0L);
    }
    return (p - (a + t * ab)).squaredNorm();
}

/// Squared distance from p to the triangle (a, b, c): the projection onto the
/// plane when its barycentric coordinates (from the 2x2 normal equations) are
/// all nonnegative, else the smallest of the three point-segment distances.
inline long double
reference_point_triangle(const Vec3L& p, const Vec3L& a, const Vec3L& b, const Vec3L& c)
{
    const Vec3L u = b - a, v = c - a, w = p - a;
    const long double uu = u.dot(u), uv = u.dot(v), vv = v.dot(v);
    const long double det = uu * vv - uv * uv;
    long double best = std::min(
        { reference_point_segment<3>(p, a, b), reference_point_segment<3>(p, b, c),
          reference_point_segment<3>(p, c, a) });
    if (det > 1e-24L * uu * vv) {
        const long double s = (vv * w.dot(u) - uv * w.dot(v)) / det;
        const long double t = (uu * w.dot(v) - uv * w.dot(u)) / det;
        if (s >= 0 && t >= 0 && s + t <= 1) {
            best = std::min(best, (p - (a + s * u + t * v)).squaredNorm());
        }
    }
    return best;
}

/// Squared distance between segments a0-a1 and b0-b1: the four endpoint to
/// segment distances, and the interior solution of the normal equations when
/// both parameters lie in (0, 1).
inline long double
reference_segment_segment(const Vec3L& a0, const Vec3L& a1, const Vec3L& b0, const Vec3L& b1)
{
    long double best = std::min(
        { reference_point_segment<3>(a0, b0, b1), reference_point_segment<3>(a1, b0, b1),
          reference_point_segment<3>(b0, a0, a1), reference_point_segment<3>(b1, a0, a1) });
    const Vec3L u = a1 - a0, v = b1 - b0, w = a0 - b0;
    const long double uu = u.dot(u), uv = u.dot(v), vv = v.dot(v);
    const long double det = uu * vv - uv * uv;
    if (det > 1e-24L * uu * vv) {
        // minimise |w + s u - t v|^2
        const long double s = (uv * v.dot(w) - vv * u.dot(w)) / det;
        const long double t = (uu * v.dot(w) - uv * u.dot(w)) / det;
        if (s > 0 && s < 1 && t > 0 && t < 1) {
            best = std::min(best, (w + s * u - t * v).squaredNorm());
        }
    }
    return best;
}

} // namespace ipc::test
