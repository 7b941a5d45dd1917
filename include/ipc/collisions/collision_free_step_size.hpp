#pragma once
/// @file
/// The collision-free step size: the largest alpha in [0, 1] such that moving
/// every vertex linearly from V0 toward V1, x(t) = V0 + t (V1 - V0) for
/// t in [0, alpha], keeps every admissible primitive pair of the mesh farther
/// apart than its offset xi (r_a + r_b from the mesh's radii, plus an optional
/// uniform min_distance), up to the CCD method's conservative margin.
///
/// Swept broad phase, then the narrow phase in two passes over the candidate
/// pairs, each pair's offset as its CCD minimum distance:
///  1. a fixed sample (about 1 pair in 32, chosen from the pair's indices)
///     queried with tmax = 1 gives an upper bound T on the step;
///  2. every pair is queried with tmax = T (most queries stop after one
///     step).
/// Both passes skip the pairs that a cheap conservative test proves apart
/// over [0, tmax]: a direction (the centroid direction, and the face normal
/// or the edges' cross product) along which the pair stays farther apart than
/// xi + (1 - s)(D0 - xi) at t = 0 and t = tmax (D0 >= the initial distance,
/// s the method's conservative rescaling when it has one, else 0). The
/// projected gap is concave in t, so it holds on all of [0, tmax], and the
/// query would report no hit.
/// The result is the minimum over pairs of a function of the pair alone, so
/// it is identical for any candidate order and thread count (and between the
/// overloads below for the same pairs). A CCD method whose toi depends on
/// tmax (every method but AdditiveCCD here) skips pass 1 and queries every
/// pair with tmax = 1, so that for every method the result is the earliest
/// toi of collision_hits for the same motion (see collision_hits.hpp for
/// the one exception).
///
/// The start state. The step size assumes that V0 is valid: intersection-free
/// and every admissible pair farther apart than its offset xi + min_distance.
/// It does not check this (that would cost more than the step size itself on
/// the common, valid start). On an invalid start:
///  - a candidate pair at or inside its offset at t = 0 makes the CCD report
///    initially_within_offset, and the result is 0;
///  - a start that intersects while every pair is clear of its offset (an
///    edge passing through a face: no point-triangle or edge-edge pair of the
///    crossing is at distance 0) is invisible to the CCD, which only sees
///    pairs approaching; the result is then whatever the motion allows,
///    typically 1.
/// step_start_state (a status) and check_step_start (throws
/// ipc::penetration) validate a start: once on the initial configuration and
/// after any change the solver did not make itself (each accepted step then
/// keeps the configuration valid), not in the line search.

#include <ipc/broad_phase/broad_phase.hpp>
#include <ipc/broad_phase/candidates.hpp>
#include <ipc/ccd/additive_ccd.hpp>
#include <ipc/ccd/ccd_method.hpp>
#include <ipc/collisions/detail/parallel_blocks.hpp>
#include <ipc/collisions/intersection.hpp>
#include <ipc/core/error.hpp>
#include <ipc/distance/edge_edge.hpp>
#include <ipc/distance/point_edge.hpp>
#include <ipc/distance/point_point.hpp>
#include <ipc/distance/point_triangle.hpp>
#include <ipc/mesh/collision_mesh.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace ipc {

namespace detail {

    /// True when the CCD type exposes conservative_rescaling() (the fraction
    /// s of the gap a step may use, as AdditiveCCD does).
    template <typename CCD, typename = void> struct has_conservative_rescaling : std::false_type { };
    template <typename CCD>
    struct has_conservative_rescaling<CCD, std::void_t<decltype(std::declval<const CCD&>().conservative_rescaling())>>
        : std::true_type { };

    /// True when the CCD type declares that its toi does not depend on tmax
    /// (static constexpr bool toi_independent_of_tmax = true, as AdditiveCCD
    /// does): a query with tmax < 1 then reports the hit of the query with
    /// tmax = 1 when that toi is below tmax, and no hit otherwise.
    template <typename CCD, typename = void> struct toi_independent_of_tmax : std::false_type { };
    template <typename CCD>
    struct toi_independent_of_tmax<CCD, std::enable_if_t<CCD::toi_independent_of_tmax>> : std::true_type { };

    /// Fraction of the initial gap (distance - xi) that the CCD method
    /// promises to keep: 1 - s for methods with a conservative rescaling s,
    /// 0 for others (whose promise is only "farther than xi").
    template <typename CCD> double kept_gap_fraction(const CCD& ccd)
    {
        if constexpr (has_conservative_rescaling<CCD>::value) {
            return std::clamp(1.0 - double(ccd.conservative_rescaling()), 0.0, 1.0);
        } else {
            (void)ccd;
            return 0.0;
        }
    }

    /// Which extra direction the separation filter tries besides the
    /// centroid direction.
    enum class FilterAxis {
        none,        ///< the centroid direction only (point-edge, point-point)
        face_normal, ///< normal of the triangle a (point-triangle)
        edge_cross,  ///< cross product of edges a and b (edge-edge)
    };

