#pragma once
/// @file
/// Additive continuous collision detection (ACCD, Li et al. 2021, C-IPC
/// Algorithm 1) with a minimum separation (offset), certified in floating point
/// and with a guaranteed iteration bound.
///
/// How it works. Along linear trajectories x_i(t) = x_i(0) + t (x_i(1) - x_i(0))
/// the distance between the two primitives of a stencil is the distance from
/// the origin to the convex hull of the vertex differences c_j(t) = a(t) - b(t)
/// (a a vertex of the first primitive, b one of the second). For any unit
/// vector n, d(t) >= min_j n . c_j(t), and each n . c_j(t) is affine in t. At
/// the current time the method takes n along the current closest-point vector,
/// which makes this bound tangent to the distance (exact for a relative
/// translation, never weaker than the classic bound d - l_p dt of Eq. 10), and
/// advances to the latest time at which the bound still guarantees
/// d >= xi + (1 - s)(d_current - xi). The affine pieces are evaluated from the
/// input coordinates with an explicit rounding-error margin, so every accepted
/// interval is proven to stay strictly farther apart than xi in exact
/// arithmetic on the given double inputs. As in ACCD, the query reports a hit
/// once the sampled distance falls below xi + (1 - s)(d(0) - xi) and returns
/// the previous (certified) time as toi.
///
/// When a primitive turns (its far vertices approach along n much faster than
/// its closest point does) one direction bounds the whole primitive poorly; the
/// step then splits the primitive into pieces, each with its own separating
/// direction: for edges a window of parameter half-width about sqrt(d / length)
/// around the closest point and the two remainders, for triangles an adaptive
/// midpoint subdivision (at most 40 pieces). The pieces cover the primitive, so
/// the certificate is unchanged; only the step grows.
///
/// tmax = 0 and a start within min_distance mean what ipc::CCDStatus says
/// for every method (see ccd_result.hpp): here "within" is the computed
/// Euclidean distance at t = 0 being at most min_distance.
///
/// Guarantees (for every status, with finite inputs):
///  - no_hit: the primitives stay farther apart than min_distance on [0, tmax].
///  - hit / iteration_cap: they stay farther than min_distance on [0, toi]; for
///    hit the sampled distance at toi is at least
///    min_distance + (1 - s)(d(0) - min_distance).
///  - The toi does not depend on tmax: with tmax < 1 the result is the hit
///    of the same query with tmax = 1 when its toi is below tmax, and no_hit
///    otherwise. So the earliest toi over a set of queries is the same
///    whatever bound each was queried with (collision_hits and
///    collision_free_step_size agree).
///  - If the distance stays at or above xi + (1 - s)(d(0) - xi) on [0, 1]
///    (by more than rounding), the result is no_hit unless max_iterations is
///    reached: no false positive beyond ACCD's own conservative threshold.
///    (With tmax < 1 the last certified step may end past tmax, and the
///    threshold is tested there.)
///  - The loop ends after at most the bound returned by iteration_bound()
///    for tmax = 1 (never more than max_iterations); reaching it reports
///    iteration_cap.
///  - iterations counts the certified steps (distance evaluations after t = 0).
/// Rounding assumptions: IEEE arithmetic of the scalar type, round to nearest;
/// do not compile with -ffast-math. The AdditiveCCD class works in double; the
/// free functions additive_*_ccd at the end accept float and long double too.

#include <ipc/ccd/ccd_queries.hpp>
#include <ipc/ccd/ccd_result.hpp>
#include <ipc/core/error.hpp>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>

namespace ipc {

namespace detail::accd {

    template <typename Scalar, int N> using Vec = Eigen::Matrix<Scalar, N, 1>;

    /// Vector from the closest point of segment [a, b] to p (p minus that point).
    /// A zero-length segment is treated as the point a. When `parameter` is
    /// given it receives the closest point's parameter along [a, b].
    template <typename Scalar, int N>
    inline Vec<Scalar, N> point_segment_vector(
        const Vec<Scalar, N>& p, const Vec<Scalar, N>& a, const Vec<Scalar, N>& b,
        Scalar* parameter = nullptr)
    {
        const Vec<Scalar, N> edge = b - a;
        const Vec<Scalar, N> from_a = p - a;
        const Scalar length_sq = edge.squaredNorm();
        const Scalar along = edge.dot(from_a);
        if (!(length_sq > 0) || along <= 0) {
            if (parameter != nullptr) {
                *parameter = 0;
            }
            return from_a;
        }
        if (along >= length_sq) {
            if (parameter != nullptr) {
                *parameter = 1;
            }
            return p - b;
        }
        const Scalar ratio = along / length_sq;
        if (parameter != nullptr) {
            *parameter = ratio;
        }
        return from_a - ratio * edge;
    }

