#pragma once
/// @file
/// InclusionCCD: a conservative interval-inclusion continuous collision
/// detection in the spirit of Tight Inclusion (Wang et al. 2021).
///
/// Each query is written as a difference function F over a parameter box:
///   point-point     F(t)       = p(t) - q(t)
///   point-edge      F(t, u)    = p(t) - (a(t) + u (b(t) - a(t)))
///   point-triangle  F(t, u, v) = p(t) - (a(t) + u (b(t) - a(t)) + v (c(t) - a(t)))
///   edge-edge       F(t, u, v) = (a0(t) + u (a1(t) - a0(t))) - (b0(t) + v (b1(t) - b0(t)))
/// with x(t) = x_t0 + t (x_t1 - x_t0), t in [0, tmax], u, v in [0, 1] (and
/// u + v <= 1 for the triangle). Every component of F is affine in each
/// parameter separately (multilinear), so its exact range over a box is
/// spanned by its values at the box corners. The corners are evaluated in
/// double precision and widened by a proven bound on the rounding error, so a
/// box whose widened range excludes zero in some coordinate (by more than the
/// minimum distance) cannot contain a contact and is discarded. The other
/// boxes are halved along the dimension whose extent in F is largest (the
/// parameter width times a bound on |dF/dparameter|), so the resolution stays
/// balanced between t, u and v. Open boxes are kept ordered by their t lower
/// bound (finer box first among equals), so the box examined is always the
/// earliest one that may still hold a contact; the search stops, returning
/// that box's t lower bound as the time of impact, when
///  - the box passes and is settled: its t-width is at most `tolerance` (and
///    its (u, v) extent is as fine), its whole range lies within
///    min_distance, or its range is as narrow as the rounding bound allows;
///  - or a box corner already examined is a certified near contact (|F| at
///    most min_distance + tolerance * rate in every coordinate) at a time
///    within `tolerance` of the box's t lower bound.
/// Boxes reaching past a certified near contact are split in t first: their
/// later part is settled by it anyway. (This, and the earliest-first order
/// instead of a level-by-level one, keep degenerate contacts such as parallel
/// edges or a face meeting a flat min_distance slab from multiplying boxes.)
///
/// tmax = 0 and a start within min_distance mean what ipc::CCDStatus says
/// for every method (see ccd_result.hpp); here "within" is the t = 0 check of
/// the subdivision: within min_distance in the infinity norm, up to the
/// settling width (tolerance times the stencil's size, or the rounding
/// bound).
///
/// Guarantees: no false negatives (a query reported as no_hit has no contact
/// in [0, tmax], rounding included); the returned toi never exceeds the first
/// time of contact. A reported hit can be spurious only when the primitives
/// come within about min_distance + tolerance * (their size and speed) in the
/// infinity norm, or when the iteration cap stops the search (status
/// iteration_cap; typical of degenerate configurations such as edges sliding
/// along each other in contact).

#include <ipc/ccd/ccd_queries.hpp>
#include <ipc/ccd/ccd_result.hpp>
#include <ipc/core/error.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace ipc {

namespace detail::inclusion {

    /// An axis-aligned box of the parameter domain (t, u, v).
    struct ParameterBox {
        double t_min, t_max, u_min, u_max, v_min, v_max;
        int level; ///< number of halvings that produced the box
    };

    /// Which difference function a query uses (number of points, parameters).
    using StencilKind = CCDStencil;

    /// The points of a stencil at t0 and their displacements over the step,
    /// possibly scaled by an exact power of two (see prepare()).
    template <int NumPoints> struct Stencil {
        std::array<std::array<double, 3>, NumPoints> start;
        std::array<std::array<double, 3>, NumPoints> displacement;
        double min_distance;
    };

