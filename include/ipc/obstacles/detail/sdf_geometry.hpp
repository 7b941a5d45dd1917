#pragma once
/// @file
/// Internal geometry behind the signed-distance obstacles: robust unit
/// vectors, point-segment and segment-segment distances, the exact minimum of
/// a box's signed distance along a segment, and the mesher that inscribes a
/// rounded box (and hence a sphere or a capsule) in its surface. All lengths
/// are in metres.

#include <ipc/core/math.hpp>

#include <Eigen/Core>
#include <Eigen/Geometry> // cross products

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <unordered_map>
#include <vector>

/// Helpers of the signed-distance obstacles, in their own namespace so that
/// their generic names never overload other detail functions.
namespace ipc::detail::sdf {

/// v / |v| computed without overflow or underflow (v is first scaled by its
/// largest coefficient). Returns `fallback` when v is exactly zero, and NaNs
/// when v is not finite.
inline Eigen::Vector3d safe_unit(const Eigen::Vector3d& v, const Eigen::Vector3d& fallback)
{
    if (!ipc::all_finite(v)) {
        return Eigen::Vector3d::Constant(std::numeric_limits<double>::quiet_NaN());
    }
    const double scale = v.cwiseAbs().maxCoeff();
    if (!(scale > 0)) {
        return fallback;
    }
    const Eigen::Vector3d w = v / scale;
    return w / w.norm();
}

/// A unit vector perpendicular to the unit vector w (deterministic: w crossed
/// with the coordinate axis along which w is smallest).
inline Eigen::Vector3d perpendicular_unit(const Eigen::Vector3d& w)
{
    Eigen::Index axis = 0;
    w.cwiseAbs().minCoeff(&axis);
    return safe_unit(w.cross(Eigen::Vector3d::Unit(axis)), Eigen::Vector3d::UnitX());
}

/// Parameter t in [0, 1] of the point of the segment [a, b] nearest to p
/// (0 when a == b).
inline double segment_closest_parameter(
    const Eigen::Vector3d& p, const Eigen::Vector3d& a, const Eigen::Vector3d& b)
{
    const Eigen::Vector3d d = b - a;
    const double dd = d.squaredNorm();
    if (!(dd > 0)) {
        return 0;
    }
    const double t = (p - a).dot(d) / dd;
    // Written so that a NaN t stays NaN (std::clamp would too, but states it less plainly).
    return t < 0 ? 0.0 : (t > 1 ? 1.0 : t);
}

/// Euclidean distance from p to the segment [a, b].
inline double point_segment_distance(
    const Eigen::Vector3d& p, const Eigen::Vector3d& a, const Eigen::Vector3d& b)
{
    const double t = segment_closest_parameter(p, a, b);
    return (p - (a + t * (b - a))).norm();
}

/// Euclidean distance between the segments [p0, p1] and [a, b] (either may
/// have zero length). The minimum over the parameter square is taken over its
/// four sides (exact point-segment distances) and, when the unconstrained
/// minimiser of the two lines lies inside the square, over that pair of points.
/// Every candidate is the distance of an actual pair of points, and the true
/// minimiser is always among them, so the result is exact up to rounding
/// (nearly parallel segments included: their distance is then flat along the
/// segments and the sides give it).
inline double segment_segment_distance(
    const Eigen::Vector3d& p0, const Eigen::Vector3d& p1, const Eigen::Vector3d& a,
    const Eigen::Vector3d& b)
{
    double best = std::min(
        std::min(point_segment_distance(p0, a, b), point_segment_distance(p1, a, b)),
        std::min(point_segment_distance(a, p0, p1), point_segment_distance(b, p0, p1)));
    const Eigen::Vector3d d1 = p1 - p0;
    const Eigen::Vector3d d2 = b - a;
    const Eigen::Vector3d r = p0 - a;
    const double A = d1.squaredNorm(), B = d1.dot(d2), C = d2.squaredNorm();
    const double D = d1.dot(r), E = d2.dot(r);
    const double det = A * C - B * B;
    if (det > 0) {
        // Stationary point of |r + s d1 - t d2|^2 (Cramer's rule).
        const double s = (B * E - C * D) / det;
        const double t = (A * E - B * D) / det;
        if (s >= 0 && s <= 1 && t >= 0 && t <= 1) {
            best = std::min(best, (r + s * d1 - t * d2).norm());
        }
    }
    return best;
}

/// Signed distance of the point u (relative to the box centre) to the sharp
/// axis-aligned box [-h, h]: Euclidean distance to the box outside, minus the
/// distance to the nearest face inside.
inline double sharp_box_signed_distance(const Eigen::Vector3d& u, const Eigen::Vector3d& h)
{
    const Eigen::Vector3d q = u.cwiseAbs() - h;
    const double inside = std::min(q.maxCoeff(), 0.0);
    return q.cwiseMax(0.0).norm() + inside;
}

/// Exact minimum over t in [0, 1] of the sharp box's signed distance at
/// u0 + t (u1 - u0) (points relative to the box centre).
///
/// Along a line the signed distance of a convex set is convex. The crossings
/// of the planes u_i = -h_i, 0, h_i cut [0, 1] into at most ten pieces on each
/// of which the function has one closed form: the root of a quadratic
/// sum_i (s_i u_i(t) - h_i)^2 over the axes outside the box, or the maximum of
/// the three linear functions s_i u_i(t) - h_i when no axis is outside. The
/// minimiser therefore lies at a piece end, at the clamped vertex of a
/// quadratic piece, or where two linear functions cross; the function is
/// evaluated (exactly) at all of these and the least value returned.
inline double segment_min_sharp_box_distance(
    const Eigen::Vector3d& u0, const Eigen::Vector3d& u1, const Eigen::Vector3d& h)
{
    const Eigen::Vector3d d = u1 - u0;
    std::array<double, 11> cuts {};
    int n_cuts = 0;
    cuts[n_cuts++] = 0;
    for (int i = 0; i < 3; ++i) {
        if (d[i] == 0) {
            continue;
        }
        for (const double level : { -h[i], 0.0, h[i] }) {
            const double t = (level - u0[i]) / d[i];
            if (t > 0 && t < 1) {
                cuts[n_cuts++] = t;
            }
        }
    }
    cuts[n_cuts++] = 1;
    std::sort(cuts.begin(), cuts.begin() + n_cuts);

    const auto value = [&](double t) {
        if (t <= 0) {
            return sharp_box_signed_distance(u0, h);
        }
        if (t >= 1) {
            return sharp_box_signed_distance(u1, h);
        }
        return sharp_box_signed_distance(u0 + t * d, h);
    };
    double best = std::min(value(0), value(1));
    for (int k = 0; k + 1 < n_cuts; ++k) {
        const double ta = cuts[k], tb = cuts[k + 1];
        if (!(tb > ta)) {
            continue;
        }
        best = std::min(best, value(ta));
        const Eigen::Vector3d um = u0 + (0.5 * (ta + tb)) * d;
        // Linear pieces l_i(t) = alpha_i + beta_i t = s_i u_i(t) - h_i.
        Eigen::Vector3d alpha, beta;
        bool outside = false;
        for (int i = 0; i < 3; ++i) {
            const double s = um[i] >= 0 ? 1.0 : -1.0;
            alpha[i] = s * u0[i] - h[i];
            beta[i] = s * d[i];
            outside = outside || std::abs(um[i]) > h[i];
        }
        const auto clamp_to_piece = [&](double t) { return std::min(std::max(t, ta), tb); };
        if (outside) {
            double ab = 0, bb = 0;
            for (int i = 0; i < 3; ++i) {
                if (std::abs(um[i]) > h[i]) {
                    ab += alpha[i] * beta[i];
                    bb += beta[i] * beta[i];
                }
            }
            if (bb > 0) {
                best = std::min(best, value(clamp_to_piece(-ab / bb)));
            }
        } else {
            for (int i = 0; i < 3; ++i) {
                for (int j = i + 1; j < 3; ++j) {
                    if (beta[i] != beta[j]) {
                        const double t = (alpha[j] - alpha[i]) / (beta[i] - beta[j]);
                        if (t > ta && t < tb) {
                            best = std::min(best, value(t));
                        }
                    }
                }
            }
        }
    }
    return best;
}

/// Triangle mesh of the rounded box {x : dist(x, [-h, h]) <= r} with every
/// vertex on its surface, outward oriented and closed, in the box's own frame
/// (centre at the origin). r = 0 gives the sharp box (8 vertices, 12
/// triangles); h = 0 gives a sphere; h = (0, 0, l) a capsule along z.
///
/// Construction: the surface of the enclosing cube [-(h + r), h + r] is cut
/// into a grid whose lines along axis i sit at +-h_i and, in the rounded bands
/// between h_i and h_i + r, at h_i + r tan(theta) for theta = k pi / (4 m),
/// k = 0..m (the gnomonic cube-sphere spacing, m segments per 45 degrees).
/// Each grid vertex q maps to its nearest point on the rounded box,
/// clamp(q, -h, h) + r (q - clamp(q)) / |q - clamp(q)|. That map is a
/// homeomorphism from the cube's surface onto the rounded surface, so the
/// cube grid's closed, outward-oriented connectivity carries over; an axis
/// with h_i = 0 (and r > 0) gets a single grid line at 0 so no vertex repeats.
inline void rounded_box_mesh(
    const Eigen::Vector3d& h, double r, int m, Eigen::MatrixXd& V, Eigen::MatrixXi& F)
{
    constexpr double quarter_pi = 0.78539816339744830962;
    std::array<std::vector<double>, 3> lines;
    for (int i = 0; i < 3; ++i) {
        std::vector<double>& g = lines[i];
        if (r > 0) {
            std::vector<double> band; // offsets beyond h_i, increasing, ending at r
            for (int k = 1; k < m; ++k) {
                band.push_back(r * std::tan(k * quarter_pi / m));
            }
            band.push_back(r);
            for (auto it = band.rbegin(); it != band.rend(); ++it) {
                g.push_back(-h[i] - *it);
            }
            g.push_back(-h[i]);
            if (h[i] > 0) {
                g.push_back(h[i]);
            }
            for (const double b : band) {
                g.push_back(h[i] + b);
            }
        } else {
            g = { -h[i], h[i] };
        }
    }
    const std::array<int, 3> n { int(lines[0].size()), int(lines[1].size()), int(lines[2].size()) };

    std::vector<Eigen::Vector3d> vertices;
    std::vector<Eigen::Vector3i> faces;
    std::unordered_map<std::int64_t, int> index_of;
    const auto vertex = [&](const std::array<int, 3>& ijk) {
        const std::int64_t key = ijk[0] + std::int64_t(n[0]) * (ijk[1] + std::int64_t(n[1]) * ijk[2]);
        const auto found = index_of.find(key);
        if (found != index_of.end()) {
            return found->second;
        }
        const Eigen::Vector3d q(lines[0][ijk[0]], lines[1][ijk[1]], lines[2][ijk[2]]);
        const Eigen::Vector3d inner = q.cwiseMax(-h).cwiseMin(h);
        Eigen::Vector3d x = inner;
        if (r > 0) {
            x += r * safe_unit(q - inner, Eigen::Vector3d::UnitZ());
        }
        const int id = int(vertices.size());
        vertices.push_back(x);
        index_of.emplace(key, id);
        return id;
    };

    for (int a = 0; a < 3; ++a) {
        const int b = (a + 1) % 3, c = (a + 2) % 3;
        for (int side = 0; side < 2; ++side) {
            for (int j = 0; j + 1 < n[b]; ++j) {
                for (int k = 0; k + 1 < n[c]; ++k) {
                    // Corners counter-clockwise in (b, c): normal +e_a.
                    std::array<int, 4> quad;
                    const std::array<std::array<int, 2>, 4> jk {
                        { { j, k }, { j + 1, k }, { j + 1, k + 1 }, { j, k + 1 } }
                    };
                    for (int corner = 0; corner < 4; ++corner) {
                        std::array<int, 3> ijk;
                        ijk[a] = side == 0 ? 0 : n[a] - 1;
                        ijk[b] = jk[corner][0];
                        ijk[c] = jk[corner][1];
                        quad[corner] = vertex(ijk);
                    }
                    if (side == 0) {
                        std::swap(quad[1], quad[3]);
                    }
                    faces.emplace_back(quad[0], quad[1], quad[2]);
                    faces.emplace_back(quad[0], quad[2], quad[3]);
                }
            }
        }
    }

    V.resize(Eigen::Index(vertices.size()), 3);
    for (std::size_t v = 0; v < vertices.size(); ++v) {
        V.row(Eigen::Index(v)) = vertices[v].transpose();
    }
    F.resize(Eigen::Index(faces.size()), 3);
    for (std::size_t f = 0; f < faces.size(); ++f) {
        F.row(Eigen::Index(f)) = faces[f].transpose();
    }
}

} // namespace ipc::detail::sdf
