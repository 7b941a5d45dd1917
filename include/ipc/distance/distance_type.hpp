#pragma once
/// @file
/// Which closed-form formula gives the distance between two primitives (the
/// "distance type", i.e. which constraints of the closest-point problem are
/// active), and the classifiers that choose it.
///
/// The classifiers are exact Voronoi-region tests built from dot and cross
/// products (no linear solves), and they are robust to degenerate input:
///  - a zero-length edge is treated as its first endpoint (point-point);
///  - a zero-area or sliver triangle (sin^2 of the angle at t0 below machine
///    epsilon) never selects the plane formula P_T; the closest of its three
///    edges is used instead;
///  - parallel or nearly parallel edges (|ea x eb|^2 < epsilon |ea|^2 |eb|^2)
///    never select the line-line formula EA_EB; the closest endpoint-edge pair
///    is used instead;
///  - coincident points give the point-point type.
/// So the formula selected always has a safely nonzero denominator.
/// edge_edge_distance_type decides non-parallel pairs without branches by
/// clamping the two line parameters (the region of the constrained minimiser,
/// as the candidate search of the distance functions finds it, but cheaper
/// on unpredictable input). The
/// classifiers do not validate their input (NaN coordinates give an
/// unspecified type; the automatic distance functions detect them).

#include <ipc/distance/detail/stencil.hpp>

#include <string_view>
#include <type_traits>

namespace ipc {

/// Closest feature of the edge (e0, e1) to a point.
enum class PointEdgeDistanceType {
    P_E0, ///< the endpoint e0
    P_E1, ///< the endpoint e1
    P_E,  ///< the edge's interior (point-line formula)
};

/// Closest feature of the triangle (t0, t1, t2) to a point.
enum class PointTriangleDistanceType {
    P_T0, ///< vertex t0
    P_T1, ///< vertex t1
    P_T2, ///< vertex t2
    P_E0, ///< interior of edge t0-t1
    P_E1, ///< interior of edge t1-t2
    P_E2, ///< interior of edge t2-t0
    P_T,  ///< the triangle's interior (point-plane formula)
};

/// Closest features of the edges (ea0, ea1) and (eb0, eb1).
enum class EdgeEdgeDistanceType {
    EA0_EB0, ///< point-point ea0-eb0
    EA0_EB1, ///< point-point ea0-eb1
    EA1_EB0, ///< point-point ea1-eb0
    EA1_EB1, ///< point-point ea1-eb1
    EA_EB0,  ///< eb0 against the interior of edge a
    EA_EB1,  ///< eb1 against the interior of edge a
    EA0_EB,  ///< ea0 against the interior of edge b
    EA1_EB,  ///< ea1 against the interior of edge b
    EA_EB,   ///< both interiors (line-line formula)
};

/// Name of the enumerator, e.g. "P_E".
constexpr std::string_view to_string(PointEdgeDistanceType type)
{
    switch (type) {
    case PointEdgeDistanceType::P_E0: return "P_E0";
    case PointEdgeDistanceType::P_E1: return "P_E1";
    case PointEdgeDistanceType::P_E: return "P_E";
    }
    return "unknown PointEdgeDistanceType";
}

/// Name of the enumerator, e.g. "P_T".
constexpr std::string_view to_string(PointTriangleDistanceType type)
{
    switch (type) {
    case PointTriangleDistanceType::P_T0: return "P_T0";
    case PointTriangleDistanceType::P_T1: return "P_T1";
    case PointTriangleDistanceType::P_T2: return "P_T2";
    case PointTriangleDistanceType::P_E0: return "P_E0";
    case PointTriangleDistanceType::P_E1: return "P_E1";
    case PointTriangleDistanceType::P_E2: return "P_E2";
    case PointTriangleDistanceType::P_T: return "P_T";
    }
    return "unknown PointTriangleDistanceType";
}

/// Name of the enumerator, e.g. "EA_EB".
constexpr std::string_view to_string(EdgeEdgeDistanceType type)
{
    switch (type) {
    case EdgeEdgeDistanceType::EA0_EB0: return "EA0_EB0";
    case EdgeEdgeDistanceType::EA0_EB1: return "EA0_EB1";
    case EdgeEdgeDistanceType::EA1_EB0: return "EA1_EB0";
    case EdgeEdgeDistanceType::EA1_EB1: return "EA1_EB1";
    case EdgeEdgeDistanceType::EA_EB0: return "EA_EB0";
    case EdgeEdgeDistanceType::EA_EB1: return "EA_EB1";
    case EdgeEdgeDistanceType::EA0_EB: return "EA0_EB";
    case EdgeEdgeDistanceType::EA1_EB: return "EA1_EB";
    case EdgeEdgeDistanceType::EA_EB: return "EA_EB";
    }
    return "unknown EdgeEdgeDistanceType";
}

namespace detail {
    /// A distance type together with the squared distance it gives.
    template <typename Type, typename T> struct Classified {
        Type type;
        T distance_squared;
    };