    /// Lanes pairs of the same kind for the separation filter: point q of
    /// every pair (the NA points of a, then the NB points of b) at t = 0 in
    /// start[q][coordinate][lane] and at t = T in end[q][coordinate][lane],
    /// and each pair's offset xi[lane]. Lanes innermost, so that the filter's
    /// loops run over lanes and the compiler vectorises them.
    template <int NA, int NB, int Lanes> struct SeparationBatch {
        static constexpr int points = NA + NB;
        double start[points][3][Lanes];
        double end[points][3][Lanes];
        double xi[Lanes];
    };

    /// Cheap filter before the narrow phase, for a batch of pairs: apart[l]
    /// is true when pair l (points a and b at t = 0 and T) provably stays
    /// farther apart than xi + kept (D0 - xi) on [0, T], where D0 >= the
    /// initial distance is the distance between the centroids. Such a pair
    /// needs no CCD query with tmax <= T: a method that keeps the fraction
    /// kept of the gap would report no hit for it.
    ///
    /// A direction n (any length) separates the pair when, with b on the
    /// positive side, min_j n.b_j(t) - max_i n.a_i(t) exceeds that level |n|
    /// at t = 0 and at t = T (or the same with a on the positive side): the
    /// projected gap is concave in t for linear motion, so it then exceeds the
    /// level on all of [0, T], and so does the distance. The directions tried
    /// are the centroid direction and the Axis direction at t = 0.
    ///
    /// Rounding: each projection n.x is off by at most about 5.2 eps |n| |x|,
    /// margin is 64 eps times the largest coordinate and |n| is rounded up,
    /// so a computed gap above (level + margin) |n| proves the exact one above
    /// level |n|; the centroid distance is padded by margin as well.
    ///
    /// Written without branches, lanes innermost: the filter runs on millions
    /// of pairs whose outcome is unpredictable, and this form is measurably
    /// faster than a pair at a time with Eigen's 3-vectors.
    template <FilterAxis Axis, int NA, int NB, int Lanes>
    void stays_apart(const SeparationBatch<NA, NB, Lanes>& batch, double kept, double margin, bool (&apart)[Lanes])
    {
        static_assert(Axis != FilterAxis::face_normal || NA == 3, "stays_apart: a face normal needs a triangle a");
        static_assert(Axis != FilterAxis::edge_cross || (NA == 2 && NB == 2),
                      "stays_apart: an edge cross product needs two edges");
        constexpr int N = NA + NB;
        constexpr int directions = Axis == FilterAxis::none ? 1 : 2;
        constexpr double round_up = 1 + 16 * std::numeric_limits<double>::epsilon();
        const auto& p0 = batch.start;
        const auto& pT = batch.end;
        // Directions: the centroid direction, then the axis.
        double n[directions][3][Lanes];
        for (int k = 0; k < 3; ++k) {
            for (int l = 0; l < Lanes; ++l) {
                double centre_a = 0, centre_b = 0;
                for (int q = 0; q < NA; ++q) {
                    centre_a += p0[q][k][l];
                }
                for (int q = NA; q < N; ++q) {
                    centre_b += p0[q][k][l];
                }
                n[0][k][l] = centre_b * (1.0 / NB) - centre_a * (1.0 / NA);
            }
        }
        if constexpr (Axis != FilterAxis::none) {
            // u = a1 - a0; v = a2 - a0 (face) or b1 - b0 (edges).
            constexpr int v_head = Axis == FilterAxis::face_normal ? 2 : 3;
            constexpr int v_tail = Axis == FilterAxis::face_normal ? 0 : 2;
            for (int l = 0; l < Lanes; ++l) {
                double u[3], v[3];
                for (int k = 0; k < 3; ++k) {
                    u[k] = p0[1][k][l] - p0[0][k][l];
                    v[k] = p0[v_head][k][l] - p0[v_tail][k][l];
                }
                n[directions - 1][0][l] = u[1] * v[2] - u[2] * v[1];
                n[directions - 1][1][l] = u[2] * v[0] - u[0] * v[2];
                n[directions - 1][2][l] = u[0] * v[1] - u[1] * v[0];
            }
        }
        double length[directions][Lanes], level[Lanes];
        for (int d = 0; d < directions; ++d) {
            for (int l = 0; l < Lanes; ++l) {
                const double squared = n[d][0][l] * n[d][0][l] + n[d][1][l] * n[d][1][l] + n[d][2][l] * n[d][2][l];
                // Never negative; saying so spares the errno branch of sqrt.
                length[d][l] = std::sqrt(squared > 0 ? squared : 0.0);
            }
        }
        for (int l = 0; l < Lanes; ++l) {
            level[l] = batch.xi[l] + kept * (length[0][l] + margin - batch.xi[l]) + margin;
            apart[l] = false;
        }
        const auto low = [](double x, double y) { return x < y ? x : y; };
        const auto high = [](double x, double y) { return x > y ? x : y; };
        for (int d = 0; d < directions; ++d) {
            double proj0[N][Lanes], projT[N][Lanes];
            for (int q = 0; q < N; ++q) {
                for (int l = 0; l < Lanes; ++l) {
                    proj0[q][l] = n[d][0][l] * p0[q][0][l] + n[d][1][l] * p0[q][1][l] + n[d][2][l] * p0[q][2][l];
                    projT[q][l] = n[d][0][l] * pT[q][0][l] + n[d][1][l] * pT[q][1][l] + n[d][2][l] * pT[q][2][l];
                }
            }
            for (int l = 0; l < Lanes; ++l) {
                double a_low0 = proj0[0][l], a_high0 = proj0[0][l], a_lowT = projT[0][l], a_highT = projT[0][l];
                for (int q = 1; q < NA; ++q) {
                    a_low0 = low(a_low0, proj0[q][l]);
                    a_high0 = high(a_high0, proj0[q][l]);
                    a_lowT = low(a_lowT, projT[q][l]);
                    a_highT = high(a_highT, projT[q][l]);
                }
                double b_low0 = proj0[NA][l], b_high0 = proj0[NA][l], b_lowT = projT[NA][l], b_highT = projT[NA][l];
                for (int q = NA + 1; q < N; ++q) {
                    b_low0 = low(b_low0, proj0[q][l]);
                    b_high0 = high(b_high0, proj0[q][l]);
                    b_lowT = low(b_lowT, projT[q][l]);
                    b_highT = high(b_highT, projT[q][l]);
                }
                const double gap = high(low(b_low0 - a_high0, b_lowT - a_highT), low(a_low0 - b_high0, a_lowT - b_highT));
                apart[l] |= gap > level[l] * length[d][l] * round_up;
            }
        }
        for (int l = 0; l < Lanes; ++l) {
            apart[l] &= length[0][l] > batch.xi[l];
        }
    }