    /// Vector from the closest point of triangle (a, b, c) to p (3D). Regions are
    /// chosen from barycentric sign tests; a degenerate triangle falls back to
    /// its closest edge.
    template <typename Scalar>
    inline Vec<Scalar, 3> point_triangle_vector(
        const Vec<Scalar, 3>& p, const Vec<Scalar, 3>& a, const Vec<Scalar, 3>& b,
        const Vec<Scalar, 3>& c)
    {
        const Vec<Scalar, 3> ab = b - a, ac = c - a, ap = p - a;
        const Scalar ab_ap = ab.dot(ap), ac_ap = ac.dot(ap);
        if (ab_ap <= 0 && ac_ap <= 0) {
            return ap; // vertex a
        }
        const Vec<Scalar, 3> bp = p - b;
        const Scalar ab_bp = ab.dot(bp), ac_bp = ac.dot(bp);
        if (ab_bp >= 0 && ac_bp <= ab_bp) {
            return bp; // vertex b
        }
        const Vec<Scalar, 3> cp = p - c;
        const Scalar ab_cp = ab.dot(cp), ac_cp = ac.dot(cp);
        if (ac_cp >= 0 && ab_cp <= ac_cp) {
            return cp; // vertex c
        }
        const Scalar area_c = ab_ap * ac_bp - ab_bp * ac_ap;
        if (area_c <= 0 && ab_ap >= 0 && ab_bp <= 0) { // edge ab
            const Scalar span = ab_ap - ab_bp;
            return span > 0 ? Vec<Scalar, 3>(ap - (ab_ap / span) * ab) : ap;
        }
        const Scalar area_b = ab_cp * ac_ap - ab_ap * ac_cp;
        if (area_b <= 0 && ac_ap >= 0 && ac_cp <= 0) { // edge ac
            const Scalar span = ac_ap - ac_cp;
            return span > 0 ? Vec<Scalar, 3>(ap - (ac_ap / span) * ac) : ap;
        }
        const Scalar area_a = ab_bp * ac_cp - ab_cp * ac_bp;
        const Scalar from_b = ac_bp - ab_bp, from_c = ab_cp - ac_cp;
        if (area_a <= 0 && from_b >= 0 && from_c >= 0) { // edge bc
            const Scalar span = from_b + from_c;
            return span > 0 ? Vec<Scalar, 3>(bp - (from_b / span) * (c - b)) : bp;
        }
        // Interior: project onto the normal (accurate when p is close to the plane).
        const Vec<Scalar, 3> normal = ab.cross(ac);
        const Scalar normal_sq = normal.squaredNorm();
        if (normal_sq > 0 && std::isfinite(normal_sq)) {
            return normal * (normal.dot(ap) / normal_sq);
        }
        // Degenerate (collinear) triangle: the nearest of its edges.
        const Vec<Scalar, 3> r0 = point_segment_vector<Scalar, 3>(p, a, b);
        const Vec<Scalar, 3> r1 = point_segment_vector<Scalar, 3>(p, b, c);
        const Vec<Scalar, 3> r2 = point_segment_vector<Scalar, 3>(p, a, c);
        const Scalar s0 = r0.squaredNorm(), s1 = r1.squaredNorm(), s2 = r2.squaredNorm();
        return s0 <= s1 ? (s0 <= s2 ? r0 : r2) : (s1 <= s2 ? r1 : r2);
    }

    template <typename Scalar> inline Scalar clamp01(Scalar x)
    {
        return x < 0 ? Scalar(0) : (x > 1 ? Scalar(1) : x);
    }

    /// Vector from the closest point of segment (b0, b1) to the closest point of
    /// segment (a0, a1) (3D); handles parallel and zero-length segments. When
    /// given, a_parameter and b_parameter receive the closest points' parameters.
    template <typename Scalar>
    inline Vec<Scalar, 3> segment_segment_vector(
        const Vec<Scalar, 3>& a0, const Vec<Scalar, 3>& a1, const Vec<Scalar, 3>& b0,
        const Vec<Scalar, 3>& b1, Scalar* a_parameter = nullptr, Scalar* b_parameter = nullptr)
    {
        const Vec<Scalar, 3> da = a1 - a0, db = b1 - b0, r = a0 - b0;
        const Scalar aa = da.squaredNorm(), bb = db.squaredNorm();
        const Scalar db_r = db.dot(r);
        Scalar u = 0, v = 0; // parameters on a and b
        bool interior = false;
        if (aa > 0 && bb > 0) {
            const Scalar da_r = da.dot(r);
            const Scalar ab = da.dot(db);
            const Scalar denominator = aa * bb - ab * ab;
            u = denominator > 0 ? clamp01((ab * db_r - da_r * bb) / denominator) : Scalar(0);
            v = (ab * u + db_r) / bb;
            if (v < 0) {
                v = 0;
                u = clamp01(-da_r / aa);
            } else if (v > 1) {
                v = 1;
                u = clamp01((ab - da_r) / aa);
            }
            interior = u > 0 && u < 1 && v > 0 && v < 1;
        } else if (aa > 0) {
            u = clamp01(-da.dot(r) / aa);
        } else if (bb > 0) {
            v = clamp01(db_r / bb);
        }
        if (a_parameter != nullptr) {
            *a_parameter = u;
        }
        if (b_parameter != nullptr) {
            *b_parameter = v;
        }
        if (interior) {
            // Interior of both: project onto the common normal when the edges
            // are far enough from parallel for it to be accurate.
            const Vec<Scalar, 3> normal = da.cross(db);
            const Scalar normal_sq = normal.squaredNorm();
            if (normal_sq > Scalar(1e-6) * aa * bb && std::isfinite(normal_sq)) {
                return normal * (normal.dot(r) / normal_sq);
            }
        }
        return r + u * da - v * db;
    }

    /// The kinds of stencils: first primitive has KA vertices, second KB.
    using Kind = CCDStencil;

    template <Kind K> struct Shape;
    template <> struct Shape<Kind::point_point> {
        static constexpr int a = 1, b = 1;
    };
    template <> struct Shape<Kind::point_edge> {
        static constexpr int a = 1, b = 2;
    };
    template <> struct Shape<Kind::point_triangle> {
        static constexpr int a = 1, b = 3;
    };
    template <> struct Shape<Kind::edge_edge> {
        static constexpr int a = 2, b = 2;
    };

    /// Closest vector (first primitive minus second) of the stencil x.
    template <Kind K, typename Scalar, int N, std::size_t V>
    inline Vec<Scalar, N> closest_vector(const std::array<Vec<Scalar, N>, V>& x)
    {
        if constexpr (K == Kind::point_point) {
            return x[0] - x[1];
        } else if constexpr (K == Kind::point_edge) {
            return point_segment_vector<Scalar, N>(x[0], x[1], x[2]);
        } else if constexpr (K == Kind::point_triangle) {
            return point_triangle_vector<Scalar>(x[0], x[1], x[2], x[3]);
        } else {
            return segment_segment_vector<Scalar>(x[0], x[1], x[2], x[3]);
        }
    }

