#pragma once
/// @file
/// RootFindingCCD: the plain floating-point root-finding CCD that the
/// original IPC used (through the collision-detection code of Vouga et al.),
/// written here as the reference for what such a method does and misses.
///
/// Method. Positions move linearly, x(t) = x_t0 + t (x_t1 - x_t0). Each query
/// collects candidate times in [0, tmax] as roots of small polynomials and
/// accepts the earliest candidate at which the actual distance between the
/// primitives is at most min_distance (+ a small tolerance):
///  - min_distance = 0:
///    point-triangle / edge-edge: roots of the coplanarity cubic
///      det(b - a, c - a, p - a) (resp. det(a1 - a0, b1 - b0, b0 - a0));
///      when the cubic vanishes identically (coplanar motion) the point-edge
///      sub-queries are used instead;
///    point-edge: roots of each component of (p - a) x (b - a) (quadratics),
///      or, when the motion is collinear, the point-point sub-queries;
///    point-point: the time each coordinate of p - q passes zero.
///  - min_distance = eta > 0: the times the distance to each feature's
///    supporting plane/line/point reaches eta, i.e. the roots of
///      (plane distance numerator)^2 - eta^2 |normal|^2   (degree 6),
///      |(p - a) x e|^2 - eta^2 |e|^2                     (degree 4),
///      |p - q|^2 - eta^2                                 (degree 2),
///    over the triangle's plane (or the two edges' common normal), its edges
///    and its vertices.
///  Polynomial roots are isolated through the roots of the derivatives and
///  refined by bisection, so degenerate (lower-degree or constant) cases need
///  no special formula.
///
/// Conservative wrapper. As in IPC, the reported time of impact is the
/// contact time scaled by `conservative_rescaling` (0.8 by default), so the
/// step stops short of the contact.
///
/// Failure modes (by nature of the method; see the tests for measured rates):
///  - tangential contacts at min_distance = 0 (the cubic touches zero without
///    changing sign, e.g. a point grazing the triangle's plane) are missed
///    unless rounding happens to produce a sign change;
///  - nearly coplanar motion that is not caught as "identically coplanar"
///    produces a cubic made of rounding noise: roots may be missed or spurious;
///  - the acceptance test uses a tolerance (zero_tolerance times the size of
///    the query), so near misses within it are reported as hits and a root
///    located slightly off can be rejected. The choice matters on degenerate
///    queries: on the 7279 handcrafted sample queries of the Wang et al. 2021
///    benchmark (435 contacts), the default 1e-9 gives no false negative and
///    364 false positives, while 0 gives 260 false negatives and 12 false
///    positives;
///  - contacts inside a time interval during which the primitives stay in
///    contact are reported at the first candidate only if one exists there.
///  Use InclusionCCD where no false negative is acceptable.
///
/// tmax = 0 and a start within min_distance mean what ipc::CCDStatus says
/// for every method (see ccd_result.hpp); here "within" is the Euclidean
/// distance at t = 0 being at most min_distance + zero_tolerance times the
/// query's size.
///
/// Every call validates its input: the bool shape throws ipc::invalid_argument
/// naming the problem; the _result shape returns CCDStatus::invalid_input and
/// never throws. No heap allocation; every call terminates (a fixed number of
/// polynomial evaluations).

#include <ipc/ccd/ccd_queries.hpp>
#include <ipc/ccd/ccd_result.hpp>
#include <ipc/ccd/root_finding_polynomial.hpp>
#include <ipc/core/error.hpp>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace ipc {

namespace detail::root_finding {

    inline double squared(double x) { return x * x; }

    /// A vector of three polynomials in t.
    using PolynomialVector = std::array<Polynomial, 3>;

    inline PolynomialVector operator-(const PolynomialVector& a, const PolynomialVector& b)
    {
        return { { a[0] - b[0], a[1] - b[1], a[2] - b[2] } };
    }

    inline PolynomialVector cross(const PolynomialVector& a, const PolynomialVector& b)
    {
        return { { a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                   a[0] * b[1] - a[1] * b[0] } };
    }

    inline Polynomial dot(const PolynomialVector& a, const PolynomialVector& b)
    {
        return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    }

    /// The query's points, translated and scaled by a power of two so that the
    /// largest coordinate is about 1.
    template <int NumPoints> struct Trajectories {
        std::array<Eigen::Vector3d, NumPoints> start;
        std::array<Eigen::Vector3d, NumPoints> displacement;
        double min_distance = 0;
        /// Absolute distance tolerance in the scaled coordinates.
        double distance_tolerance = 0;

        Eigen::Vector3d at(int i, double t) const { return start[i] + t * displacement[i]; }

        PolynomialVector trajectory(int i) const
        {
            return { { linear(start[i][0], displacement[i][0]),
                       linear(start[i][1], displacement[i][1]),
                       linear(start[i][2], displacement[i][2]) } };
        }
    };