    /// Null when the input is valid, otherwise a description of the first
    /// problem found.
    template <int NumPoints>
    const char* input_problem(
        const std::array<const Eigen::Vector3d*, 2 * NumPoints>& points,
        double min_distance,
        double tmax,
        double tolerance,
        long max_iterations)
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
        if (!(tolerance > 0) || !std::isfinite(tolerance)) {
            return "tolerance must be finite and positive";
        }
        if (max_iterations <= 0) {
            return "max_iterations must be positive";
        }
        return nullptr;
    }

    /// Copies the points (t0 then t1) into a stencil. Coordinates of huge
    /// magnitude are scaled by an exact power of two so that no intermediate
    /// of the corner evaluation can overflow; scaling changes nothing else
    /// (the test "F = 0 within min_distance" is scale invariant).
    template <int NumPoints>
    Stencil<NumPoints> prepare(
        const std::array<const Eigen::Vector3d*, 2 * NumPoints>& points, double min_distance)
    {
        double largest = min_distance;
        for (const Eigen::Vector3d* p : points) {
            largest = std::max(largest, p->cwiseAbs().maxCoeff());
        }
        // Intermediates stay below 8 * largest; keep that far from overflow.
        double scale = 1;
        if (largest > 0x1p1000) {
            int exponent = 0;
            std::frexp(largest, &exponent);
            scale = std::ldexp(1.0, -exponent);
        }
        Stencil<NumPoints> stencil {};
        for (int i = 0; i < NumPoints; ++i) {
            for (int k = 0; k < 3; ++k) {
                const double x0 = scale * (*points[i])[k];
                const double x1 = scale * (*points[NumPoints + i])[k];
                stencil.start[i][k] = x0;
                stencil.displacement[i][k] = x1 - x0;
            }
        }
        stencil.min_distance = scale * min_distance;
        return stencil;
    }

    /// Number of barycentric parameters (u, v) of a stencil kind.
    constexpr int num_barycentric(StencilKind kind)
    {
        return kind == StencilKind::point_point ? 0 : kind == StencilKind::point_edge ? 1 : 2;
    }

    /// One component of F at barycentric (u, v) from the points at some t.
    template <StencilKind Kind>
    inline double difference(const double* x, double u, double v)
    {
        if constexpr (Kind == StencilKind::point_point) {
            return x[0] - x[1];
        } else if constexpr (Kind == StencilKind::point_edge) {
            return (x[0] - x[1]) - u * (x[2] - x[1]);
        } else if constexpr (Kind == StencilKind::point_triangle) {
            return ((x[0] - x[1]) - u * (x[2] - x[1])) - v * (x[3] - x[1]);
        } else {
            return (x[0] + u * (x[1] - x[0])) - (x[2] + v * (x[3] - x[2]));
        }
    }

    /// Result of the inclusion test of one box.
    struct Inclusion {
        bool may_contain_contact;
        /// Every point of the box is within the inflation of zero (so the
        /// whole box is in contact, up to rounding).
        bool inside;
        double width; ///< largest widened extent of the range over x, y, z
        /// Earliest corner time at which |F| <= `near` in every coordinate
        /// (a certified near contact); infinity when none.
        double near_contact_time;
    };

    /// Evaluates the corners of the box and tests whether the widened range of
    /// every component of F reaches within `inflation[k]` of zero. When it
    /// does, also reports the earliest corner whose value is within near[k]
    /// in every coordinate k.
    template <StencilKind Kind>
    Inclusion include(
        const Stencil<ccd_stencil_vertices(Kind)>& stencil,
        const ParameterBox& box,
        const std::array<double, 3>& rounding,
        const std::array<double, 3>& inflation,
        const std::array<double, 3>& near)
    {
        constexpr int n = ccd_stencil_vertices(Kind);
        constexpr int nb = num_barycentric(Kind);
        constexpr int nu = nb >= 1 ? 2 : 1;
        constexpr int nv = nb >= 2 ? 2 : 1;
        constexpr int num_corners = 2 * nu * nv;
        const std::array<double, 2> ts { { box.t_min, box.t_max } };
        const std::array<double, 2> us { { box.u_min, box.u_max } };
        const std::array<double, 2> vs { { box.v_min, box.v_max } };
        Inclusion result { true, true, 0, std::numeric_limits<double>::infinity() };
        double values[3][num_corners];
        for (int k = 0; k < 3; ++k) {
            double low = std::numeric_limits<double>::infinity();
            double high = -low;
            for (int it = 0; it < 2; ++it) {
                double x[n];
                for (int i = 0; i < n; ++i) {
                    x[i] = stencil.start[i][k] + ts[it] * stencil.displacement[i][k];
                }
                for (int iu = 0; iu < nu; ++iu) {
                    for (int iv = 0; iv < nv; ++iv) {
                        const double f = difference<Kind>(x, us[iu], vs[iv]);
                        values[k][(it * nu + iu) * nv + iv] = f;
                        low = std::min(low, f);
                        high = std::max(high, f);
                    }
                }
            }
            low -= rounding[k];
            high += rounding[k];
            if (low > inflation[k] || high < -inflation[k]) {
                result.may_contain_contact = false;
                result.inside = false;
                return result;
            }
            result.width = std::max(result.width, high - low);
            result.inside = result.inside && low >= -inflation[k] && high <= inflation[k];
        }
        for (int it = 0; it < 2 && result.near_contact_time == std::numeric_limits<double>::infinity(); ++it) {
            for (int iu = 0; iu < nu; ++iu) {
                for (int iv = 0; iv < nv; ++iv) {
                    if (Kind == StencilKind::point_triangle && us[iu] + vs[iv] > 1) {
                        continue;
                    }
                    const int corner = (it * nu + iu) * nv + iv;
                    if (std::abs(values[0][corner]) <= near[0]
                        && std::abs(values[1][corner]) <= near[1]
                        && std::abs(values[2][corner]) <= near[2]) {
                        result.near_contact_time = ts[it];
                    }
                }
            }
        }
        return result;
    }

    /// Work list reused by the calls of one thread (so that a query does not
    /// allocate once the list has grown to the size it needs).
    inline std::vector<ParameterBox>& work_list()
    {
        thread_local std::vector<ParameterBox> list;
        return list;
    }

    /// Runs the subdivision of [0, tmax] x [0, 1]^nb. When
    /// `time_fixed` is true, t stays at 0 and the search only asks whether
    /// the stencil is within min_distance at t = 0 (a box is then settled by
    /// the width of its range alone).
    template <StencilKind Kind>
    CCDResult subdivide(
        const Stencil<ccd_stencil_vertices(Kind)>& stencil,
        double tmax,
        double tolerance,
        long max_iterations,
        bool time_fixed)
    {
        constexpr int n = ccd_stencil_vertices(Kind);
        constexpr int nb = num_barycentric(Kind);
        constexpr double unit_roundoff = std::numeric_limits<double>::epsilon() / 2;

        // Rounding bound per coordinate. A corner value takes at most nine
        // roundings (displacements, interpolation in t, differences, products
        // with u and v), on intermediates bounded by 6m (m = largest magnitude
        // of a start or end coordinate of that axis); a first-order analysis
        // bounds its error by 50 m u (u = unit roundoff), and the rounding of
        // the widened ends by 6 m u more. We use 128 m u, plus an absolute 2^-1000
        // that covers products which underflow (each off by at most 2^-1075)
        // and keeps the bound itself a normal number (subnormal arithmetic
        // is slow).
        std::array<double, 3> rounding {};
        std::array<double, 3> inflation {};
        for (int k = 0; k < 3; ++k) {
            double m = 0;
            for (int i = 0; i < n; ++i) {
                m = std::max(m, std::abs(stencil.start[i][k]));
                m = std::max(m, std::abs(stencil.start[i][k] + stencil.displacement[i][k]));
            }
            rounding[k] = 128 * unit_roundoff * m + 0x1p-1000;
            inflation[k] = stencil.min_distance;
        }

        // Rates of change of F along t, u and v (infinity norm), used to
        // split each box along the dimension whose extent in F is largest.
        // rates[k][d]: bound on |dF_k / d(t, u, v)[d]| over the domain.
        std::array<std::array<double, 3>, 3> rates {};
        double rate_t = 0, rate_u = 0, rate_v = 0;
        for (int k = 0; k < 3; ++k) {
            const auto& d = stencil.displacement;
            std::array<double, 2> end_u {}, end_v {};
            for (int it = 0; it < 2; ++it) {
                double x[n];
                for (int i = 0; i < n; ++i) {
                    x[i] = stencil.start[i][k] + it * d[i][k];
                }
                if constexpr (Kind == StencilKind::point_edge || Kind == StencilKind::point_triangle) {
                    end_u[it] = std::abs(x[2] - x[1]);
                    if constexpr (Kind == StencilKind::point_triangle) {
                        end_v[it] = std::abs(x[3] - x[1]);
                    }
                } else if constexpr (Kind == StencilKind::edge_edge) {
                    end_u[it] = std::abs(x[1] - x[0]);
                    end_v[it] = std::abs(x[3] - x[2]);
                }
            }
            rates[k][1] = std::max(end_u[0], end_u[1]);
            rates[k][2] = std::max(end_v[0], end_v[1]);
            double velocity[n];
            for (int i = 0; i < n; ++i) {
                velocity[i] = d[i][k];
            }
            for (int iu = 0; iu < 2; ++iu) {
                for (int iv = 0; iv < 2; ++iv) {
                    rates[k][0] = std::max(rates[k][0], std::abs(difference<Kind>(velocity, iu, iv)));
                }
            }
            if (time_fixed) {
                rates[k][0] = 0;
            }
            rate_t = std::max(rate_t, rates[k][0]);
            rate_u = std::max(rate_u, rates[k][1]);
            rate_v = std::max(rate_v, rates[k][2]);
        }
        const double rate_max = std::max({ rate_t, rate_u, rate_v });
        // A box whose range is this narrow is settled even before its t-width
        // reaches the tolerance: when F barely depends on t, or when the range
        // is as narrow as the rounding bound lets it be.
        const double settled_width = std::max(
            tolerance * rate_max, 4 * std::max({ rounding[0], rounding[1], rounding[2] }));

        // A corner with |F_k| <= near[k] (k = x, y, z) is a certified near
        // contact: within min_distance + settled_width of one (rounding
        // included, since settled_width >= 4 * rounding).
        std::array<double, 3> near {};
        for (int k = 0; k < 3; ++k) {
            near[k] = inflation[k] + settled_width;
        }

        // Open boxes in a binary heap, earliest t_min first; among equal
        // t_min, the finer box first (so the search dives towards the first
        // contact instead of refining a whole time slab at once).
        const auto later = [](const ParameterBox& x, const ParameterBox& y) {
            return x.t_min > y.t_min || (x.t_min == y.t_min && x.level < y.level);
        };
        std::vector<ParameterBox>& open = work_list();
        open.clear();
        open.push_back({ 0, time_fixed ? 0 : tmax, 0, nb >= 1 ? 1 : 0, 0, nb >= 2 ? 1 : 0, 0 });

        CCDResult result;
        result.status = CCDStatus::no_hit;
        result.toi = tmax;
        long iterations = 0;
        // Earliest certified near contact found so far.
        double contact_bound = std::numeric_limits<double>::infinity();

        // Halves a box: along t when it reaches past a certified near contact
        // (its later half is settled by that contact anyway; refining it in
        // (u, v) along a contact set of positive extent, e.g. a face meeting a
        // flat min_distance slab, would multiply boxes), otherwise along the
        // dimension with the largest extent in F. Also says whether the box is
        // settled (fine enough to stop).
        struct Split {
            ParameterBox low, high;
            bool settled;
        };
        const auto split = [&](const ParameterBox& box, const Inclusion& inclusion, bool probing) {
            Split result_split { box, box, false };
            const double width_t = box.t_max - box.t_min;
            const bool t_fine = time_fixed || width_t <= tolerance;
            const double extent_t = t_fine ? 0 : width_t * rate_t;
            const double extent_u = (box.u_max - box.u_min) * rate_u;
            const double extent_v = (box.v_max - box.v_min) * rate_v;
            const bool uv_fine = std::max(extent_u, extent_v)
                <= 2 * (time_fixed ? 0 : width_t * rate_t) + settled_width;
            if (probing ? std::max({ extent_t, extent_u, extent_v }) <= 0
                        : (t_fine && uv_fine) || inclusion.inside
                            || inclusion.width <= settled_width) {
                result_split.settled = true;
                return result_split;
            }
            ParameterBox& low = result_split.low;
            ParameterBox& high = result_split.high;
            low.level = high.level = box.level + 1;
            if (!t_fine
                && (box.t_max >= contact_bound || (extent_t >= extent_u && extent_t >= extent_v))) {
                const double mid = box.t_min + 0.5 * width_t;
                low.t_max = mid;
                high.t_min = mid;
            } else if (extent_u >= extent_v) {
                const double mid = 0.5 * (box.u_min + box.u_max);
                low.u_max = mid;
                high.u_min = mid;
            } else {
                const double mid = 0.5 * (box.v_min + box.v_max);
                low.v_max = mid;
                high.v_min = mid;
            }
            return result_split;
        };

        // A probe dives from a box to the earliest passing child, level after
        // level, looking for a certified near contact (which then bounds the
        // search). Run at iterations 256, 512, 1024, ... while none is known:
        // it costs a few hundred boxes and spares hard queries (e.g. parallel
        // edges, whose contact set is a whole segment) most of their work.
        long next_probe = 256;
        const auto probe = [&](ParameterBox box, Inclusion inclusion) {
            for (int depth = 0; depth < 200 && contact_bound > tmax; ++depth) {
                const Split halves = split(box, inclusion, true);
                if (halves.settled) {
                    return; // nothing left to split
                }
                bool found = false;
                for (const ParameterBox& child : { halves.low, halves.high }) {
                    if (found || iterations >= max_iterations
                        || (Kind == StencilKind::point_triangle
                            && child.u_min + child.v_min > 1)) {
                        continue;
                    }
                    ++iterations;
                    const Inclusion child_inclusion
                        = include<Kind>(stencil, child, rounding, inflation, near);
                    if (child_inclusion.may_contain_contact) {
                        contact_bound = std::min(contact_bound, child_inclusion.near_contact_time);
                        box = child;
                        inclusion = child_inclusion;
                        found = true;
                    }
                }
                if (!found) {
                    return;
                }
            }
        };

        while (!open.empty()) {
            std::pop_heap(open.begin(), open.end(), later);
            const ParameterBox box = open.back();
            open.pop_back();
            // Every contact lies in an open box, and this one starts earliest.
            if (box.t_min >= contact_bound - tolerance) {
                // A near contact is certified within `tolerance` after t_min.
                result.status = CCDStatus::hit;
                result.toi = box.t_min;
                break;
            }
            if (Kind == StencilKind::point_triangle && box.u_min + box.v_min > 1) {
                continue; // entirely outside the triangle
            }
            if (iterations >= max_iterations) {
                result.status = CCDStatus::iteration_cap;
                result.toi = box.t_min;
                break;
            }
            ++iterations;
            const Inclusion inclusion = include<Kind>(stencil, box, rounding, inflation, near);
            if (!inclusion.may_contain_contact) {
                continue;
            }
            contact_bound = std::min(contact_bound, inclusion.near_contact_time);
            if (iterations >= next_probe && contact_bound > tmax) {
                next_probe *= 2;
                probe(box, inclusion);
            }
            const Split halves = split(box, inclusion, false);
            if (halves.settled) {
                // Settled: no open box starts earlier, so no contact happens
                // before box.t_min.
                result.status = CCDStatus::hit;
                result.toi = box.t_min;
                break;
            }
            open.push_back(halves.low);
            std::push_heap(open.begin(), open.end(), later);
            open.push_back(halves.high);
            std::push_heap(open.begin(), open.end(), later);
        }
        open.clear();
        if (open.capacity() > (std::size_t(1) << 16)) {
            std::vector<ParameterBox>().swap(open); // give back what a hard query took
        }
        result.iterations = iterations;
        return result;
    }

    /// Full query: validation, subdivision, and the t = 0 check when the
    /// time of impact is zero.
    template <StencilKind Kind>
    CCDResult query(
        const std::array<const Eigen::Vector3d*, 2 * ccd_stencil_vertices(Kind)>& points,
        double min_distance,
        double tmax,
        double tolerance,
        long max_iterations)
    {
        CCDResult result;
        if (input_problem<ccd_stencil_vertices(Kind)>(points, min_distance, tmax, tolerance, max_iterations)) {
            result.status = CCDStatus::invalid_input;
            result.toi = 0;
            return result;
        }
        const Stencil<ccd_stencil_vertices(Kind)> stencil = prepare<ccd_stencil_vertices(Kind)>(points, min_distance);
        if (tmax == 0) {
            // Only t = 0 is asked about: the t = 0 check alone.
            result = subdivide<Kind>(stencil, tmax, tolerance, max_iterations, true);
            result.toi = 0;
            if (result.status == CCDStatus::hit) {
                result.status = CCDStatus::initially_within_offset;
            }
            return result;
        }
        result = subdivide<Kind>(stencil, tmax, tolerance, max_iterations, false);
        if (result.status == CCDStatus::hit && result.toi == 0) {
            const CCDResult initial
                = subdivide<Kind>(stencil, tmax, tolerance, max_iterations, true);
            result.iterations += initial.iterations;
            if (initial.status != CCDStatus::no_hit) {
                result.status = initial.status == CCDStatus::iteration_cap
                    ? CCDStatus::iteration_cap
                    : CCDStatus::initially_within_offset;
            }
        }
        return result;
    }

} // namespace detail::inclusion