    /// Settings of one query.
    template <typename Scalar> struct Settings {
        Scalar min_distance = 0;
        Scalar tmax = 1;
        double conservative_rescaling = 0.9;
        long max_iterations = 1'000'000;
    };

    /// The largest double not above x (times are reported as double; rounding
    /// up could leave the certified interval).
    template <typename Scalar> inline double round_down_to_double(Scalar x)
    {
        double y = double(x);
        if (Scalar(y) > x) {
            y = std::nextafter(y, -std::numeric_limits<double>::infinity());
        }
        return y;
    }

    /// Iteration bound: 2 ceil(tmax l / (s (1 - s)(d0 - xi))) + 16, clamped to
    /// cap. In exact arithmetic every accepted step is at least
    /// s (1 - s)(d0 - xi) / l long (l bounds the rate of approach), the factor 2
    /// and the constant absorb rounding.
    inline long iteration_bound(double tmax, double rate, double gap0, double s, long cap)
    {
        if (!(rate > 0) || tmax == 0) {
            return std::min<long>(cap, 16);
        }
        const double steps = 2 * std::ceil(tmax * rate / (s * (1 - s) * gap0)) + 16;
        if (!(steps < double(cap))) { // also catches inf and NaN
            return cap;
        }
        return long(steps);
    }

    /// Certified advance for one convex piece of the stencil: the piece's
    /// vertex differences are c0[j] at t = 0 and c1[j] at t = 1, and n (|n| <= 1)
    /// is a separating direction. Returns the largest time T in [t, tmax] found
    /// with min_j n . c_j(T') - margin >= level (and > xi) for every T' in
    /// [t, T], or -1 when that fails already at t. `margin` bounds the rounding
    /// error of these evaluations.
    template <typename Scalar, int N, std::size_t J>
    inline Scalar certified_advance(
        const Vec<Scalar, N>& n, const std::array<Vec<Scalar, N>, J>& c0,
        const std::array<Vec<Scalar, N>, J>& c1, Scalar t, Scalar tmax, Scalar level, Scalar xi,
        Scalar margin)
    {
        std::array<Scalar, J> start, slope;
        Scalar end = tmax;
        for (std::size_t j = 0; j < J; ++j) {
            start[j] = n.dot(c0[j]);
            slope[j] = n.dot(c1[j]) - start[j];
            const Scalar low = start[j] + t * slope[j] - margin;
            if (!(low >= level && low > xi)) {
                return Scalar(-1);
            }
            if (slope[j] < 0) {
                end = std::min(end, t + (low - level) / -slope[j]);
            }
        }
        // Verify at the rounded end (the bound is affine in time, so checking
        // both ends certifies the interval); if rounding bit, shrink the step
        // a hair, then by halves.
        for (int attempt = 0; attempt < 4; ++attempt) {
            bool ok = true;
            for (std::size_t j = 0; j < J; ++j) {
                const Scalar low = start[j] + end * slope[j] - margin;
                if (!(low >= level && low > xi)) {
                    ok = false;
                    break;
                }
            }
            if (ok) {
                return end;
            }
            const Scalar shrink = attempt == 0
                ? Scalar(1) - Scalar(64) * std::numeric_limits<Scalar>::epsilon()
                : (attempt == 1 ? Scalar(0.999) : Scalar(0.5));
            end = t + shrink * (end - t);
        }
        return t;
    }

    /// Separating direction of length at most 1 from a closest vector r of
    /// length `length` > 0.
    template <typename Scalar, int N>
    inline Vec<Scalar, N> unit_direction(const Vec<Scalar, N>& r, Scalar length)
    {
        return r * (Scalar(1 - 4 * std::numeric_limits<Scalar>::epsilon()) / length);
    }

    /// Breakpoints {0, centre - half, centre + half, 1} of a parameter window,
    /// dropping empty pieces; returns how many pieces (1 to 3) it wrote.
    template <typename Scalar>
    inline int window_breaks(Scalar centre, Scalar half, std::array<Scalar, 4>& breaks)
    {
        int count = 0;
        breaks[0] = 0;
        const Scalar low = centre - half, high = centre + half;
        if (low > 0 && low < 1) {
            breaks[std::size_t(++count)] = low;
        }
        if (high > 0 && high < 1 && high > breaks[std::size_t(count)]) {
            breaks[std::size_t(++count)] = high;
        }
        breaks[std::size_t(++count)] = 1;
        return count;
    }