    /// Positions of a step, packed per vertex: start (t = 0), end (t = 1)
    /// and, for the filter, bound_end at t = bound with scale the largest
    /// coordinate magnitude over start and bound_end.
    struct StepPositions {
        std::vector<Eigen::Vector3d> start, end, bound_end;
        double scale = 0.0;

        /// Computes bound_end = start + bound (end - start) (end itself at
        /// bound 1) and scale.
        void prepare_bound(double bound)
        {
            bound_end.resize(start.size());
            const std::ptrdiff_t n = std::ptrdiff_t(start.size());
            const std::ptrdiff_t blocks = std::max<std::ptrdiff_t>(1, std::min<std::ptrdiff_t>(64, n / 1024));
            std::vector<double> block_scale(static_cast<std::size_t>(blocks), 0.0);
            parallel_for(0, blocks, [&](std::ptrdiff_t b) {
                double largest = 0.0;
                for (std::ptrdiff_t v = n * b / blocks; v < n * (b + 1) / blocks; ++v) {
                    const Eigen::Vector3d& p = start[std::size_t(v)];
                    // At bound 1 the end itself (exactly the CCD's end point).
                    const Eigen::Vector3d& q = end[std::size_t(v)];
                    bound_end[std::size_t(v)] = bound == 1.0 ? q : Eigen::Vector3d(p + bound * (q - p));
                    largest = std::max({ largest, p.cwiseAbs().maxCoeff(),
                                         bound_end[std::size_t(v)].cwiseAbs().maxCoeff() });
                }
                block_scale[std::size_t(b)] = largest;
            });
            scale = 0.0;
            for (const double s : block_scale) {
                scale = std::max(scale, s);
            }
        }

        /// Rounding margin of the filter's evaluations (metres).
        double margin() const { return 64 * std::numeric_limits<double>::epsilon() * scale; }
    };

    // The stencils of the four pair kinds. Each names its filter layout (NA
    // points of a, then NB of b, and the filter axis), lists those vertices
    // in order, and runs its CCD query.

    /// Point-triangle stencil: vertex p against face (t0, t1, t2).
    struct FaceVertexStencil {
        static constexpr int num_a = 3, num_b = 1;
        static constexpr FilterAxis axis = FilterAxis::face_normal;
        Index p, t0, t1, t2;
        double offset;
        std::array<Index, 4> filter_vertices() const { return { t0, t1, t2, p }; }
        template <typename CCD> bool query(const StepPositions& x, const CCD& ccd, double& toi, double tmax) const
        {
            const auto& a = x.start;
            const auto& b = x.end;
            return ccd.point_triangle_ccd(a[size_t(p)], a[size_t(t0)], a[size_t(t1)], a[size_t(t2)], b[size_t(p)],
                                          b[size_t(t0)], b[size_t(t1)], b[size_t(t2)], toi, offset, tmax);
        }
    };

    /// Edge-edge stencil: edge (a0, a1) against edge (b0, b1).
    struct EdgeEdgeStencil {
        static constexpr int num_a = 2, num_b = 2;
        static constexpr FilterAxis axis = FilterAxis::edge_cross;
        Index a0, a1, b0, b1;
        double offset;
        std::array<Index, 4> filter_vertices() const { return { a0, a1, b0, b1 }; }
        template <typename CCD> bool query(const StepPositions& x, const CCD& ccd, double& toi, double tmax) const
        {
            const auto& s = x.start;
            const auto& e = x.end;
            return ccd.edge_edge_ccd(s[size_t(a0)], s[size_t(a1)], s[size_t(b0)], s[size_t(b1)], e[size_t(a0)],
                                     e[size_t(a1)], e[size_t(b0)], e[size_t(b1)], toi, offset, tmax);
        }
    };