    template <int NumPoints>
    Trajectories<NumPoints> normalize(
        const std::array<const Eigen::Vector3d*, 2 * NumPoints>& points,
        double min_distance,
        double zero_tolerance)
    {
        const Eigen::Vector3d origin = *points[0];
        double largest = min_distance;
        for (const Eigen::Vector3d* p : points) {
            largest = std::max(largest, (*p - origin).cwiseAbs().maxCoeff());
        }
        double scale = 1;
        if (largest > 0) {
            int exponent = 0;
            std::frexp(largest, &exponent);
            scale = std::ldexp(1.0, -exponent);
        }
        Trajectories<NumPoints> q;
        for (int i = 0; i < NumPoints; ++i) {
            q.start[i] = scale * (*points[i] - origin);
            q.displacement[i] = scale * (*points[NumPoints + i] - origin) - q.start[i];
        }
        q.min_distance = scale * min_distance;
        q.distance_tolerance = zero_tolerance;
        return q;
    }

    // ---- distances at a fixed time (squared) ------------------------------

    inline double point_segment_distance_squared(
        const Eigen::Vector3d& p, const Eigen::Vector3d& a, const Eigen::Vector3d& b)
    {
        const Eigen::Vector3d e = b - a;
        const double length_squared = e.squaredNorm();
        double s = length_squared > 0 ? (p - a).dot(e) / length_squared : 0;
        s = std::clamp(s, 0.0, 1.0);
        return (p - (a + s * e)).squaredNorm();
    }

    inline double point_triangle_distance_squared(
        const Eigen::Vector3d& p,
        const Eigen::Vector3d& a,
        const Eigen::Vector3d& b,
        const Eigen::Vector3d& c)
    {
        const Eigen::Vector3d ab = b - a, ac = c - a, ap = p - a;
        const Eigen::Vector3d n = ab.cross(ac);
        const double n2 = n.squaredNorm();
        const double scale = std::max(ab.squaredNorm(), ac.squaredNorm());
        if (n2 > 1e-24 * scale * scale) {
            // Barycentric coordinates of the projection of p on the plane.
            const double v = ap.cross(ac).dot(n) / n2;
            const double w = ab.cross(ap).dot(n) / n2;
            if (v >= 0 && w >= 0 && v + w <= 1) {
                const double h = ap.dot(n);
                return h * h / n2;
            }
        }
        return std::min(
            { point_segment_distance_squared(p, a, b), point_segment_distance_squared(p, b, c),
              point_segment_distance_squared(p, c, a) });
    }

    inline double segment_segment_distance_squared(
        const Eigen::Vector3d& a0,
        const Eigen::Vector3d& a1,
        const Eigen::Vector3d& b0,
        const Eigen::Vector3d& b1)
    {
        const Eigen::Vector3d ea = a1 - a0, eb = b1 - b0, r = b0 - a0;
        const double aa = ea.squaredNorm(), bb = eb.squaredNorm(), ab = ea.dot(eb);
        const double denominator = aa * bb - ab * ab;
        if (denominator > 1e-24 * aa * bb) {
            // Closest points of the two lines; if they lie on both segments
            // they are the answer, otherwise the minimum is on the boundary.
            const double s = (r.dot(ea) * bb - r.dot(eb) * ab) / denominator;
            const double u = (r.dot(ea) * ab - r.dot(eb) * aa) / denominator;
            if (s >= 0 && s <= 1 && u >= 0 && u <= 1) {
                return (a0 + s * ea - (b0 + u * eb)).squaredNorm();
            }
        }
        return std::min(
            { point_segment_distance_squared(a0, b0, b1), point_segment_distance_squared(a1, b0, b1),
              point_segment_distance_squared(b0, a0, a1),
              point_segment_distance_squared(b1, a0, a1) });
    }

    // ---- candidate times ---------------------------------------------------

    /// A short list of candidate times (fixed capacity, no allocation).
    struct Candidates {
        std::array<double, 96> times {};
        int count = 0;
        void add(double t)
        {
            if (count < int(times.size())) {
                times[count++] = t;
            }
        }
        void add_roots(const Polynomial& p, double tmax)
        {
            std::array<double, 6> roots {};
            const int n = roots_in_interval(p, 0, tmax, roots.data());
            for (int i = 0; i < n; ++i) {
                add(roots[i]);
            }
        }
        void sort() { std::sort(times.begin(), times.begin() + count); }
    };