    /// Certified advance from t over a split of the stencil into pieces: a
    /// window of half-width about sqrt(d / length) (in edge parameter) around
    /// each edge's closest point, and the rest of the edge on either side. Each
    /// piece uses its own separating direction, so the far parts of a turning
    /// edge no longer limit the step. Only point-edge and edge-edge stencils;
    /// returns t for the others.
    template <Kind K, typename Scalar, int N, std::size_t V>
    inline Scalar windowed_advance(
        const std::array<Vec<Scalar, N>, V>& x0, const std::array<Vec<Scalar, N>, V>& x1,
        const std::array<Vec<Scalar, N>, V>& x, Scalar distance, Scalar t, Scalar tmax,
        Scalar level, Scalar xi, Scalar margin)
    {
        using std::sqrt;
        auto half_width = [distance](const Vec<Scalar, N>& e0, const Vec<Scalar, N>& e1) {
            const Scalar length = (e1 - e0).norm();
            return length > 0 ? std::min(Scalar(0.5), sqrt(distance / length)) : Scalar(1);
        };
        auto lerp = [](const Vec<Scalar, N>& a, const Vec<Scalar, N>& b, Scalar u) {
            return Vec<Scalar, N>(a + u * (b - a));
        };
        if constexpr (K == Kind::point_edge) {
            Scalar v = 0;
            point_segment_vector<Scalar, N>(x[0], x[1], x[2], &v);
            std::array<Scalar, 4> breaks;
            const int pieces = window_breaks(v, half_width(x[1], x[2]), breaks);
            Scalar end = tmax;
            for (int k = 0; k < pieces; ++k) {
                const Scalar lo = breaks[std::size_t(k)], hi = breaks[std::size_t(k + 1)];
                const std::array<Vec<Scalar, N>, 2> c0 { x0[0] - lerp(x0[1], x0[2], lo),
                                                         x0[0] - lerp(x0[1], x0[2], hi) };
                const std::array<Vec<Scalar, N>, 2> c1 { x1[0] - lerp(x1[1], x1[2], lo),
                                                         x1[0] - lerp(x1[1], x1[2], hi) };
                const Vec<Scalar, N> r = point_segment_vector<Scalar, N>(
                    x[0], lerp(x[1], x[2], lo), lerp(x[1], x[2], hi));
                const Scalar length = r.norm();
                if (!(length > 0)) {
                    return t;
                }
                end = std::min(end, certified_advance<Scalar, N, 2>(
                                        unit_direction<Scalar, N>(r, length), c0, c1, t, tmax,
                                        level, xi, margin));
                if (!(end > t)) {
                    return t;
                }
            }
            return end;
        } else if constexpr (K == Kind::edge_edge) {
            Scalar u = 0, v = 0;
            segment_segment_vector<Scalar>(x[0], x[1], x[2], x[3], &u, &v);
            std::array<Scalar, 4> breaks_a, breaks_b;
            const int pieces_a = window_breaks(u, half_width(x[0], x[1]), breaks_a);
            const int pieces_b = window_breaks(v, half_width(x[2], x[3]), breaks_b);
            if (pieces_a == 1 && pieces_b == 1) {
                return t;
            }
            Scalar end = tmax;
            for (int i = 0; i < pieces_a; ++i) {
                const Scalar a_lo = breaks_a[std::size_t(i)], a_hi = breaks_a[std::size_t(i + 1)];
                const Vec<Scalar, N> a0_lo = lerp(x0[0], x0[1], a_lo), a0_hi = lerp(x0[0], x0[1], a_hi);
                const Vec<Scalar, N> a1_lo = lerp(x1[0], x1[1], a_lo), a1_hi = lerp(x1[0], x1[1], a_hi);
                for (int k = 0; k < pieces_b; ++k) {
                    const Scalar b_lo = breaks_b[std::size_t(k)], b_hi = breaks_b[std::size_t(k + 1)];
                    const Vec<Scalar, N> b0_lo = lerp(x0[2], x0[3], b_lo), b0_hi = lerp(x0[2], x0[3], b_hi);
                    const Vec<Scalar, N> b1_lo = lerp(x1[2], x1[3], b_lo), b1_hi = lerp(x1[2], x1[3], b_hi);
                    const std::array<Vec<Scalar, N>, 4> c0 { a0_lo - b0_lo, a0_lo - b0_hi,
                                                             a0_hi - b0_lo, a0_hi - b0_hi };
                    const std::array<Vec<Scalar, N>, 4> c1 { a1_lo - b1_lo, a1_lo - b1_hi,
                                                             a1_hi - b1_lo, a1_hi - b1_hi };
                    const Vec<Scalar, N> r = segment_segment_vector<Scalar>(
                        lerp(x[0], x[1], a_lo), lerp(x[0], x[1], a_hi), lerp(x[2], x[3], b_lo),
                        lerp(x[2], x[3], b_hi));
                    const Scalar length = r.norm();
                    if (!(length > 0)) {
                        return t;
                    }
                    end = std::min(end, certified_advance<Scalar, N, 4>(
                                            unit_direction<Scalar, N>(r, length), c0, c1, t,
                                            tmax, level, xi, margin));
                    if (!(end > t)) {
                        return t;
                    }
                }
            }
            return end;
        } else if constexpr (K == Kind::point_triangle) {
            // Adaptive midpoint subdivision of the triangle (in barycentric
            // coordinates): a piece is split while it limits the step, within a
            // fixed budget of pieces; every piece left is certified as is.
            (void)distance;
            using Bary = Eigen::Matrix<Scalar, 2, 1>; // weights of t1 and t2
            struct Piece {
                std::array<Bary, 3> corner;
                int depth;
            };
            auto at = [](const std::array<Vec<Scalar, N>, V>& y, const Bary& w) {
                return Vec<Scalar, N>(y[1] + w[0] * (y[2] - y[1]) + w[1] * (y[3] - y[1]));
            };
            constexpr int budget = 40, max_depth = 16;
            std::array<Piece, budget + 4> stack;
            int size = 0, evaluated = 0;
            const Bary m01(Scalar(0.5), 0), m12(Scalar(0.5), Scalar(0.5)), m02(0, Scalar(0.5));
            const Bary v0(0, 0), v1(1, 0), v2(0, 1);
            stack[std::size_t(size++)] = { { v0, m01, m02 }, 1 };
            stack[std::size_t(size++)] = { { m01, v1, m12 }, 1 };
            stack[std::size_t(size++)] = { { m02, m12, v2 }, 1 };
            stack[std::size_t(size++)] = { { m01, m12, m02 }, 1 };
            Scalar end = tmax;
            while (size > 0) {
                const Piece piece = stack[std::size_t(--size)];
                ++evaluated;
                std::array<Vec<Scalar, N>, 3> c0, c1, corner_now;
                for (std::size_t k = 0; k < 3; ++k) {
                    c0[k] = x0[0] - at(x0, piece.corner[k]);
                    c1[k] = x1[0] - at(x1, piece.corner[k]);
                    corner_now[k] = at(x, piece.corner[k]);
                }
                const Vec<Scalar, N> r
                    = point_triangle_vector<Scalar>(x[0], corner_now[0], corner_now[1], corner_now[2]);
                const Scalar length = r.norm();
                if (!(length > 0)) {
                    return t;
                }
                const Scalar piece_end = certified_advance<Scalar, N, 3>(
                    unit_direction<Scalar, N>(r, length), c0, c1, t, tmax, level, xi, margin);
                if (!(piece_end > t)) {
                    return t;
                }
                if (piece_end < end && piece.depth < max_depth && evaluated + size + 4 <= budget) {
                    const Bary a = piece.corner[0], b = piece.corner[1], c = piece.corner[2];
                    const Bary ab = Scalar(0.5) * (a + b), bc = Scalar(0.5) * (b + c),
                               ca = Scalar(0.5) * (c + a);
                    const int depth = piece.depth + 1;
                    stack[std::size_t(size++)] = { { a, ab, ca }, depth };
                    stack[std::size_t(size++)] = { { ab, b, bc }, depth };
                    stack[std::size_t(size++)] = { { ca, bc, c }, depth };
                    stack[std::size_t(size++)] = { { ab, bc, ca }, depth };
                } else {
                    end = std::min(end, piece_end);
                }
            }
            return end;
        } else {
            (void)x0, (void)x1, (void)x, (void)distance, (void)tmax, (void)level, (void)xi,
                (void)margin;
            return t;
        }
    }