    /// Point-edge stencil: vertex p against edge (e0, e1).
    struct EdgeVertexStencil {
        static constexpr int num_a = 2, num_b = 1;
        static constexpr FilterAxis axis = FilterAxis::none;
        Index p, e0, e1;
        double offset;
        std::array<Index, 3> filter_vertices() const { return { e0, e1, p }; }
        template <typename CCD> bool query(const StepPositions& x, const CCD& ccd, double& toi, double tmax) const
        {
            const auto& s = x.start;
            const auto& e = x.end;
            return ccd.point_edge_ccd(s[size_t(p)], s[size_t(e0)], s[size_t(e1)], e[size_t(p)], e[size_t(e0)],
                                      e[size_t(e1)], toi, offset, tmax);
        }
    };

    /// Point-point stencil.
    struct VertexVertexStencil {
        static constexpr int num_a = 1, num_b = 1;
        static constexpr FilterAxis axis = FilterAxis::none;
        Index v0, v1;
        double offset;
        std::array<Index, 2> filter_vertices() const { return { v0, v1 }; }
        template <typename CCD> bool query(const StepPositions& x, const CCD& ccd, double& toi, double tmax) const
        {
            return ccd.point_point_ccd(x.start[size_t(v0)], x.start[size_t(v1)], x.end[size_t(v0)],
                                       x.end[size_t(v1)], toi, offset, tmax);
        }
    };

    /// The separation filter over used stencils (1 <= used <= Lanes) at the
    /// positions start and bound_end of x: apart[l] for stencils[l]. Unused
    /// lanes repeat the first stencil.
    template <typename Stencil, int Lanes>
    void stencils_stay_apart(const Stencil (&stencils)[Lanes], int used, const StepPositions& x, double kept,
                             bool (&apart)[Lanes])
    {
        SeparationBatch<Stencil::num_a, Stencil::num_b, Lanes> batch;
        for (int l = 0; l < Lanes; ++l) {
            const Stencil& stencil = stencils[l < used ? l : 0];
            const auto vertices = stencil.filter_vertices();
            for (int q = 0; q < int(vertices.size()); ++q) {
                const Eigen::Vector3d& start = x.start[std::size_t(vertices[std::size_t(q)])];
                const Eigen::Vector3d& end = x.bound_end[std::size_t(vertices[std::size_t(q)])];
                for (int k = 0; k < 3; ++k) {
                    batch.start[q][k][l] = start[k];
                    batch.end[q][k][l] = end[k];
                }
            }
            batch.xi[l] = stencil.offset;
        }
        stays_apart<Stencil::axis>(batch, kept, x.margin(), apart);
    }

    /// True for the pairs in the fixed sample of phase 1 (about one in
    /// 32), chosen from the pair's indices so that the sample does not
    /// depend on the order of the candidates.
    inline bool in_sample(Index a, Index b)
    {
        const std::uint64_t h = (std::uint64_t(a) * 0x9e3779b97f4a7c15ull) ^ (std::uint64_t(b) * 0xc2b2ae3d27d4eb4full);
        return ((h >> 40) & 31u) == 0;
    }

    /// One pass of the step size over one pair kind: stencil_of(i,
    /// sample_only, skip) checks pair i < count and builds its stencil, or,
    /// with sample_only and a pair outside the sample, sets skip instead. Every
    /// query gets tmax = bound (<= x's bound); pairs that provably stay apart
    /// over [0, x's bound] skip the query (filtered four at a time).
    /// Returns the minimum of bound and every reported toi: a function of the
    /// set of pairs only, so the same for any order of the pairs and any
    /// thread count.
    template <typename StencilOf, typename CCD>
    double step_size_pass(std::size_t count, bool sample_only, double bound, const StencilOf& stencil_of,
                          const StepPositions& x, const CCD& ccd, double kept)
    {
        using Stencil = std::decay_t<decltype(stencil_of(std::size_t(0), false, std::declval<bool&>()))>;
        constexpr int lanes = 4;
        struct Minimum {
            double value = 1.0;
        };
        const std::size_t batches = (count + lanes - 1) / lanes;
        const std::vector<Minimum> blocks = process_in_blocks<Minimum>(batches, [&](std::size_t batch, Minimum& m) {
            Stencil stencils[lanes];
            int used = 0;
            for (std::size_t i = batch * lanes, end = std::min(count, i + lanes); i < end; ++i) {
                bool skip = false;
                stencils[used] = stencil_of(i, sample_only, skip);
                used += skip ? 0 : 1;
            }
            if (used == 0) {
                return;
            }
            bool apart[lanes];
            stencils_stay_apart(stencils, used, x, kept, apart);
            for (int l = 0; l < used; ++l) {
                double toi = bound;
                if (!apart[l] && stencils[l].query(x, ccd, toi, bound)) {
                    m.value = std::min(m.value, toi);
                }
            }
        });
        for (const Minimum& m : blocks) {
            bound = std::min(bound, m.value);
        }
        return bound;
    }