    /// Relative threshold on sin^2 of an angle below which two directions
    /// count as parallel (edges) or a triangle counts as degenerate.
    template <typename T> inline T parallel_threshold()
    {
        return T(Eigen::NumTraits<T>::epsilon());
    }

    template <typename T, int DIM>
    inline Classified<PointEdgeDistanceType, T>
    classify_point_edge(const Vector<T, DIM>& p, const Vector<T, DIM>& e0, const Vector<T, DIM>& e1)
    {
        const Vector<T, DIM> e = e1 - e0;
        const Vector<T, DIM> q = p - e0;
        const T along = q.dot(e);
        if (!(along > T(0))) { // also a zero-length edge
            return { PointEdgeDistanceType::P_E0, q.squaredNorm() };
        }
        const T length_squared = e.squaredNorm();
        if (along >= length_squared) {
            return { PointEdgeDistanceType::P_E1, (p - e1).squaredNorm() };
        }
        const T t = along / length_squared;
        return { PointEdgeDistanceType::P_E, (q - t * e).squaredNorm() };
    }

    template <typename T>
    inline Classified<PointTriangleDistanceType, T> classify_point_triangle(
        const Vector<T, 3>& p, const Vector<T, 3>& t0, const Vector<T, 3>& t1, const Vector<T, 3>& t2)
    {
        using Type = PointTriangleDistanceType;
        const Vector<T, 3> e1 = t1 - t0;
        const Vector<T, 3> e2 = t2 - t0;
        const Vector<T, 3> q = p - t0;
        const Vector<T, 3> n = e1.cross(e2);
        const T nn = n.squaredNorm();
        static constexpr Type map[3][3] = {
            { Type::P_T0, Type::P_T1, Type::P_E0 },
            { Type::P_T1, Type::P_T2, Type::P_E1 },
            { Type::P_T2, Type::P_T0, Type::P_E2 },
        };
        if (nn > parallel_threshold<T>() * e1.squaredNorm() * e2.squaredNorm()) {
            // Barycentric coordinates of the projection, times |n|^2.
            const T b1 = n.dot(q.cross(e2));
            const T b2 = n.dot(e1.cross(q));
            const bool outside0 = b1 + b2 > nn; // weight of t0 negative
            const bool outside1 = b1 < T(0);
            const bool outside2 = b2 < T(0);
            if (!outside0 && !outside1 && !outside2) {
                const T h = q.dot(n);
                return { Type::P_T, h * h / nn };
            }
            // The squared distance is convex, so its minimum over the triangle
            // lies on an edge whose barycentric constraint the unconstrained
            // minimiser violates (opposite a negative weight): at most two
            // candidates, tested in the same order as the general case below.
            bool have = false;
            Classified<Type, T> best { Type::P_T, T(0) };
            const auto consider = [&](int edge, const Classified<PointEdgeDistanceType, T>& c) {
                if (!have || c.distance_squared < best.distance_squared) {
                    best = { map[edge][int(c.type)], c.distance_squared };
                    have = true;
                }
            };
            if (outside2) {
                consider(0, classify_point_edge<T, 3>(p, t0, t1));
            }
            if (outside0) {
                consider(1, classify_point_edge<T, 3>(p, t1, t2));
            }
            if (outside1) {
                consider(2, classify_point_edge<T, 3>(p, t2, t0));
            }
            return best;
        }
        // Degenerate triangle: the closest of the three edges (the squared
        // distance is convex, so its minimum lies on the boundary).
        const auto c0 = classify_point_edge<T, 3>(p, t0, t1);
        const auto c1 = classify_point_edge<T, 3>(p, t1, t2);
        const auto c2 = classify_point_edge<T, 3>(p, t2, t0);
        Classified<Type, T> best { map[0][int(c0.type)], c0.distance_squared };
        if (c1.distance_squared < best.distance_squared) {
            best = { map[1][int(c1.type)], c1.distance_squared };
        }
        if (c2.distance_squared < best.distance_squared) {
            best = { map[2][int(c2.type)], c2.distance_squared };
        }
        return best;
    }