    /// The ACCD engine for one stencil (see the file comment). x0 and x1 hold
    /// the first primitive's vertices then the second's, at t = 0 and t = 1.
    /// On invalid input returns invalid_input and sets *problem.
    template <Kind K, typename Scalar, int N, std::size_t V>
    CCDResult additive_ccd(
        std::array<Vec<Scalar, N>, V> x0, std::array<Vec<Scalar, N>, V> x1,
        const Settings<Scalar>& settings, const char** problem)
    {
        using std::abs;
        using std::ldexp;
        using std::sqrt;
        constexpr int KA = Shape<K>::a, KB = Shape<K>::b;
        static_assert(std::size_t(KA + KB) == V, "stencil size mismatch");
        constexpr int J = KA * KB;

        CCDResult result;
        auto invalid = [&](const char* what) {
            result.status = CCDStatus::invalid_input;
            result.toi = 0;
            result.iterations = 0;
            if (problem != nullptr) {
                *problem = what;
            }
            return result;
        };

        const double s = settings.conservative_rescaling;
        const Scalar tmax = settings.tmax;
        Scalar xi = settings.min_distance;
        if (!(s > 0 && s < 1)) {
            return invalid("conservative_rescaling must lie in (0, 1)");
        }
        if (!(settings.max_iterations > 0)) {
            return invalid("max_iterations must be positive");
        }
        if (!(tmax >= 0 && tmax <= 1)) {
            return invalid("tmax must lie in [0, 1]");
        }
        if (!(xi >= 0 && xi <= std::numeric_limits<Scalar>::max())) {
            return invalid("min_distance must be finite and non-negative");
        }

        // Largest coordinate magnitude; also rejects NaN and inf.
        Scalar scale = 0;
        for (std::size_t i = 0; i < V; ++i) {
            for (int k = 0; k < N; ++k) {
                const Scalar m0 = abs(x0[i][k]), m1 = abs(x1[i][k]);
                if (!(m0 <= std::numeric_limits<Scalar>::max())
                    || !(m1 <= std::numeric_limits<Scalar>::max())) {
                    return invalid("positions must be finite (NaN or infinite coordinate)");
                }
                scale = std::max(scale, std::max(m0, m1));
            }
        }
        result.toi = round_down_to_double(tmax);
        if (scale == 0) { // every vertex at the origin
            result.status = CCDStatus::initially_within_offset;
            result.toi = 0;
            return result;
        }
        // Bring far-out magnitudes near 1 by an exact power-of-two scaling so
        // that squared distances neither overflow nor underflow.
        constexpr int range = std::numeric_limits<Scalar>::max_exponent * 2 / 5;
        if (scale > ldexp(Scalar(1), range) || scale < ldexp(Scalar(1), -range)) {
            const int exponent = std::ilogb(scale);
            if (xi > Scalar(4) * scale) { // d(0) <= 2 sqrt(3) scale < xi
                result.status = CCDStatus::initially_within_offset;
                result.toi = 0;
                return result;
            }
            for (std::size_t i = 0; i < V; ++i) {
                for (int k = 0; k < N; ++k) {
                    x0[i][k] = ldexp(x0[i][k], -exponent);
                    x1[i][k] = ldexp(x1[i][k], -exponent);
                }
            }
            xi = ldexp(xi, -exponent);
            scale = ldexp(scale, -exponent);
        }
        // Bound on every rounding error in the certified affine bounds below:
        // 256 unit roundoffs of the coordinate magnitude (the analysis needs
        // about 50), plus a floor for subnormal products.
        const Scalar margin = Scalar(128) * std::numeric_limits<Scalar>::epsilon() * scale
            + Scalar(1024) * std::numeric_limits<Scalar>::min();

        // Vertex differences c_j = a - b at t = 0 and t = 1.
        std::array<Vec<Scalar, N>, J> c0, c1;
        Scalar rate = 0; // max_j |c_j(1) - c_j(0)|: bounds |d'(t)|
        for (int i = 0; i < KA; ++i) {
            for (int k = 0; k < KB; ++k) {
                c0[i * KB + k] = x0[i] - x0[KA + k];
                c1[i * KB + k] = x1[i] - x1[KA + k];
                rate = std::max(rate, (c1[i * KB + k] - c0[i * KB + k]).norm());
            }
        }

        std::array<Vec<Scalar, N>, V> displacement;
        for (std::size_t i = 0; i < V; ++i) {
            displacement[i] = x1[i] - x0[i];
        }

        Vec<Scalar, N> r = closest_vector<K, Scalar, N, V>(x0);
        Scalar distance = r.norm();
        if (!(distance > xi)) {
            result.status = CCDStatus::initially_within_offset;
            result.toi = 0;
            return result;
        }
        if (tmax == 0) { // only t = 0 is asked about, and it is clear
            result.status = CCDStatus::no_hit;
            result.toi = 0;
            return result;
        }
        const Scalar target_gap = Scalar(1 - s) * (distance - xi); // hit below xi + this
        // The sequence of certified times below never looks at tmax (only the
        // exit does), so the toi is a function of the motion alone: a query
        // with tmax < 1 reports the hit of the query with tmax = 1 when that
        // toi is below tmax, and no_hit otherwise.
        const long cap = iteration_bound(1.0, double(rate), double(distance - xi), s, settings.max_iterations);

        Scalar t = 0;
        std::array<Vec<Scalar, N>, V> x = x0;
        for (long iteration = 1;; ++iteration) {
            result.iterations = iteration;
            const Scalar level = xi + Scalar(1 - s) * (distance - xi);
            Scalar step_end = certified_advance<Scalar, N, J>(
                unit_direction<Scalar, N>(r, distance), c0, c1, t, Scalar(1), level, xi,
                margin);
            // Slow progress (a turning primitive?): try the split bound. It costs
            // about 9 (edge-edge) or 40 (point-triangle) plain steps, so the
            // triangle waits for a few slow steps first.
            constexpr long patience = K == Kind::point_triangle ? 3 : 1;
            constexpr double slow = K == Kind::point_triangle ? 0.1 : 0.25;
            if (iteration >= patience && step_end >= t
                && step_end - t < Scalar(slow) * (1 - t)) {
                step_end = std::max(
                    step_end,
                    windowed_advance<K, Scalar, N, V>(
                        x0, x1, x, distance, t, Scalar(1), level, xi, margin));
            }
            if (step_end >= 1) {
                result.status = CCDStatus::no_hit;
                result.toi = round_down_to_double(tmax);
                return result;
            }
            if (!(step_end > t)) {
                // The bound cannot move past t (the gap is at the level of
                // rounding error): stop conservatively at the certified t.
                result.status = CCDStatus::hit;
                result.toi = round_down_to_double(t);
                return result;
            }
            const Scalar previous = t;
            t = step_end; // [previous, t] is certified
            for (std::size_t i = 0; i < V; ++i) {
                x[i] = x0[i] + t * displacement[i];
            }
            r = closest_vector<K, Scalar, N, V>(x);
            distance = r.norm();
            if (!(distance - xi >= target_gap)) {
                result.status = CCDStatus::hit;
                result.toi = round_down_to_double(previous);
                return result;
            }
            if (t >= tmax) {
                result.status = CCDStatus::no_hit;
                result.toi = round_down_to_double(tmax);
                return result;
            }
            if (iteration >= cap) {
                result.status = CCDStatus::iteration_cap;
                result.toi = round_down_to_double(t);
                return result;
            }
        }
    }

} // namespace detail::accd

/// Additive CCD with offsets: a drop-in narrow-phase CCD (satisfies
/// ipc::is_ccd_method_v). Positions in metres (any consistent length unit),
/// times normalised to [0, 1] over the step.
///
/// Each query takes the stencil's positions at t = 0 then at t = 1, the pair's
/// minimum distance xi >= 0 (same unit as the positions) and tmax in [0, 1].
///  - `*_ccd_result` returns an ipc::CCDResult and never throws (invalid input
///    gives CCDStatus::invalid_input).
///  - `*_ccd` returns true when the primitives may come within min_distance
///    before tmax and sets toi (false: toi = tmax); it throws
///    ipc::invalid_argument on NaN/infinite coordinates or impossible
///    parameters.
/// All queries validate their input and are allocation-free.
class AdditiveCCD : public CCDQueries<AdditiveCCD> {
public:
    /// Name used in error messages.
    static constexpr const char* name = "AdditiveCCD";