    /// The two-phase step size over any source of pairs: source.face_vertex
    /// etc. are (count, stencil_of) for each kind (see step_size_pass).
    template <typename Sources, typename CCD>
    double step_size_from(const Sources& sources, StepPositions& x, const CCD& ccd)
    {
        const double kept = kept_gap_fraction(ccd);
        // Phase 1: the sample with tmax = 1 gives an upper bound on the step
        // early; phase 2 passes it to every query as tmax (most queries then
        // stop after one step). Both filter the pairs against their tmax.
        if constexpr (!toi_independent_of_tmax<CCD>::value) {
            // A method whose toi depends on tmax gets every query over the
            // whole step, so that the result is the earliest toi of the
            // queries with tmax = 1 (the hits of collision_hits).
            x.prepare_bound(1.0);
            double alpha = 1.0;
            alpha = std::min(alpha, step_size_pass(sources.face_vertex_count, false, 1.0, sources.face_vertex, x, ccd, kept));
            alpha = std::min(alpha, step_size_pass(sources.edge_edge_count, false, 1.0, sources.edge_edge, x, ccd, kept));
            alpha = std::min(alpha, step_size_pass(sources.edge_vertex_count, false, 1.0, sources.edge_vertex, x, ccd, kept));
            alpha = std::min(alpha, step_size_pass(sources.vertex_vertex_count, false, 1.0, sources.vertex_vertex, x, ccd, kept));
            return std::clamp(alpha, 0.0, 1.0);
        }
        double alpha = 1.0;
        for (const bool sample_only : { true, false }) {
            x.prepare_bound(alpha);
            alpha = step_size_pass(sources.face_vertex_count, sample_only, alpha, sources.face_vertex, x, ccd, kept);
            alpha = step_size_pass(sources.edge_edge_count, sample_only, alpha, sources.edge_edge, x, ccd, kept);
            alpha = step_size_pass(sources.edge_vertex_count, sample_only, alpha, sources.edge_vertex, x, ccd, kept);
            alpha = step_size_pass(sources.vertex_vertex_count, sample_only, alpha, sources.vertex_vertex, x, ccd, kept);
        }
        return std::clamp(alpha, 0.0, 1.0);
    }

    /// Packs V0 and V1 (n x 3, or n x 2 padded with z = 0: a 2D motion is
    /// the motion in the plane z = 0 of 3D space, where the point-edge and
    /// point-point queries of every CCD method are the 2D ones) per vertex.
    inline StepPositions pack_positions(const Eigen::Ref<const Eigen::MatrixXd>& V0,
                                        const Eigen::Ref<const Eigen::MatrixXd>& V1)
    {
        StepPositions x;
        x.start.resize(static_cast<std::size_t>(V0.rows()));
        x.end.resize(static_cast<std::size_t>(V0.rows()));
        if (V0.cols() == 2) {
            parallel_for(0, V0.rows(), [&](std::ptrdiff_t v) {
                x.start[std::size_t(v)] = Eigen::Vector3d(V0(v, 0), V0(v, 1), 0.0);
                x.end[std::size_t(v)] = Eigen::Vector3d(V1(v, 0), V1(v, 1), 0.0);
            });
            return x;
        }
        parallel_for(0, V0.rows(), [&](std::ptrdiff_t v) {
            x.start[std::size_t(v)] = Eigen::Vector3d(V0(v, 0), V0(v, 1), V0(v, 2));
            x.end[std::size_t(v)] = Eigen::Vector3d(V1(v, 0), V1(v, 1), V1(v, 2));
        });
        return x;
    }

    /// Pair sources over candidate key lists (indices known to be valid).
    template <typename FV, typename EE, typename EV, typename VV> struct StepSources {
        std::size_t face_vertex_count, edge_edge_count, edge_vertex_count, vertex_vertex_count;
        FV face_vertex;
        EE edge_edge;
        EV edge_vertex;
        VV vertex_vertex;
    };
    template <typename FV, typename EE, typename EV, typename VV>
    StepSources<FV, EE, EV, VV> step_sources(std::size_t nfv, FV fv, std::size_t nee, EE ee, std::size_t nev, EV ev,
                                             std::size_t nvv, VV vv)
    {
        return { nfv, nee, nev, nvv, fv, ee, ev, vv };
    }

    /// Stencil builders shared by the candidate-list and key-list sources.
    struct StencilMaker {
        const CollisionMesh& mesh;
        double min_distance;