/// Conservative interval-inclusion CCD (see the file comment for the method
/// and its guarantees). All positions are in the caller's length unit; times
/// are fractions of the step in [0, tmax].
///
/// min_distance is measured in the infinity norm (the largest of |dx|, |dy|,
/// |dz| between the two closest points), as in Tight Inclusion: the range of
/// F is inflated by min_distance in each coordinate. Since the Euclidean
/// distance is at least the infinity-norm distance, a query reports every
/// approach to within min_distance in the Euclidean sense too, and may report
/// approaches to within sqrt(3) * min_distance.
///
/// Every call validates its input: the bool shape throws ipc::invalid_argument
/// naming the problem; the _result shape returns CCDStatus::invalid_input and
/// never throws. Every call terminates (at most max_iterations boxes, each
/// costing a few dozen floating-point operations). The list of open boxes is
/// reused per thread, so calls allocate only while it grows (past 65536 boxes
/// it is released at the end of the call).
class InclusionCCD : public CCDQueries<InclusionCCD> {
public:
    /// Name used in error messages.
    static constexpr const char* name = "InclusionCCD";

    /// Boxes are settled when their t-width is at most this fraction of the
    /// step (or when the range of F over them is narrower than tolerance times
    /// the stencil's speed and size). Must be positive.
    double tolerance = 1e-6;
    /// Largest number of boxes examined per query; on reaching it the query
    /// returns CCDStatus::iteration_cap with a conservative toi. Must be positive.
    long max_iterations = 1000000;

    InclusionCCD() = default;
    /// @param tolerance_ see tolerance; @param max_iterations_ see max_iterations.
    InclusionCCD(double tolerance_, long max_iterations_)
        : tolerance(tolerance_), max_iterations(max_iterations_)
    {
    }

private:
    friend class CCDQueries<InclusionCCD>;

    template <CCDStencil S>
    CCDResult stencil_ccd(const CCDStencilPoints<S>& points, double min_distance, double tmax) const
    {
        return detail::inclusion::query<S>(points, min_distance, tmax, tolerance, max_iterations);
    }

    template <CCDStencil S>
    const char* input_problem(
        const CCDStencilPoints<S>& points, double min_distance, double tmax) const
    {
        return detail::inclusion::input_problem<ccd_stencil_vertices(S)>(
            points, min_distance, tmax, tolerance, max_iterations);
    }
};

} // namespace ipc