    /// A query's toi does not depend on tmax (see the file comment): the
    /// collision-free step size may query with a bound below 1.
    static constexpr bool toi_independent_of_tmax = true;

    /// Conservative rescaling s of C-IPC (each step uses at most the fraction s
    /// of the current gap; a hit is reported below (1 - s) of the initial gap).
    static constexpr double default_conservative_rescaling = 0.9;
    /// Default upper limit on iterations per query (the per-query bound
    /// computed from the inputs is usually far smaller).
    static constexpr long default_max_iterations = 1'000'000;

    /// @param max_iterations upper limit on iterations of one query (> 0);
    ///        reaching it reports CCDStatus::iteration_cap with a safe toi.
    /// @param conservative_rescaling s in (0, 1).
    /// @throws ipc::invalid_argument when a parameter is out of range.
    explicit AdditiveCCD(
        long max_iterations = default_max_iterations,
        double conservative_rescaling = default_conservative_rescaling)
        : max_iterations_(max_iterations)
        , conservative_rescaling_(conservative_rescaling)
    {
        require(max_iterations > 0, "AdditiveCCD: max_iterations must be positive, got ",
                max_iterations);
        require(conservative_rescaling > 0 && conservative_rescaling < 1,
                "AdditiveCCD: conservative_rescaling must lie in (0, 1), got ",
                conservative_rescaling);
    }

    /// Upper limit on iterations per query.
    long max_iterations() const { return max_iterations_; }
    /// The conservative rescaling s.
    double conservative_rescaling() const { return conservative_rescaling_; }