        FaceVertexStencil face_vertex(Index f, Index v) const
        {
            const Eigen::MatrixXi& F = mesh.faces();
            return { v, F(f, 0), F(f, 1), F(f, 2), mesh.face_vertex_offset(f, v) + min_distance };
        }
        EdgeEdgeStencil edge_edge(Index a, Index b) const
        {
            const Eigen::MatrixXi& E = mesh.edges();
            return { E(a, 0), E(a, 1), E(b, 0), E(b, 1), mesh.edge_edge_offset(a, b) + min_distance };
        }
        EdgeVertexStencil edge_vertex(Index e, Index v) const
        {
            const Eigen::MatrixXi& E = mesh.edges();
            return { v, E(e, 0), E(e, 1), mesh.edge_vertex_offset(e, v) + min_distance };
        }
        VertexVertexStencil vertex_vertex(Index a, Index b) const
        {
            return { a, b, mesh.vertex_vertex_offset(a, b) + min_distance };
        }
    };

} // namespace detail

/// Collision-free step size over the given swept candidates (see the file
/// comment). candidates must contain every pair that may come within its
/// offset + min_distance during the motion (e.g. swept_candidates(mesh, V0,
/// V1, min_distance)).
/// @param candidates    pairs to query (indices into mesh)
/// @param mesh          2D or 3D collision mesh (radii give the offsets)
/// @param V0, V1        positions at the start and end of the step
///                      (n x mesh.dim(), m); a 2D motion is queried in the
///                      plane z = 0 (point-edge and point-point pairs)
/// @param min_distance  extra offset added to every pair's xi (m), >= 0
/// @param ccd           the narrow phase (any type with is_ccd_method_v)
/// @return alpha in [0, 1]; 1 when no pair comes within its offset, 0 when a
///         candidate pair starts at or inside its offset. An intersecting
///         start is not detected (see the file comment; check_step_start).
/// Throws ipc::invalid_argument for bad positions, sizes (a column count
/// other than mesh.dim() names both), min_distance or out-of-range
/// candidates (naming the candidate list, the index and the bound),
/// edge-edge or point-triangle candidates with a 2D mesh, and whatever the
/// CCD method throws on its input.
template <typename CCD = AdditiveCCD>
double collision_free_step_size(const Candidates& candidates, const CollisionMesh& mesh,
                                const Eigen::Ref<const Eigen::MatrixXd>& V0,
                                const Eigen::Ref<const Eigen::MatrixXd>& V1, double min_distance = 0,
                                const CCD& ccd = CCD())
{
    static_assert(is_ccd_method_v<CCD>, "collision_free_step_size: CCD must satisfy ipc::is_ccd_method_v");
    mesh.check_positions(V0, "collision_free_step_size: V0");
    mesh.check_positions(V1, "collision_free_step_size: V1");
    require(std::isfinite(min_distance) && min_distance >= 0,
            "collision_free_step_size: min_distance must be finite and non-negative, got ", min_distance);
    require(mesh.dim() == 3 || (candidates.edge_edge.empty() && candidates.face_vertex.empty()),
            "collision_free_step_size: a 2D mesh has point-edge and point-point pairs only, got ",
            candidates.edge_edge.size(), " edge-edge and ", candidates.face_vertex.size(),
            " point-triangle candidates");
    const Index nv = mesh.num_vertices(), ne = mesh.num_edges(), nf = mesh.num_faces();
    const detail::StencilMaker make { mesh, min_distance };
    const auto sources = detail::step_sources(
        candidates.face_vertex.size(),
        [&](std::size_t i, bool sample_only, bool& skip) {
            const FaceVertexCandidate& c = candidates.face_vertex[i];
            require(c.face >= 0 && c.face < nf && c.vertex >= 0 && c.vertex < nv,
                    "collision_free_step_size: candidates.face_vertex[", i, "] = (face ", c.face, ", vertex ",
                    c.vertex, ") is out of range (", nf, " faces, ", nv, " vertices)");
            skip = sample_only && !detail::in_sample(c.face, c.vertex);
            return skip ? detail::FaceVertexStencil {} : make.face_vertex(c.face, c.vertex);
        },
        candidates.edge_edge.size(),
        [&](std::size_t i, bool sample_only, bool& skip) {
            const EdgeEdgeCandidate& c = candidates.edge_edge[i];
            require(c.edge0 >= 0 && c.edge0 < ne && c.edge1 >= 0 && c.edge1 < ne,
                    "collision_free_step_size: candidates.edge_edge[", i, "] = (edge ", c.edge0, ", edge ",
                    c.edge1, ") is out of range (", ne, " edges)");
            skip = sample_only && !detail::in_sample(c.edge0, c.edge1);
            return skip ? detail::EdgeEdgeStencil {} : make.edge_edge(c.edge0, c.edge1);
        },
        candidates.edge_vertex.size(),
        [&](std::size_t i, bool sample_only, bool& skip) {
            const EdgeVertexCandidate& c = candidates.edge_vertex[i];
            require(c.edge >= 0 && c.edge < ne && c.vertex >= 0 && c.vertex < nv,
                    "collision_free_step_size: candidates.edge_vertex[", i, "] = (edge ", c.edge, ", vertex ",
                    c.vertex, ") is out of range (", ne, " edges, ", nv, " vertices)");
            skip = sample_only && !detail::in_sample(c.edge, c.vertex);
            return skip ? detail::EdgeVertexStencil {} : make.edge_vertex(c.edge, c.vertex);
        },
        candidates.vertex_vertex.size(),
        [&](std::size_t i, bool sample_only, bool& skip) {
            const VertexVertexCandidate& c = candidates.vertex_vertex[i];
            require(c.v0 >= 0 && c.v0 < nv && c.v1 >= 0 && c.v1 < nv,
                    "collision_free_step_size: candidates.vertex_vertex[", i, "] = (vertex ", c.v0, ", vertex ",
                    c.v1, ") is out of range (", nv, " vertices)");
            skip = sample_only && !detail::in_sample(c.v0, c.v1);
            return skip ? detail::VertexVertexStencil {} : make.vertex_vertex(c.v0, c.v1);
        });
    detail::StepPositions x = detail::pack_positions(V0, V1);
    return detail::step_size_from(sources, x, ccd);
}