    /// Threshold below which a polynomial built from O(1) coordinates counts
    /// as identically zero (pure rounding noise).
    inline bool is_numerically_zero(const Polynomial& p)
    {
        return largest_coefficient(p) <= 64 * std::numeric_limits<double>::epsilon();
    }

    inline void point_point_candidates(
        const PolynomialVector& p, const PolynomialVector& q, double eta, double tmax,
        Candidates& out)
    {
        const PolynomialVector d = p - q;
        if (eta > 0) {
            out.add_roots(dot(d, d) - linear(eta * eta, 0), tmax);
            return;
        }
        for (int k = 0; k < 3; ++k) {
            out.add_roots(d[k], tmax);
        }
    }

    inline void point_edge_candidates(
        const PolynomialVector& p, const PolynomialVector& a, const PolynomialVector& b,
        double eta, double tmax, Candidates& out)
    {
        const PolynomialVector e = b - a;
        const PolynomialVector c = cross(p - a, e);
        if (eta > 0) {
            out.add_roots(dot(c, c) - (eta * eta) * dot(e, e), tmax);
        } else {
            bool collinear = true;
            for (int k = 0; k < 3; ++k) {
                if (!is_numerically_zero(c[k])) {
                    collinear = false;
                    out.add_roots(c[k], tmax);
                }
            }
            if (!collinear) {
                return;
            }
        }
        point_point_candidates(p, a, eta, tmax, out);
        point_point_candidates(p, b, eta, tmax, out);
    }

    inline void point_triangle_candidates(
        const PolynomialVector& p, const PolynomialVector& a, const PolynomialVector& b,
        const PolynomialVector& c, double eta, double tmax, Candidates& out)
    {
        const PolynomialVector n = cross(b - a, c - a);
        const Polynomial h = dot(p - a, n);
        if (eta > 0) {
            out.add_roots(h * h - (eta * eta) * dot(n, n), tmax);
        } else if (!is_numerically_zero(h)) {
            out.add_roots(h, tmax);
            return;
        }
        point_edge_candidates(p, a, b, eta, tmax, out);
        point_edge_candidates(p, b, c, eta, tmax, out);
        point_edge_candidates(p, c, a, eta, tmax, out);
    }

    inline void edge_edge_candidates(
        const PolynomialVector& a0, const PolynomialVector& a1, const PolynomialVector& b0,
        const PolynomialVector& b1, double eta, double tmax, Candidates& out)
    {
        const PolynomialVector n = cross(a1 - a0, b1 - b0);
        const Polynomial h = dot(b0 - a0, n);
        if (eta > 0) {
            out.add_roots(h * h - (eta * eta) * dot(n, n), tmax);
        } else if (!is_numerically_zero(h)) {
            out.add_roots(h, tmax);
            return;
        }
        point_edge_candidates(a0, b0, b1, eta, tmax, out);
        point_edge_candidates(a1, b0, b1, eta, tmax, out);
        point_edge_candidates(b0, a0, a1, eta, tmax, out);
        point_edge_candidates(b1, a0, a1, eta, tmax, out);
    }

    // ---- the query --------------------------------------------------------

    using Kind = CCDStencil;

    template <Kind K>
    double distance_squared_at(const Trajectories<ccd_stencil_vertices(K)>& q, double t)
    {
        if constexpr (K == Kind::point_point) {
            return (q.at(0, t) - q.at(1, t)).squaredNorm();
        } else if constexpr (K == Kind::point_edge) {
            return point_segment_distance_squared(q.at(0, t), q.at(1, t), q.at(2, t));
        } else if constexpr (K == Kind::point_triangle) {
            return point_triangle_distance_squared(q.at(0, t), q.at(1, t), q.at(2, t), q.at(3, t));
        } else {
            return segment_segment_distance_squared(q.at(0, t), q.at(1, t), q.at(2, t), q.at(3, t));
        }
    }