    // The 3D queries (point-point, point-edge, point-triangle, edge-edge; the
    // *_ccd_result and drop-in *_ccd shapes) come from CCDQueries; the 2D
    // point-point and point-edge overloads follow.
    using CCDQueries<AdditiveCCD>::point_point_ccd_result;
    using CCDQueries<AdditiveCCD>::point_edge_ccd_result;
    using CCDQueries<AdditiveCCD>::point_point_ccd;
    using CCDQueries<AdditiveCCD>::point_edge_ccd;

    /// Point-point CCD (2D).
    CCDResult point_point_ccd_result(
        const Eigen::Vector2d& p0_t0, const Eigen::Vector2d& p1_t0, const Eigen::Vector2d& p0_t1,
        const Eigen::Vector2d& p1_t1, double min_distance = 0, double tmax = 1) const
    {
        return run<detail::accd::Kind::point_point, 2, 2>(
            { p0_t0, p1_t0 }, { p0_t1, p1_t1 }, min_distance, tmax, nullptr);
    }
    /// Point-edge CCD (2D): point p, edge (e0, e1).
    CCDResult point_edge_ccd_result(
        const Eigen::Vector2d& p_t0, const Eigen::Vector2d& e0_t0, const Eigen::Vector2d& e1_t0,
        const Eigen::Vector2d& p_t1, const Eigen::Vector2d& e0_t1, const Eigen::Vector2d& e1_t1,
        double min_distance = 0, double tmax = 1) const
    {
        return run<detail::accd::Kind::point_edge, 2, 3>(
            { p_t0, e0_t0, e1_t0 }, { p_t1, e0_t1, e1_t1 }, min_distance, tmax, nullptr);
    }

    /// Point-point CCD (2D), drop-in shape. @throws ipc::invalid_argument
    bool point_point_ccd(
        const Eigen::Vector2d& p0_t0, const Eigen::Vector2d& p1_t0, const Eigen::Vector2d& p0_t1,
        const Eigen::Vector2d& p1_t1, double& toi, double min_distance = 0, double tmax = 1) const
    {
        return checked<detail::accd::Kind::point_point, 2, 2>(
            "point_point_ccd", { p0_t0, p1_t0 }, { p0_t1, p1_t1 }, toi, min_distance, tmax);
    }
    /// Point-edge CCD (2D), drop-in shape. @throws ipc::invalid_argument
    bool point_edge_ccd(
        const Eigen::Vector2d& p_t0, const Eigen::Vector2d& e0_t0, const Eigen::Vector2d& e1_t0,
        const Eigen::Vector2d& p_t1, const Eigen::Vector2d& e0_t1, const Eigen::Vector2d& e1_t1,
        double& toi, double min_distance = 0, double tmax = 1) const
    {
        return checked<detail::accd::Kind::point_edge, 2, 3>(
            "point_edge_ccd", { p_t0, e0_t0, e1_t0 }, { p_t1, e0_t1, e1_t1 }, toi, min_distance,
            tmax);
    }

    /// Iteration bound this object would apply to a query whose initial gap is
    /// gap0 = d(0) - min_distance (> 0), whose vertex differences move at most
    /// `rate` (max over vertex pairs of |relative displacement|) and whose
    /// interval ends at tmax: min(max_iterations,
    /// 2 ceil(tmax rate / (s (1 - s) gap0)) + 16).
    long iteration_bound(double tmax, double rate, double gap0) const
    {
        return detail::accd::iteration_bound(
            tmax, rate, gap0, conservative_rescaling_, max_iterations_);
    }

private:
    friend class CCDQueries<AdditiveCCD>;

    template <CCDStencil S>
    static std::array<Eigen::Vector3d, ccd_stencil_vertices(S)> positions(
        const CCDStencilPoints<S>& points, int time)
    {
        std::array<Eigen::Vector3d, ccd_stencil_vertices(S)> x;
        for (int i = 0; i < ccd_stencil_vertices(S); ++i) {
            x[std::size_t(i)] = *points[std::size_t(i + time * ccd_stencil_vertices(S))];
        }
        return x;
    }

    template <CCDStencil S>
    CCDResult stencil_ccd(const CCDStencilPoints<S>& points, double min_distance, double tmax) const
    {
        return run<S, 3, std::size_t(ccd_stencil_vertices(S))>(
            positions<S>(points, 0), positions<S>(points, 1), min_distance, tmax, nullptr);
    }

    template <CCDStencil S>
    const char* input_problem(
        const CCDStencilPoints<S>& points, double min_distance, double tmax) const
    {
        const char* problem = nullptr;
        run<S, 3, std::size_t(ccd_stencil_vertices(S))>(
            positions<S>(points, 0), positions<S>(points, 1), min_distance, tmax, &problem);
        return problem;
    }

    template <detail::accd::Kind K, int N, std::size_t V>
    CCDResult run(
        const std::array<Eigen::Matrix<double, N, 1>, V>& x0,
        const std::array<Eigen::Matrix<double, N, 1>, V>& x1, double min_distance, double tmax,
        const char** problem) const
    {
        detail::accd::Settings<double> settings;
        settings.min_distance = min_distance;
        settings.tmax = tmax;
        settings.conservative_rescaling = conservative_rescaling_;
        settings.max_iterations = max_iterations_;
        return detail::accd::additive_ccd<K, double, N, V>(x0, x1, settings, problem);
    }

    template <detail::accd::Kind K, int N, std::size_t V>
    bool checked(
        const char* function, const std::array<Eigen::Matrix<double, N, 1>, V>& x0,
        const std::array<Eigen::Matrix<double, N, 1>, V>& x1, double& toi, double min_distance,
        double tmax) const
    {
        const char* problem = nullptr;
        const CCDResult result = run<K, N, V>(x0, x1, min_distance, tmax, &problem);
        if (result.status == CCDStatus::invalid_input) {
            throw_invalid_ccd_input(AdditiveCCD::name, function, problem, min_distance, tmax);
        }
        toi = result.toi;
        return result.collides();
    }