/// Collision-free step size from V0 to V1 over the whole mesh: swept broad
/// phase (the given method) plus narrow-phase CCD; see the overload above
/// for the parameters, the result and the exceptions.
template <typename CCD = AdditiveCCD>
double collision_free_step_size(const CollisionMesh& mesh, const Eigen::Ref<const Eigen::MatrixXd>& V0,
                                const Eigen::Ref<const Eigen::MatrixXd>& V1, double min_distance = 0,
                                BroadPhaseMethod method = BroadPhaseMethod::bvh, const CCD& ccd = CCD())
{
    mesh.check_positions(V0, "collision_free_step_size: V0");
    mesh.check_positions(V1, "collision_free_step_size: V1");
    require(std::isfinite(min_distance) && min_distance >= 0,
            "collision_free_step_size: min_distance must be finite and non-negative, got ", min_distance);
    if (method != BroadPhaseMethod::bvh) {
        return collision_free_step_size(swept_candidates(mesh, V0, V1, min_distance, method), mesh, V0, V1,
                                        min_distance, ccd);
    }
    // BVH: the candidate keys straight from the traversal, unsorted (the
    // result depends only on the set of pairs, not on their order).
    PrimitiveBoxes& boxes = detail::broad_phase_scratch().boxes;
    swept_boxes(mesh, V0, V1, min_distance, boxes);
    const detail::CandidateKeys& keys = detail::bvh_candidate_keys(mesh, boxes, false, detail::TreeKind::swept_boxes);
    const detail::StencilMaker make { mesh, min_distance };
    const auto sources = detail::step_sources(
        keys.face_vertex.size(),
        [&](std::size_t i, bool sample_only, bool& skip) {
            const auto pair = detail::CandidateKeys::split(keys.face_vertex[i], keys.vertex_shift);
            skip = sample_only && !detail::in_sample(pair.first, pair.second);
            return skip ? detail::FaceVertexStencil {} : make.face_vertex(pair.first, pair.second);
        },
        keys.edge_edge.size(),
        [&](std::size_t i, bool sample_only, bool& skip) {
            const auto pair = detail::CandidateKeys::split(keys.edge_edge[i], keys.edge_shift);
            skip = sample_only && !detail::in_sample(pair.first, pair.second);
            return skip ? detail::EdgeEdgeStencil {} : make.edge_edge(pair.first, pair.second);
        },
        keys.edge_vertex.size(),
        [&](std::size_t i, bool sample_only, bool& skip) {
            const auto pair = detail::CandidateKeys::split(keys.edge_vertex[i], keys.vertex_shift);
            skip = sample_only && !detail::in_sample(pair.first, pair.second);
            return skip ? detail::EdgeVertexStencil {} : make.edge_vertex(pair.first, pair.second);
        },
        keys.vertex_vertex.size(),
        [&](std::size_t i, bool sample_only, bool& skip) {
            const auto pair = detail::CandidateKeys::split(keys.vertex_vertex[i], keys.vertex_shift);
            skip = sample_only && !detail::in_sample(pair.first, pair.second);
            return skip ? detail::VertexVertexStencil {} : make.vertex_vertex(pair.first, pair.second);
        });
    detail::StepPositions x = detail::pack_positions(V0, V1);
    return detail::step_size_from(sources, x, ccd);
}

/// What step_start_state found about a start configuration.
enum class StepStartStatus {
    valid,         ///< intersection-free, every admissible pair clear of its offset
    within_offset, ///< some admissible pair at or inside xi + min_distance
    intersects,    ///< an edge meets a face (mid-surfaces; exact test)
};

/// Result of step_start_state.
struct StepStartState {
    /// valid, within_offset or intersects.
    StepStartStatus status = StepStartStatus::valid;
    /// Empty when valid; otherwise names the first offending pair (lowest
    /// indices) with its distance and offset, or the crossing edge and face.
    std::string message;
    /// True when the start is valid.
    bool valid() const { return status == StepStartStatus::valid; }
};