    /// Null when the input is valid, otherwise a description of the problem.
    template <int NumPoints>
    const char* input_problem(
        const std::array<const Eigen::Vector3d*, 2 * NumPoints>& points,
        double min_distance,
        double tmax,
        double conservative_rescaling,
        double zero_tolerance)
    {
        for (const Eigen::Vector3d* p : points) {
            if (!p->allFinite()) {
                return "a position is NaN or infinite";
            }
        }
        if (!(tmax >= 0 && tmax <= 1)) {
            return "tmax is outside [0, 1]";
        }
        if (!(min_distance >= 0) || !std::isfinite(min_distance)) {
            return "min_distance must be finite and non-negative";
        }
        if (!(conservative_rescaling > 0 && conservative_rescaling <= 1)) {
            return "conservative_rescaling is outside (0, 1]";
        }
        if (!(zero_tolerance >= 0) || !std::isfinite(zero_tolerance)) {
            return "zero_tolerance must be finite and non-negative";
        }
        return nullptr;
    }

    template <Kind K>
    CCDResult query(
        const std::array<const Eigen::Vector3d*, 2 * ccd_stencil_vertices(K)>& points,
        double min_distance,
        double tmax,
        double conservative_rescaling,
        double zero_tolerance)
    {
        constexpr int n = ccd_stencil_vertices(K);
        CCDResult result;
        if (input_problem<n>(points, min_distance, tmax, conservative_rescaling, zero_tolerance)) {
            result.status = CCDStatus::invalid_input;
            result.toi = 0;
            return result;
        }
        const Trajectories<n> q = normalize<n>(points, min_distance, zero_tolerance);
        const double eta = q.min_distance;
        const double accept = squared(eta + q.distance_tolerance);

        // Initial contact.
        result.iterations = 1;
        if (distance_squared_at<K>(q, 0) <= accept) {
            result.status = CCDStatus::initially_within_offset;
            result.toi = 0;
            return result;
        }
        if (tmax == 0) { // only t = 0 is asked about, and it is clear
            result.status = CCDStatus::no_hit;
            result.toi = 0;
            return result;
        }

        std::array<PolynomialVector, n> x;
        for (int i = 0; i < n; ++i) {
            x[i] = q.trajectory(i);
        }
        Candidates candidates;
        if constexpr (K == Kind::point_point) {
            point_point_candidates(x[0], x[1], eta, tmax, candidates);
        } else if constexpr (K == Kind::point_edge) {
            point_edge_candidates(x[0], x[1], x[2], eta, tmax, candidates);
        } else if constexpr (K == Kind::point_triangle) {
            point_triangle_candidates(x[0], x[1], x[2], x[3], eta, tmax, candidates);
        } else {
            edge_edge_candidates(x[0], x[1], x[2], x[3], eta, tmax, candidates);
        }
        candidates.sort();
        for (int i = 0; i < candidates.count; ++i) {
            ++result.iterations;
            const double t = candidates.times[i];
            if (distance_squared_at<K>(q, t) <= accept) {
                result.status = CCDStatus::hit;
                result.toi = conservative_rescaling * t;
                return result;
            }
        }
        result.status = CCDStatus::no_hit;
        result.toi = tmax;
        return result;
    }

} // namespace detail::root_finding

/// Floating-point root-finding CCD with IPC's conservative rescaling (see the
/// file comment for the method and its failure modes). Positions in the
/// caller's length unit; times are fractions of the step in [0, tmax];
/// min_distance is a Euclidean distance.
class RootFindingCCD : public CCDQueries<RootFindingCCD> {
public:
    /// Name used in error messages.
    static constexpr const char* name = "RootFindingCCD";

    /// The reported toi is this fraction of the computed contact time
    /// (IPC's slackness). In (0, 1]; 1 reports the contact time itself.
    double conservative_rescaling = 0.8;
    /// A candidate time is accepted when the distance there is at most
    /// min_distance + zero_tolerance * (size of the query, i.e. its largest
    /// coordinate difference). Non-negative.
    double zero_tolerance = 1e-9;

    RootFindingCCD() = default;
    /// @param rescaling see conservative_rescaling; @param tolerance see zero_tolerance.
    explicit RootFindingCCD(double rescaling, double tolerance = 1e-9)
        : conservative_rescaling(rescaling), zero_tolerance(tolerance)
    {
    }

private:
    friend class CCDQueries<RootFindingCCD>;

    template <CCDStencil S>
    CCDResult stencil_ccd(const CCDStencilPoints<S>& points, double min_distance, double tmax) const
    {
        return detail::root_finding::query<S>(
            points, min_distance, tmax, conservative_rescaling, zero_tolerance);
    }

    template <CCDStencil S>
    const char* input_problem(
        const CCDStencilPoints<S>& points, double min_distance, double tmax) const
    {
        return detail::root_finding::input_problem<ccd_stencil_vertices(S)>(
            points, min_distance, tmax, conservative_rescaling, zero_tolerance);
    }
};

} // namespace ipc
