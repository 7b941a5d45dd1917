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
///     step), except pairs that a cheap conservative test proves apart: a
///     separating direction (face normal or edge cross product, then the
///     centroid direction) along which the pair stays farther apart than
///     xi + (1 - s)(D0 - xi) at t = 0 and t = T (D0 >= the initial distance,
///     s the method's conservative rescaling when it has one, else 0); the
///     projected gap is concave in t, so it holds on all of [0, T], and such
///     a pair needs no query.
/// The result is the minimum over pairs of a function of the pair alone, so
/// it is identical for any candidate order and thread count (and between the
/// overloads below for the same pairs).

#include <ipc/broad_phase/broad_phase.hpp>
#include <ipc/broad_phase/candidates.hpp>
#include <ipc/ccd/additive_ccd.hpp>
#include <ipc/ccd/ccd_method.hpp>
#include <ipc/collisions/detail/parallel_blocks.hpp>
#include <ipc/core/error.hpp>
#include <ipc/mesh/collision_mesh.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
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

    /// Conservative separation test of two moving point sets (the vertices of
    /// two primitives) over [0, T]: a (NA points) and b (NB points) at t = 0
    /// and at t = T. Returns true when, along the unit direction of n
    /// (oriented by towards, the vector from a to b), the projections of b
    /// exceed those of a by more than level at both t = 0 and t = T. The
    /// projected gap min_j n.b_j(t) - max_i n.a_i(t) is concave in t for
    /// linear motion, so it then exceeds level on all of [0, T], and so does
    /// the distance between the primitives (the convex hulls of the points).
    /// level must include the rounding margin of these evaluations.
    template <int NA, int NB>
    bool separated_along(Eigen::Vector3d n, const Eigen::Vector3d& towards, const Eigen::Vector3d (&a0)[NA],
                         const Eigen::Vector3d (&aT)[NA], const Eigen::Vector3d (&b0)[NB],
                         const Eigen::Vector3d (&bT)[NB], double level)
    {
        const double length = n.norm();
        if (!(length > 0)) {
            return false;
        }
        // Slightly shorter than unit so that |n| <= 1 after rounding.
        n *= (n.dot(towards) < 0 ? -1.0 : 1.0) * (1.0 - 8 * std::numeric_limits<double>::epsilon()) / length;
        double a_high0 = n.dot(a0[0]), a_highT = n.dot(aT[0]);
        for (int i = 1; i < NA; ++i) {
            a_high0 = std::max(a_high0, n.dot(a0[i]));
            a_highT = std::max(a_highT, n.dot(aT[i]));
        }
        double b_low0 = n.dot(b0[0]), b_lowT = n.dot(bT[0]);
        for (int j = 1; j < NB; ++j) {
            b_low0 = std::min(b_low0, n.dot(b0[j]));
            b_lowT = std::min(b_lowT, n.dot(bT[j]));
        }
        return b_low0 - a_high0 > level && b_lowT - a_highT > level;
    }

    /// Cheap filter before the narrow phase: true when the pair (vertices a
    /// and b at t = 0 and T) provably stays farther apart than
    /// xi + kept (D0 - xi) on [0, T], where D0 >= the initial distance is the
    /// distance between the centroids. Such a pair needs no CCD query with
    /// tmax <= T: a method that keeps the fraction kept of the gap would
    /// report no hit for it. Tries the given axis (e.g. a face normal), then
    /// the centroid direction.
    template <int NA, int NB>
    bool stays_apart(const Eigen::Vector3d (&a0)[NA], const Eigen::Vector3d (&aT)[NA],
                     const Eigen::Vector3d (&b0)[NB], const Eigen::Vector3d (&bT)[NB],
                     const Eigen::Vector3d& axis, double xi, double kept, double margin)
    {
        Eigen::Vector3d centre_a = a0[0], centre_b = b0[0];
        for (int i = 1; i < NA; ++i) {
            centre_a += a0[i];
        }
        for (int j = 1; j < NB; ++j) {
            centre_b += b0[j];
        }
        const Eigen::Vector3d towards = centre_b / double(NB) - centre_a / double(NA);
        const double centre_distance = towards.norm();
        if (!(centre_distance > xi)) {
            return false;
        }
        // The centroid distance is rounded: pad it by the margin too.
        const double level = xi + kept * (centre_distance + margin - xi) + margin;
        return separated_along(axis, towards, a0, aT, b0, bT, level)
            || separated_along(towards, towards, a0, aT, b0, bT, level);
    }

    /// Positions of a step, packed per vertex: start (t = 0), end (t = 1)
    /// and, for the filter, bound_end at t = bound with scale the largest
    /// coordinate magnitude over start and bound_end.
    struct StepPositions {
        std::vector<Eigen::Vector3d> start, end, bound_end;
        double scale = 0.0;

        /// Computes bound_end = start + bound (end - start) and scale.
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
                    bound_end[std::size_t(v)] = p + bound * (end[std::size_t(v)] - p);
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

    /// Point-triangle stencil: vertex p against face (t0, t1, t2).
    struct FaceVertexStencil {
        Index p, t0, t1, t2;
        double offset;
        bool stays_apart(const StepPositions& x, double kept) const
        {
            const auto& a = x.start;
            const auto& b = x.bound_end;
            const Eigen::Vector3d face0[3] = { a[size_t(t0)], a[size_t(t1)], a[size_t(t2)] };
            const Eigen::Vector3d faceT[3] = { b[size_t(t0)], b[size_t(t1)], b[size_t(t2)] };
            const Eigen::Vector3d point0[1] = { a[size_t(p)] }, pointT[1] = { b[size_t(p)] };
            return detail::stays_apart(face0, faceT, point0, pointT, (face0[1] - face0[0]).cross(face0[2] - face0[0]),
                                       offset, kept, x.margin());
        }
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
        Index a0, a1, b0, b1;
        double offset;
        bool stays_apart(const StepPositions& x, double kept) const
        {
            const auto& s = x.start;
            const auto& e = x.bound_end;
            const Eigen::Vector3d first0[2] = { s[size_t(a0)], s[size_t(a1)] };
            const Eigen::Vector3d firstT[2] = { e[size_t(a0)], e[size_t(a1)] };
            const Eigen::Vector3d second0[2] = { s[size_t(b0)], s[size_t(b1)] };
            const Eigen::Vector3d secondT[2] = { e[size_t(b0)], e[size_t(b1)] };
            return detail::stays_apart(first0, firstT, second0, secondT,
                                       (first0[1] - first0[0]).cross(second0[1] - second0[0]), offset, kept,
                                       x.margin());
        }
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
        Index p, e0, e1;
        double offset;
        bool stays_apart(const StepPositions& x, double kept) const
        {
            const auto& s = x.start;
            const auto& e = x.bound_end;
            const Eigen::Vector3d edge0[2] = { s[size_t(e0)], s[size_t(e1)] };
            const Eigen::Vector3d edgeT[2] = { e[size_t(e0)], e[size_t(e1)] };
            const Eigen::Vector3d point0[1] = { s[size_t(p)] }, pointT[1] = { e[size_t(p)] };
            return detail::stays_apart(edge0, edgeT, point0, pointT, Eigen::Vector3d::Zero().eval(), offset, kept,
                                       x.margin());
        }
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
        Index v0, v1;
        double offset;
        bool stays_apart(const StepPositions& x, double kept) const
        {
            const Eigen::Vector3d first0[1] = { x.start[size_t(v0)] }, firstT[1] = { x.bound_end[size_t(v0)] };
            const Eigen::Vector3d second0[1] = { x.start[size_t(v1)] }, secondT[1] = { x.bound_end[size_t(v1)] };
            return detail::stays_apart(first0, firstT, second0, secondT, Eigen::Vector3d::Zero().eval(), offset,
                                       kept, x.margin());
        }
        template <typename CCD> bool query(const StepPositions& x, const CCD& ccd, double& toi, double tmax) const
        {
            return ccd.point_point_ccd(x.start[size_t(v0)], x.start[size_t(v1)], x.end[size_t(v0)],
                                       x.end[size_t(v1)], toi, offset, tmax);
        }
    };

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
    /// query gets tmax = bound; with filter, pairs that provably stay apart
    /// over [0, x's bound] skip the query. Returns the minimum of bound and
    /// every reported toi: a function of the set of pairs only, so the same
    /// for any order of the pairs and any thread count.
    template <typename StencilOf, typename CCD>
    double step_size_pass(std::size_t count, bool sample_only, double bound, bool filter,
                          const StencilOf& stencil_of, const StepPositions& x, const CCD& ccd, double kept)
    {
        struct Minimum {
            double value = 1.0;
        };
        const std::vector<Minimum> blocks = process_in_blocks<Minimum>(count, [&](std::size_t i, Minimum& m) {
            bool skip = false;
            const auto stencil = stencil_of(i, sample_only, skip);
            if (skip || (filter && stencil.stays_apart(x, kept))) {
                return;
            }
            double toi = bound;
            if (stencil.query(x, ccd, toi, bound)) {
                m.value = std::min(m.value, toi);
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
        // stop after one step) and filters against it.
        double alpha = 1.0;
        for (const bool sample_only : { true, false }) {
            if (!sample_only) {
                x.prepare_bound(alpha);
            }
            const bool filter = !sample_only;
            alpha = step_size_pass(sources.face_vertex_count, sample_only, alpha, filter, sources.face_vertex, x, ccd, kept);
            alpha = step_size_pass(sources.edge_edge_count, sample_only, alpha, filter, sources.edge_edge, x, ccd, kept);
            alpha = step_size_pass(sources.edge_vertex_count, sample_only, alpha, filter, sources.edge_vertex, x, ccd, kept);
            alpha = step_size_pass(sources.vertex_vertex_count, sample_only, alpha, filter, sources.vertex_vertex, x, ccd, kept);
        }
        return std::clamp(alpha, 0.0, 1.0);
    }

    /// Packs V0 and V1 (n x 3) per vertex.
    inline StepPositions pack_positions(const Eigen::Ref<const Eigen::MatrixXd>& V0,
                                        const Eigen::Ref<const Eigen::MatrixXd>& V1)
    {
        StepPositions x;
        x.start.resize(static_cast<std::size_t>(V0.rows()));
        x.end.resize(static_cast<std::size_t>(V0.rows()));
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
/// @param mesh          3D collision mesh (radii give the offsets)
/// @param V0, V1        positions at the start and end of the step (n x 3, m)
/// @param min_distance  extra offset added to every pair's xi (m), >= 0
/// @param ccd           the narrow phase (any type with is_ccd_method_v)
/// @return alpha in [0, 1]; 1 when no pair comes within its offset, 0 when a
///         pair starts at or inside its offset.
/// Throws ipc::invalid_argument for bad positions, sizes, min_distance or
/// out-of-range candidates, and whatever the CCD method throws on its input.
template <typename CCD = AdditiveCCD>
double collision_free_step_size(const Candidates& candidates, const CollisionMesh& mesh,
                                const Eigen::Ref<const Eigen::MatrixXd>& V0,
                                const Eigen::Ref<const Eigen::MatrixXd>& V1, double min_distance = 0,
                                const CCD& ccd = CCD())
{
    static_assert(is_ccd_method_v<CCD>, "collision_free_step_size: CCD must satisfy ipc::is_ccd_method_v");
    require(mesh.dim() == 3, "collision_free_step_size: only 3D meshes are supported, got a ", mesh.dim(),
            "D mesh");
    mesh.check_positions(V0, "collision_free_step_size: V0");
    mesh.check_positions(V1, "collision_free_step_size: V1");
    require(std::isfinite(min_distance) && min_distance >= 0,
            "collision_free_step_size: min_distance must be finite and non-negative, got ", min_distance);
    const Index nv = mesh.num_vertices(), ne = mesh.num_edges(), nf = mesh.num_faces();
    const detail::StencilMaker make { mesh, min_distance };
    const auto sources = detail::step_sources(
        candidates.face_vertex.size(),
        [&](std::size_t i, bool sample_only, bool& skip) {
            const FaceVertexCandidate& c = candidates.face_vertex[i];
            require(c.face >= 0 && c.face < nf && c.vertex >= 0 && c.vertex < nv,
                    "collision_free_step_size: face-vertex candidate out of range");
            skip = sample_only && !detail::in_sample(c.face, c.vertex);
            return skip ? detail::FaceVertexStencil {} : make.face_vertex(c.face, c.vertex);
        },
        candidates.edge_edge.size(),
        [&](std::size_t i, bool sample_only, bool& skip) {
            const EdgeEdgeCandidate& c = candidates.edge_edge[i];
            require(c.edge0 >= 0 && c.edge0 < ne && c.edge1 >= 0 && c.edge1 < ne,
                    "collision_free_step_size: edge-edge candidate out of range");
            skip = sample_only && !detail::in_sample(c.edge0, c.edge1);
            return skip ? detail::EdgeEdgeStencil {} : make.edge_edge(c.edge0, c.edge1);
        },
        candidates.edge_vertex.size(),
        [&](std::size_t i, bool sample_only, bool& skip) {
            const EdgeVertexCandidate& c = candidates.edge_vertex[i];
            require(c.edge >= 0 && c.edge < ne && c.vertex >= 0 && c.vertex < nv,
                    "collision_free_step_size: edge-vertex candidate out of range");
            skip = sample_only && !detail::in_sample(c.edge, c.vertex);
            return skip ? detail::EdgeVertexStencil {} : make.edge_vertex(c.edge, c.vertex);
        },
        candidates.vertex_vertex.size(),
        [&](std::size_t i, bool sample_only, bool& skip) {
            const VertexVertexCandidate& c = candidates.vertex_vertex[i];
            require(c.v0 >= 0 && c.v0 < nv && c.v1 >= 0 && c.v1 < nv,
                    "collision_free_step_size: vertex-vertex candidate out of range");
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
    require(mesh.dim() == 3, "collision_free_step_size: only 3D meshes are supported, got a ", mesh.dim(),
            "D mesh");
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
    const detail::CandidateKeys keys = detail::bvh_candidate_keys(mesh, boxes, false);
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

} // namespace ipc