/// Checks that V0 is a valid start for collision_free_step_size with the
/// given min_distance: first that every admissible pair of the mesh is
/// farther apart than its offset xi + min_distance (static broad phase with
/// the given method, exact distance kernels; a pair exactly at its offset
/// counts as within, as in the CCD), then that no edge meets a face
/// (has_intersections, exact). Costs about one static broad phase plus one
/// intersection test (a BVH over the faces); run it on the initial
/// configuration, not per line-search trial. A 2D mesh (n x 2 positions)
/// is checked the same way: point-edge and point-point pairs, then no two
/// edges crossing.
/// Throws ipc::invalid_argument for bad positions (a column count other
/// than mesh.dim() names both) or min_distance (the verdict itself is returned, not thrown), and
/// ipc::degenerate_geometry as has_intersections does.
inline StepStartState step_start_state(const CollisionMesh& mesh, const Eigen::Ref<const Eigen::MatrixXd>& V0,
                                       double min_distance = 0, BroadPhaseMethod method = BroadPhaseMethod::bvh)
{
    mesh.check_positions(V0, "step_start_state: positions V0");
    require(std::isfinite(min_distance) && min_distance >= 0,
            "step_start_state: min_distance must be finite and non-negative, got ", min_distance);
    StepStartState state;
    const Candidates candidates = static_candidates(mesh, V0, min_distance, method);
    const Eigen::MatrixXi& E = mesh.edges();
    const Eigen::MatrixXi& F = mesh.faces();
    // z = 0 for a 2D mesh (its pairs are point-edge and point-point).
    const auto x = [&](Index v) -> Eigen::Vector3d {
        return Eigen::Vector3d(V0(v, 0), V0(v, 1), mesh.dim() == 3 ? V0(v, 2) : 0.0);
    };
    // Reports the pair when its distance is at or inside offset + min_distance.
    const auto within = [&](double distance_squared, double offset, const char* kind, Index a, const char* a_name,
                            Index b, const char* b_name) {
        const double distance = std::sqrt(std::max(distance_squared, 0.0));
        if (distance > offset + min_distance) {
            return false;
        }
        state.status = StepStartStatus::within_offset;
        state.message = detail::concat("start state is within the offset: ", kind, " pair (", a_name, " ", a,
                                       ", ", b_name, " ", b, ") is at distance ", distance, " <= its offset ",
                                       offset, " + min_distance ", min_distance);
        return true;
    };
    for (const FaceVertexCandidate& c : candidates.face_vertex) {
        if (within(point_triangle_distance_squared(x(c.vertex), x(F(c.face, 0)), x(F(c.face, 1)), x(F(c.face, 2))),
                   mesh.face_vertex_offset(c.face, c.vertex), "point-triangle", c.face, "face", c.vertex,
                   "vertex")) {
            return state;
        }
    }
    for (const EdgeEdgeCandidate& c : candidates.edge_edge) {
        if (within(edge_edge_distance_squared(x(E(c.edge0, 0)), x(E(c.edge0, 1)), x(E(c.edge1, 0)), x(E(c.edge1, 1))),
                   mesh.edge_edge_offset(c.edge0, c.edge1), "edge-edge", c.edge0, "edge", c.edge1, "edge")) {
            return state;
        }
    }
    for (const EdgeVertexCandidate& c : candidates.edge_vertex) {
        if (within(point_edge_distance_squared(x(c.vertex), x(E(c.edge, 0)), x(E(c.edge, 1))),
                   mesh.edge_vertex_offset(c.edge, c.vertex), "point-edge", c.edge, "edge", c.vertex, "vertex")) {
            return state;
        }
    }
    for (const VertexVertexCandidate& c : candidates.vertex_vertex) {
        if (within(point_point_distance_squared(x(c.v0), x(c.v1)), mesh.vertex_vertex_offset(c.v0, c.v1),
                   "point-point", c.v0, "vertex", c.v1, "vertex")) {
            return state;
        }
    }
    if (has_intersections(mesh, V0)) {
        const detail::IntersectingPair pair = detail::first_intersecting_pair(mesh, V0);
        state.status = StepStartStatus::intersects;
        if (mesh.dim() == 2) {
            state.message = detail::concat("start state intersects: edge ", pair.edge, " (vertices ", E(pair.edge, 0),
                                           ", ", E(pair.edge, 1), ") crosses edge ", pair.other, " (vertices ",
                                           E(pair.other, 0), ", ", E(pair.other, 1), ")");
            return state;
        }
        state.message = detail::concat("start state intersects: edge ", pair.edge, " (vertices ", E(pair.edge, 0),
                                       ", ", E(pair.edge, 1), ") crosses face ", pair.other, " (vertices ",
                                       F(pair.other, 0), ", ", F(pair.other, 1), ", ", F(pair.other, 2), ")");
    }
    return state;
}

/// Throws ipc::penetration with step_start_state's message unless V0 is a
/// valid start (see step_start_state for the test, its cost and the other
/// exceptions). For example, once before the first time step:
///
///     ipc::check_step_start(mesh, V, dmin);
inline void check_step_start(const CollisionMesh& mesh, const Eigen::Ref<const Eigen::MatrixXd>& V0,
                             double min_distance = 0, BroadPhaseMethod method = BroadPhaseMethod::bvh)
{
    const StepStartState state = step_start_state(mesh, V0, min_distance, method);
    if (!state.valid()) {
        throw penetration(state.message);
    }
}

} // namespace ipc