    long max_iterations_;
    double conservative_rescaling_;
};

/// Additive CCD for any IEEE floating-point scalar (float, double, long
/// double): the same method and guarantees as AdditiveCCD::*_ccd_result, with
/// rounding margins taken from std::numeric_limits<Scalar>. `options` supplies
/// max_iterations and the conservative rescaling. Positions at t = 0 then
/// t = 1; point-point and point-edge in 2D or 3D (N), point-triangle and
/// edge-edge in 3D. Never throws; invalid input gives invalid_input. The
/// reported toi is rounded down to double.
template <typename Scalar, int N>
CCDResult additive_point_point_ccd(
    const Eigen::Matrix<Scalar, N, 1>& p0_t0, const Eigen::Matrix<Scalar, N, 1>& p1_t0,
    const Eigen::Matrix<Scalar, N, 1>& p0_t1, const Eigen::Matrix<Scalar, N, 1>& p1_t1,
    Scalar min_distance = 0, Scalar tmax = 1, const AdditiveCCD& options = AdditiveCCD())
{
    static_assert(std::numeric_limits<Scalar>::is_iec559, "additive CCD needs an IEEE floating-point scalar");
    const detail::accd::Settings<Scalar> settings { min_distance, tmax, options.conservative_rescaling(),
                                                    options.max_iterations() };
    return detail::accd::additive_ccd<detail::accd::Kind::point_point, Scalar, N, 2>(
        { p0_t0, p1_t0 }, { p0_t1, p1_t1 }, settings, nullptr);
}

/// Point-edge additive CCD for any IEEE scalar (see additive_point_point_ccd).
template <typename Scalar, int N>
CCDResult additive_point_edge_ccd(
    const Eigen::Matrix<Scalar, N, 1>& p_t0, const Eigen::Matrix<Scalar, N, 1>& e0_t0,
    const Eigen::Matrix<Scalar, N, 1>& e1_t0, const Eigen::Matrix<Scalar, N, 1>& p_t1,
    const Eigen::Matrix<Scalar, N, 1>& e0_t1, const Eigen::Matrix<Scalar, N, 1>& e1_t1,
    Scalar min_distance = 0, Scalar tmax = 1, const AdditiveCCD& options = AdditiveCCD())
{
    static_assert(std::numeric_limits<Scalar>::is_iec559, "additive CCD needs an IEEE floating-point scalar");
    const detail::accd::Settings<Scalar> settings { min_distance, tmax, options.conservative_rescaling(),
                                                    options.max_iterations() };
    return detail::accd::additive_ccd<detail::accd::Kind::point_edge, Scalar, N, 3>(
        { p_t0, e0_t0, e1_t0 }, { p_t1, e0_t1, e1_t1 }, settings, nullptr);
}

/// Point-triangle additive CCD (3D) for any IEEE scalar (see
/// additive_point_point_ccd).
template <typename Scalar>
CCDResult additive_point_triangle_ccd(
    const Eigen::Matrix<Scalar, 3, 1>& p_t0, const Eigen::Matrix<Scalar, 3, 1>& t0_t0,
    const Eigen::Matrix<Scalar, 3, 1>& t1_t0, const Eigen::Matrix<Scalar, 3, 1>& t2_t0,
    const Eigen::Matrix<Scalar, 3, 1>& p_t1, const Eigen::Matrix<Scalar, 3, 1>& t0_t1,
    const Eigen::Matrix<Scalar, 3, 1>& t1_t1, const Eigen::Matrix<Scalar, 3, 1>& t2_t1,
    Scalar min_distance = 0, Scalar tmax = 1, const AdditiveCCD& options = AdditiveCCD())
{
    static_assert(std::numeric_limits<Scalar>::is_iec559, "additive CCD needs an IEEE floating-point scalar");
    const detail::accd::Settings<Scalar> settings { min_distance, tmax, options.conservative_rescaling(),
                                                    options.max_iterations() };
    return detail::accd::additive_ccd<detail::accd::Kind::point_triangle, Scalar, 3, 4>(
        { p_t0, t0_t0, t1_t0, t2_t0 }, { p_t1, t0_t1, t1_t1, t2_t1 }, settings, nullptr);
}

/// Edge-edge additive CCD (3D) for any IEEE scalar (see additive_point_point_ccd).
template <typename Scalar>
CCDResult additive_edge_edge_ccd(
    const Eigen::Matrix<Scalar, 3, 1>& ea0_t0, const Eigen::Matrix<Scalar, 3, 1>& ea1_t0,
    const Eigen::Matrix<Scalar, 3, 1>& eb0_t0, const Eigen::Matrix<Scalar, 3, 1>& eb1_t0,
    const Eigen::Matrix<Scalar, 3, 1>& ea0_t1, const Eigen::Matrix<Scalar, 3, 1>& ea1_t1,
    const Eigen::Matrix<Scalar, 3, 1>& eb0_t1, const Eigen::Matrix<Scalar, 3, 1>& eb1_t1,
    Scalar min_distance = 0, Scalar tmax = 1, const AdditiveCCD& options = AdditiveCCD())
{
    static_assert(std::numeric_limits<Scalar>::is_iec559, "additive CCD needs an IEEE floating-point scalar");
    const detail::accd::Settings<Scalar> settings { min_distance, tmax, options.conservative_rescaling(),
                                                    options.max_iterations() };
    return detail::accd::additive_ccd<detail::accd::Kind::edge_edge, Scalar, 3, 4>(
        { ea0_t0, ea1_t0, eb0_t0, eb1_t0 }, { ea0_t1, ea1_t1, eb0_t1, eb1_t1 }, settings, nullptr);
}

} // namespace ipc