    /// Scalar 3-vector helpers for the edge-edge classifier: the same
    /// operations in the same order as Eigen's fixed-size dot, cross and
    /// squaredNorm, without the shuffles that partial vectorisation of
    /// 3-vectors costs.
    template <typename T> inline T dot3(const T* a, const T* b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
    template <typename T> inline void cross3(const T* a, const T* b, T* out)
    {
        out[0] = a[1] * b[2] - a[2] * b[1];
        out[1] = a[2] * b[0] - a[0] * b[2];
        out[2] = a[0] * b[1] - a[1] * b[0];
    }
    template <typename T> inline void sub3(const T* a, const T* b, T* out)
    {
        out[0] = a[0] - b[0];
        out[1] = a[1] - b[1];
        out[2] = a[2] - b[2];
    }

    /// A stencil point as something with contiguous coordinates: the
    /// argument itself when it has direct access (vectors, segments, maps),
    /// an evaluated copy otherwise. Reading the caller's coordinates in place
    /// avoids store-to-load forwarding stalls of freshly copied vectors.
    template <typename D>
    using contiguous_point_t = std::conditional_t<
        bool(int(Eigen::internal::traits<D>::Flags) & Eigen::DirectAccessBit) && int(D::InnerStrideAtCompileTime) == 1,
        const D&, const Vector<typename D::Scalar, 3>>;

    /// Shared quantities of two segments ea0 + s u, eb0 + t v (s, t in
    /// [0, 1]): the endpoint differences w = ea0 - eb0, w01 = ea0 - eb1,
    /// w10 = ea1 - eb0, w11 = ea1 - eb1, m = u x v, mm = |m|^2, a = |u|^2,
    /// c = |v|^2, from contiguous coordinates of ea0, ea1, eb0, eb1.
    template <typename T> struct EdgeEdgeGeometry {
        T u[3], v[3], w[3], w01[3], w10[3], w11[3], m[3];
        T mm, a, c;
        /// Nearly parallel (or a zero-length edge): the line-line formula is
        /// never used (see the file comment).
        bool parallel() const { return !(mm > parallel_threshold<T>() * a * c); }
    };

    template <typename T>
    inline EdgeEdgeGeometry<T> edge_edge_geometry(const T* ea0, const T* ea1, const T* eb0, const T* eb1)
    {
        EdgeEdgeGeometry<T> g;
        sub3(ea1, ea0, g.u);
        sub3(eb1, eb0, g.v);
        sub3(ea0, eb0, g.w);
        sub3(ea0, eb1, g.w01);
        sub3(ea1, eb0, g.w10);
        sub3(ea1, eb1, g.w11);
        cross3(g.u, g.v, g.m);
        g.mm = dot3(g.m, g.m);
        g.a = dot3(g.u, g.u);
        g.c = dot3(g.v, g.v);
        return g;
    }

    /// The same from the stencil's points, read in place where they are
    /// contiguous (see contiguous_point_t).
    template <typename DA0, typename DA1, typename DB0, typename DB1>
    inline EdgeEdgeGeometry<typename DA0::Scalar> edge_edge_geometry(
        const Eigen::MatrixBase<DA0>& ea0, const Eigen::MatrixBase<DA1>& ea1,
        const Eigen::MatrixBase<DB0>& eb0, const Eigen::MatrixBase<DB1>& eb1)
    {
        using T = typename DA0::Scalar;
        const contiguous_point_t<DA0> a0 = ea0.derived();
        const contiguous_point_t<DA1> a1 = ea1.derived();
        const contiguous_point_t<DB0> b0 = eb0.derived();
        const contiguous_point_t<DB1> b1 = eb1.derived();
        return edge_edge_geometry<T>(a0.data(), a1.data(), b0.data(), b1.data());
    }

    /// Closest points ea0 + s u and eb0 + t v of two segments that are not
    /// nearly parallel, with the state of each parameter (0: at 0, 1: inside,
    /// 2: at 1); the states name the region.
    template <typename T> struct EdgeEdgeClosestParameters {
        T s, t;
        int s_state, t_state;
    };

    /// The constrained minimiser of |w + s u - t v|^2 over the unit square
    /// for segments that are not nearly parallel, found by clamping (the
    /// squared distance is convex in (s, t)): s is clamped to [0, 1], t is
    /// optimised for that s and clamped, and if t was clamped s is optimised
    /// again for that end of b. The unconstrained parameters come from the
    /// Lagrange-identity forms s mm = m . (v x w), t mm = m . (u x w)
    /// (accurate near the interior/boundary decision, the same test as
    /// classify_edge_edge); the rest from the Gram entries. Every comparison
    /// is independent of the others and the decisions combine by selects and
    /// small table lookups, so random input costs no branch mispredictions.
    /// Agrees with classify_edge_edge's region. With ExactFarEnds, the
    /// numerators at the far ends are dot products with the endpoint
    /// differences w01, w10 themselves rather than d - b and b + e
    /// (b = u . v): the numerators of the point-line formulas, so that a
    /// distance formed from these parameters equals the typed formula's to
    /// the last bit (two more dot products).
    template <typename T, bool ExactFarEnds = false>
    IPC_ALWAYS_INLINE EdgeEdgeClosestParameters<T> nonparallel_edge_edge_parameters(const EdgeEdgeGeometry<T>& g)
    {
        T vw[3], uw[3];
        cross3(g.v, g.w, vw);
        cross3(g.u, g.w, uw);
        const T s_num = dot3(g.m, vw);
        const T t_num = dot3(g.m, uw);
        const T d = dot3(g.u, g.w);
        const T e = dot3(g.v, g.w);
        T d1, e1; // (ea0 - eb1) . u = d - b and (ea1 - eb0) . v = b + e
        if constexpr (ExactFarEnds) {
            d1 = dot3(g.u, g.w01);
            e1 = dot3(g.v, g.w10);
        } else {
            const T b = dot3(g.u, g.v);
            d1 = d - b;
            e1 = b + e;
        }
        // State of x / den: 0 at or below 0, 1 inside, 2 at or above 1.
        const auto state = [](const T& x, const T& den) { return int(x > T(0)) + int(!(x < den)); };
        const int s_state = state(s_num, g.mm);
        // t optimal for the clamped s: for s = 0, free (s inside), for s = 1.
        const T t_nums[3] = { e, t_num, e1 };
        const T t_dens[3] = { g.c, g.mm, g.c };
        const int t_states[3] = { state(e, g.c), state(t_num, g.mm), state(e1, g.c) };
        const int t_state = t_states[s_state];
        // s optimal for the clamped t: for t = 0, (s kept), for t = 1.
        const T s_nums[3] = { -d, s_num, -d1 };
        const T s_dens[3] = { g.a, g.mm, g.a };
        const int s_states[3] = { state(-d, g.a), s_state, state(-d1, g.a) };
        const int s_final = s_states[t_state];
        // Both quotients are formed whether or not they are used (their
        // denominators are positive here) and picked by index: a branch
        // around the division is mispredicted on random input (automatic
        // gradient 29.8 -> 22.6 ns on 10^6 random configurations).
        const T t_values[3] = { T(0), T(t_nums[s_state] / t_dens[s_state]), T(1) };
        const T s_values[3] = { T(0), T(s_nums[t_state] / s_dens[t_state]), T(1) };
        EdgeEdgeClosestParameters<T> p;
        p.s_state = s_final;
        p.t_state = t_state;
        p.t = t_values[t_state];
        p.s = s_values[s_final];
        return p;
    }

    /// Region of the closest points of two segments that are not nearly
    /// parallel (see nonparallel_edge_edge_parameters).
    template <typename T> inline EdgeEdgeDistanceType nonparallel_edge_edge_region(const EdgeEdgeGeometry<T>& g)
    {
        using Type = EdgeEdgeDistanceType;
        // [state of s][state of t]
        static constexpr Type map[3][3] = {
            { Type::EA0_EB0, Type::EA0_EB, Type::EA0_EB1 },
            { Type::EA_EB0, Type::EA_EB, Type::EA_EB1 },
            { Type::EA1_EB0, Type::EA1_EB, Type::EA1_EB1 },
        };
        const EdgeEdgeClosestParameters<T> p = nonparallel_edge_edge_parameters<T>(g);
        return map[p.s_state][p.t_state];
    }

    template <typename T>
    inline Classified<EdgeEdgeDistanceType, T> classify_edge_edge(
        const Vector<T, 3>& ea0, const Vector<T, 3>& ea1, const Vector<T, 3>& eb0,
        const Vector<T, 3>& eb1)
    {
        using Type = EdgeEdgeDistanceType;
        const Vector<T, 3> u = ea1 - ea0;
        const Vector<T, 3> v = eb1 - eb0;
        const Vector<T, 3> w = ea0 - eb0;
        const Vector<T, 3> m = u.cross(v);
        const T mm = m.squaredNorm();
        static constexpr Type map[4][3] = {
            { Type::EA0_EB0, Type::EA0_EB1, Type::EA0_EB },
            { Type::EA1_EB0, Type::EA1_EB1, Type::EA1_EB },
            { Type::EA0_EB0, Type::EA1_EB0, Type::EA_EB0 },
            { Type::EA0_EB1, Type::EA1_EB1, Type::EA_EB1 },
        };
        if (mm > parallel_threshold<T>() * u.squaredNorm() * v.squaredNorm()) {
            // Line parameters of the closest points, times |m|^2
            // (Lagrange's identity form of Sunday's sN and tN).
            const T s = m.dot(v.cross(w));
            const T t = m.dot(u.cross(w));
            if (s > T(0) && s < mm && t > T(0) && t < mm) {
                const T h = w.dot(m);
                return { Type::EA_EB, h * h / mm };
            }
            // The squared distance is a convex function of (s, t), so its
            // minimum over the unit square lies on a side that the
            // unconstrained minimiser violates: at most two of the four
            // endpoint-edge candidates, tested in the general case's order.
            bool have = false;
            Classified<Type, T> best { Type::EA_EB, T(0) };
            const auto consider = [&](int side, const Classified<PointEdgeDistanceType, T>& c) {
                if (!have || c.distance_squared < best.distance_squared) {
                    best = { map[side][int(c.type)], c.distance_squared };
                    have = true;
                }
            };
            if (!(s > T(0))) {
                consider(0, classify_point_edge<T, 3>(ea0, eb0, eb1));
            }
            if (!(s < mm)) {
                consider(1, classify_point_edge<T, 3>(ea1, eb0, eb1));
            }
            if (!(t > T(0))) {
                consider(2, classify_point_edge<T, 3>(eb0, ea0, ea1));
            }
            if (!(t < mm)) {
                consider(3, classify_point_edge<T, 3>(eb1, ea0, ea1));
            }
            return best;
        }
        // Parallel edges: the four endpoint-edge distances.
        const auto c0 = classify_point_edge<T, 3>(ea0, eb0, eb1);
        Classified<Type, T> best { map[0][int(c0.type)], c0.distance_squared };
        const auto c1 = classify_point_edge<T, 3>(ea1, eb0, eb1);
        if (c1.distance_squared < best.distance_squared) {
            best = { map[1][int(c1.type)], c1.distance_squared };
        }
        const auto c2 = classify_point_edge<T, 3>(eb0, ea0, ea1);
        if (c2.distance_squared < best.distance_squared) {
            best = { map[2][int(c2.type)], c2.distance_squared };
        }
        const auto c3 = classify_point_edge<T, 3>(eb1, ea0, ea1);
        if (c3.distance_squared < best.distance_squared) {
            best = { map[3][int(c3.type)], c3.distance_squared };
        }
        return best;
    }
} // namespace detail

/// Closest feature of the edge (e0, e1) to the point p (2D or 3D).
template <typename DP, typename D0, typename D1>
inline PointEdgeDistanceType point_edge_distance_type(
    const Eigen::MatrixBase<DP>& p, const Eigen::MatrixBase<D0>& e0, const Eigen::MatrixBase<D1>& e1)
{
    using Traits = detail::stencil_traits<DP, D0, D1>;
    using T = typename Traits::Scalar;
    constexpr int DIM = Traits::dim;
    return detail::classify_point_edge<T, DIM>(p, e0, e1).type;
}

/// Closest feature of the triangle (t0, t1, t2) to the point p (3D).
template <typename DP, typename D0, typename D1, typename D2>
inline PointTriangleDistanceType point_triangle_distance_type(
    const Eigen::MatrixBase<DP>& p, const Eigen::MatrixBase<D0>& t0,
    const Eigen::MatrixBase<D1>& t1, const Eigen::MatrixBase<D2>& t2)
{
    using Traits = detail::stencil_traits<DP, D0, D1, D2>;
    static_assert(Traits::dim == 3, "point-triangle distance is 3D only");
    return detail::classify_point_triangle<typename Traits::Scalar>(p, t0, t1, t2).type;
}

/// Closest features of the edges (ea0, ea1) and (eb0, eb1) (3D).
template <typename DA0, typename DA1, typename DB0, typename DB1>
inline EdgeEdgeDistanceType edge_edge_distance_type(
    const Eigen::MatrixBase<DA0>& ea0, const Eigen::MatrixBase<DA1>& ea1,
    const Eigen::MatrixBase<DB0>& eb0, const Eigen::MatrixBase<DB1>& eb1)
{
    using Traits = detail::stencil_traits<DA0, DA1, DB0, DB1>;
    static_assert(Traits::dim == 3, "edge-edge distance is 3D only");
    using T = typename Traits::Scalar;
    const detail::EdgeEdgeGeometry<T> g = detail::edge_edge_geometry(ea0, ea1, eb0, eb1);
    if (!g.parallel()) {
        return detail::nonparallel_edge_edge_region<T>(g);
    }
    return detail::classify_edge_edge<T>(ea0, ea1, eb0, eb1).type;
}

} // namespace ipc
