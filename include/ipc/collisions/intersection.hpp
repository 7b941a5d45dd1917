#pragma once
/// @file
/// Exact intersection test of a mesh configuration: does any edge cross or
/// touch a triangle (3D), or any edge cross or touch another edge (2D)?
///
/// The orientation predicates are exact: a floating-point evaluation with
/// Shewchuk's static error bound decides whenever it can, and an exact
/// evaluation with floating-point expansions (error-free sums and products)
/// decides the rest. Results are exact for finite inputs barring overflow or
/// underflow of the products involved (coordinates roughly within
/// [1e-100, 1e100] in magnitude, or zero). Points sharing a coordinate
/// exactly (flat, axis-aligned sheets) are decided without expansions, and
/// the expansions live on the stack, so exactly flat input costs about as
/// much as perturbed input.

#include <ipc/broad_phase/aabb.hpp>
#include <ipc/broad_phase/bvh.hpp>
#include <ipc/core/error.hpp>
#include <ipc/core/parallel.hpp>
#include <ipc/mesh/collision_mesh.hpp>

#include <Eigen/Core>

#include <algorithm>
#include <array>
#include <atomic>
#include <exception>
#include <initializer_list>
#include <mutex>
#include <cmath>
#include <vector>

namespace ipc {
namespace detail {

    // ------------------------------------------------------------------
    // Floating-point expansions: a sum of doubles, nonoverlapping, in
    // increasing order of magnitude, zeros dropped. Used only on the inputs
    // the filters cannot decide (coplanar and collinear points among them,
    // which flat meshes produce for every nearby pair), so they live on the
    // stack with a capacity fixed at compile time and cost no allocation.

    /// An exact sum of at most Capacity nonzero doubles (see above).
    template <int Capacity> class Expansion {
    public:
        int size() const { return size_; }
        double operator[](int i) const { return terms_[i]; }

        /// Appends x (of larger magnitude than every term) unless it is zero.
        void append_nonzero(double x)
        {
            if (x != 0.0) {
                terms_[size_++] = x;
            }
        }

        void negate()
        {
            for (int i = 0; i < size_; ++i) {
                terms_[i] = -terms_[i];
            }
        }

        /// Sign (-1, 0, 1) of the sum: that of its largest term.
        int sign() const { return size_ == 0 ? 0 : (terms_[size_ - 1] > 0.0 ? 1 : -1); }

    private:
        double terms_[Capacity]; // only [0, size_) is ever read
        int size_ = 0;
    };

    /// sum + error == a + b exactly (Knuth's branch-free two-sum).
    inline void two_sum(double a, double b, double& sum, double& error)
    {
        sum = a + b;
        const double b_virtual = sum - a;
        const double a_virtual = sum - b_virtual;
        error = (a - a_virtual) + (b - b_virtual);
    }

    /// product + error == a * b exactly (the error from a fused multiply-add).
    inline void two_product(double a, double b, double& product, double& error)
    {
        product = a * b;
        error = std::fma(a, b, -product);
    }

    /// difference = a - b, exact (at most two terms); difference must be empty.
    inline void exact_difference(double a, double b, Expansion<2>& difference)
    {
        double rounded, error;
        two_sum(a, -b, rounded, error);
        difference.append_nonzero(error);
        difference.append_nonzero(rounded);
    }

    /// sum = e + f, exact: the terms of both merged by magnitude, then
    /// accumulated smallest first, each rounding error kept as a term
    /// (Shewchuk's fast expansion sum; needs the default round-to-nearest
    /// mode, as the filters do). sum must be another object.
    template <int A, int B, int C>
    void add_expansions(const Expansion<A>& e, const Expansion<B>& f, Expansion<C>& sum)
    {
        static_assert(C >= A + B, "the sum needs room for every term of both");
        int i = 0, j = 0;
        const auto next_smallest = [&]() {
            if (j == f.size() || (i < e.size() && std::abs(e[i]) < std::abs(f[j]))) {
                return e[i++];
            }
            return f[j++];
        };
        const int count = e.size() + f.size();
        if (count == 0) {
            return;
        }
        double running = next_smallest();
        for (int k = 1; k < count; ++k) {
            double total, error;
            two_sum(running, next_smallest(), total, error);
            sum.append_nonzero(error);
            running = total;
        }
        sum.append_nonzero(running);
    }

    /// product = e * b, exact (Shewchuk's scale expansion). product must be
    /// another object.
    template <int A, int C> void scale_expansion(const Expansion<A>& e, double b, Expansion<C>& product)
    {
        static_assert(C >= 2 * A, "a scaled expansion can double its length");
        if (e.size() == 0) {
            return;
        }
        double running, error;
        two_product(e[0], b, running, error);
        product.append_nonzero(error);
        for (int i = 1; i < e.size(); ++i) {
            double high, low, partial, total;
            two_product(e[i], b, high, low);
            two_sum(running, low, partial, error);
            product.append_nonzero(error);
            two_sum(high, partial, total, error);
            product.append_nonzero(error);
            running = total;
        }
        product.append_nonzero(running);
    }

    /// product = e * f for an f of at most two terms (a coordinate
    /// difference), exact. product must be another object.
    template <int A, int C>
    void multiply_by_difference(const Expansion<A>& e, const Expansion<2>& f, Expansion<C>& product)
    {
        static_assert(C >= 4 * A, "the product needs room for both scaled copies");
        Expansion<2 * A> by_low, by_high;
        if (f.size() > 0) {
            scale_expansion(e, f[0], by_low);
        }
        if (f.size() > 1) {
            scale_expansion(e, f[1], by_high);
        }
        add_expansions(by_low, by_high, product);
    }

    constexpr double machine_epsilon = 1.1102230246251565e-16; // 2^-53

    /// Sign of det[a - c; b - c] (2D): positive when a, b, c turn
    /// counter-clockwise. Exact.
    inline int orient2d(const double* a, const double* b, const double* c)
    {
        const double left = (a[0] - c[0]) * (b[1] - c[1]);
        const double right = (a[1] - c[1]) * (b[0] - c[0]);
        const double det = left - right;
        const double bound = (3.0 + 16.0 * machine_epsilon) * machine_epsilon * (std::abs(left) + std::abs(right));
        if (det > bound) {
            return 1;
        }
        if (-det > bound) {
            return -1;
        }
        // Points sharing a coordinate exactly are collinear (a difference of
        // doubles is zero only when they are equal): the common case of
        // axis-aligned input, decided without expansions.
        if ((a[0] == c[0] && b[0] == c[0]) || (a[1] == c[1] && b[1] == c[1])) {
            return 0;
        }
        Expansion<2> acx, bcy, acy, bcx;
        exact_difference(a[0], c[0], acx);
        exact_difference(b[1], c[1], bcy);
        exact_difference(a[1], c[1], acy);
        exact_difference(b[0], c[0], bcx);
        Expansion<8> positive, negative;
        multiply_by_difference(acx, bcy, positive);
        multiply_by_difference(acy, bcx, negative);
        negative.negate();
        Expansion<16> total;
        add_expansions(positive, negative, total);
        return total.sign();
    }

    /// Sign of det[a - d; b - d; c - d] (3D). Exact.
    inline int orient3d(const double* a, const double* b, const double* c, const double* d)
    {
        const double adx = a[0] - d[0], bdx = b[0] - d[0], cdx = c[0] - d[0];
        const double ady = a[1] - d[1], bdy = b[1] - d[1], cdy = c[1] - d[1];
        const double adz = a[2] - d[2], bdz = b[2] - d[2], cdz = c[2] - d[2];
        const double bdxcdy = bdx * cdy, cdxbdy = cdx * bdy;
        const double cdxady = cdx * ady, adxcdy = adx * cdy;
        const double adxbdy = adx * bdy, bdxady = bdx * ady;
        const double det = adz * (bdxcdy - cdxbdy) + bdz * (cdxady - adxcdy) + cdz * (adxbdy - bdxady);
        const double permanent = (std::abs(bdxcdy) + std::abs(cdxbdy)) * std::abs(adz)
            + (std::abs(cdxady) + std::abs(adxcdy)) * std::abs(bdz)
            + (std::abs(adxbdy) + std::abs(bdxady)) * std::abs(cdz);
        const double bound = (7.0 + 56.0 * machine_epsilon) * machine_epsilon * permanent;
        if (det > bound) {
            return 1;
        }
        if (-det > bound) {
            return -1;
        }
        // Four points sharing a coordinate exactly lie in an axis-aligned
        // plane (a zero column; a difference of doubles is zero only when
        // they are equal): flat input, decided without expansions.
        if ((adx == 0.0 && bdx == 0.0 && cdx == 0.0) || (ady == 0.0 && bdy == 0.0 && cdy == 0.0)
            || (adz == 0.0 && bdz == 0.0 && cdz == 0.0)) {
            return 0;
        }
        Expansion<2> differences[3][3]; // row (a, b, c minus d), coordinate
        for (int k = 0; k < 3; ++k) {
            exact_difference(a[k], d[k], differences[0][k]);
            exact_difference(b[k], d[k], differences[1][k]);
            exact_difference(c[k], d[k], differences[2][k]);
        }
        // Expands along the z column: sum over rows r of z_r times the 2x2
        // minor of the other two rows, x_r0 * y_r1 - x_r1 * y_r0.
        Expansion<64> cofactor_terms[3];
        const int minor_rows[3][2] = { { 1, 2 }, { 2, 0 }, { 0, 1 } };
        for (int r = 0; r < 3; ++r) {
            const int r0 = minor_rows[r][0], r1 = minor_rows[r][1];
            Expansion<8> positive, negative;
            multiply_by_difference(differences[r0][0], differences[r1][1], positive);
            multiply_by_difference(differences[r1][0], differences[r0][1], negative);
            negative.negate();
            Expansion<16> minor;
            add_expansions(positive, negative, minor);
            multiply_by_difference(minor, differences[r][2], cofactor_terms[r]);
        }
        Expansion<128> first_two;
        add_expansions(cofactor_terms[0], cofactor_terms[1], first_two);
        Expansion<192> total;
        add_expansions(first_two, cofactor_terms[2], total);
        return total.sign();
    }

    /// True when p lies on the closed segment [a, b], given that the three
    /// points are collinear (exact comparisons).
    inline bool on_collinear_segment(const double* p, const double* a, const double* b, int dim)
    {
        for (int k = 0; k < dim; ++k) {
            if (p[k] < std::min(a[k], b[k]) || p[k] > std::max(a[k], b[k])) {
                return false;
            }
        }
        return true;
    }

    /// Closed 2D segments [p, q] and [a, b] share a point. Exact.
    inline bool segments_intersect_2d(const double* p, const double* q, const double* a, const double* b)
    {
        const int o1 = orient2d(p, q, a), o2 = orient2d(p, q, b);
        const int o3 = orient2d(a, b, p), o4 = orient2d(a, b, q);
        if (o1 * o2 < 0 && o3 * o4 < 0) {
            return true;
        }
        return (o1 == 0 && on_collinear_segment(a, p, q, 2)) || (o2 == 0 && on_collinear_segment(b, p, q, 2))
            || (o3 == 0 && on_collinear_segment(p, a, b, 2)) || (o4 == 0 && on_collinear_segment(q, a, b, 2));
    }

    /// Closed segment [p, q] and closed triangle (a, b, c) in 3D share a
    /// point. Exact. Throws ipc::degenerate_geometry when the segment lies in
    /// the triangle's plane and the triangle's vertices are collinear.
    inline bool segment_triangle_intersect(
        const double* p, const double* q, const double* a, const double* b, const double* c, Index face)
    {
        const int sp = orient3d(a, b, c, p), sq = orient3d(a, b, c, q);
        if (sp * sq > 0) {
            return false;
        }
        if (sp != 0 || sq != 0) {
            // The segment meets the plane in one point; it is inside the closed
            // triangle when the line pq passes on the same side of all edges.
            const int t0 = orient3d(p, q, a, b), t1 = orient3d(p, q, b, c), t2 = orient3d(p, q, c, a);
            const bool has_positive = t0 > 0 || t1 > 0 || t2 > 0;
            const bool has_negative = t0 < 0 || t1 < 0 || t2 < 0;
            return !(has_positive && has_negative);
        }
        // Coplanar: drop the axis along which the triangle does not flatten.
        for (int drop = 2; drop >= 0; --drop) {
            const int u = drop == 0 ? 1 : 0, v = drop == 2 ? 1 : 2;
            const double a2[2] = { a[u], a[v] }, b2[2] = { b[u], b[v] }, c2[2] = { c[u], c[v] };
            const int orientation = orient2d(a2, b2, c2);
            if (orientation == 0) {
                continue;
            }
            const double p2[2] = { p[u], p[v] }, q2[2] = { q[u], q[v] };
            const auto inside = [&](const double* x) {
                return orient2d(a2, b2, x) * orientation >= 0 && orient2d(b2, c2, x) * orientation >= 0
                    && orient2d(c2, a2, x) * orientation >= 0;
            };
            return inside(p2) || inside(q2) || segments_intersect_2d(p2, q2, a2, b2)
                || segments_intersect_2d(p2, q2, b2, c2) || segments_intersect_2d(p2, q2, c2, a2);
        }
        throw degenerate_geometry(
            concat("face ", face, " is degenerate (collinear vertices) where an edge lies in its plane"));
    }

    /// Exact bounding box of rows of V (no inflation).
    template <int N> AABB raw_box(const Eigen::Ref<const Eigen::MatrixXd>& V, const int (&rows)[N])
    {
        AABB box = point_box(V, rows[0]);
        for (int k = 1; k < N; ++k) {
            expand(box, V, rows[k]);
        }
        return box;
    }

    /// The exact test of has_intersections for one pair: edge e against
    /// `other`, a face in 3D or, in 2D, an edge of higher index (each pair
    /// once). Pairs that share a vertex never cross. Holds a row-major copy
    /// of the positions, so each point is three contiguous doubles.
    class CrossingTest {
    public:
        CrossingTest(const CollisionMesh& mesh, const Eigen::Ref<const Eigen::MatrixXd>& V)
            : mesh_(mesh)
            , E_(mesh.edges())
            , F_(mesh.faces())
            , three_d_(mesh.dim() == 3)
            , points_(Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>::Zero(V.rows(), 3))
        {
            points_.leftCols(V.cols()) = V;
        }

        bool crosses(Index e, Index other) const
        {
            const int e0 = E_(e, 0), e1 = E_(e, 1);
            if (three_d_) {
                const int a = F_(other, 0), b = F_(other, 1), c = F_(other, 2);
                if (e0 == a || e0 == b || e0 == c || e1 == a || e1 == b || e1 == c
                    || all_prescribed({ e0, e1, a, b, c })
                    || !mesh_.collision_filter().allows(std::array<int, 2> { { e0, e1 } }, std::array<int, 3> { { a, b, c } })) {
                    return false;
                }
                return segment_triangle_intersect(point(e0), point(e1), point(a), point(b), point(c), other);
            }
            const int a = E_(other, 0), b = E_(other, 1);
            if (other <= e || e0 == a || e0 == b || e1 == a || e1 == b || all_prescribed({ e0, e1, a, b })
                || !mesh_.collision_filter().allows(std::array<int, 2> { { e0, e1 } }, std::array<int, 2> { { a, b } })) {
                return false;
            }
            return segments_intersect_2d(point(e0), point(e1), point(a), point(b));
        }

    private:
        const double* point(int v) const { return points_.data() + 3 * Index(v); }

        /// Pairs of prescribed vertices only (obstacles against obstacles)
        /// are not contact pairs and are not tested.
        bool all_prescribed(std::initializer_list<int> vertices) const
        {
            if (!mesh_.has_prescribed_vertices()) {
                return false;
            }
            for (const int v : vertices) {
                if (!mesh_.is_prescribed(v)) {
                    return false;
                }
            }
            return true;
        }

        const CollisionMesh& mesh_;
        const Eigen::MatrixXi& E_;
        const Eigen::MatrixXi& F_;
        bool three_d_;
        Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor> points_;
    };

    /// The first intersecting pair of has_intersections: the lowest edge
    /// that meets some face (3D) or later edge (2D), with the lowest such
    /// face or edge as `other`; both -1 when there is none. Serial, so the
    /// pair named does not depend on the thread count (meant for messages,
    /// after has_intersections said yes). V must already be validated.
    struct IntersectingPair {
        Index edge = -1;  ///< row of mesh.edges()
        Index other = -1; ///< row of mesh.faces() (3D) or mesh.edges() (2D)
    };
    inline IntersectingPair first_intersecting_pair(const CollisionMesh& mesh, const Eigen::Ref<const Eigen::MatrixXd>& V)
    {
        const Eigen::MatrixXi& E = mesh.edges();
        const Eigen::MatrixXi& F = mesh.faces();
        const bool three_d = mesh.dim() == 3;
        std::vector<AABB> boxes(size_t(three_d ? mesh.num_faces() : mesh.num_edges()));
        for (Index i = 0; i < Index(boxes.size()); ++i) {
            if (three_d) {
                const int rows[3] = { F(i, 0), F(i, 1), F(i, 2) };
                boxes[size_t(i)] = raw_box(V, rows);
            } else {
                const int rows[2] = { E(i, 0), E(i, 1) };
                boxes[size_t(i)] = raw_box(V, rows);
            }
        }
        const BVH bvh(boxes);
        const CrossingTest test(mesh, V);
        for (Index e = 0; e < mesh.num_edges(); ++e) {
            const int rows[2] = { E(e, 0), E(e, 1) };
            Index best = -1;
            bvh.query(raw_box(V, rows), [&](Index other) {
                if ((best < 0 || other < best) && test.crosses(e, other)) {
                    best = other;
                }
            });
            if (best >= 0) {
                return { e, best };
            }
        }
        return {};
    }

} // namespace detail

/// True when the configuration V (n x dim, metres) intersects: in 3D some
/// edge of the mesh (face edge or rod edge) and some face share a point, in
/// 2D two edges share a point. Touching counts as intersecting (IPC needs a
/// strictly positive distance); pairs that share a vertex are not tested.
/// Radii are ignored (this is about the mid-surfaces). Pairs whose vertices
/// are all prescribed (obstacles against obstacles) are not tested, nor are
/// pairs the mesh's collision filter rules out (no (edge vertex, face or
/// other edge vertex) pair may collide, see collision_filter.hpp): bodies
/// that may not collide may pass through each other. Codimension-2 contacts
/// (rod crossing rod, a particle on a face) are not reported.
/// Validates V (throws ipc::invalid_argument); throws
/// ipc::degenerate_geometry for a collinear face met by a coplanar edge.
inline bool has_intersections(const CollisionMesh& mesh, const Eigen::Ref<const Eigen::MatrixXd>& V)
{
    mesh.check_positions(V, "has_intersections: positions V");
    const Eigen::MatrixXi& E = mesh.edges();
    const Eigen::MatrixXi& F = mesh.faces();
    std::vector<AABB> edge_boxes(size_t(mesh.num_edges()));
    parallel_for(0, mesh.num_edges(), [&](std::ptrdiff_t e) {
        const int rows[2] = { E(e, 0), E(e, 1) };
        edge_boxes[size_t(e)] = detail::raw_box(V, rows);
    });
    const detail::CrossingTest test(mesh, V);

    std::atomic<bool> found(false);
    std::exception_ptr error;
    std::mutex error_mutex;
    const std::ptrdiff_t num_blocks = std::max<std::ptrdiff_t>(1, std::min<std::ptrdiff_t>(mesh.num_edges() / 256 + 1, 8 * max_threads()));
    const std::ptrdiff_t n = mesh.num_edges();
    if (mesh.dim() == 3) {
        std::vector<AABB> face_boxes(size_t(mesh.num_faces()));
        parallel_for(0, mesh.num_faces(), [&](std::ptrdiff_t f) {
            const int rows[3] = { F(f, 0), F(f, 1), F(f, 2) };
            face_boxes[size_t(f)] = detail::raw_box(V, rows);
        });
        const BVH bvh(face_boxes);
        parallel_for(0, num_blocks, [&](std::ptrdiff_t block) {
            try {
            for (std::ptrdiff_t e = n * block / num_blocks; e < n * (block + 1) / num_blocks; ++e) {
                if (found.load(std::memory_order_relaxed)) {
                    return;
                }
                bvh.query(edge_boxes[size_t(e)], [&](Index f) {
                    if (test.crosses(e, f)) {
                        found.store(true, std::memory_order_relaxed);
                    }
                });
            }
            } catch (...) {
                // Exceptions must not leave an OpenMP region: keep the first.
                const std::lock_guard<std::mutex> lock(error_mutex);
                if (!error) {
                    error = std::current_exception();
                }
                found.store(true, std::memory_order_relaxed);
            }
        });
        if (error) {
            std::rethrow_exception(error);
        }
    } else {
        const BVH bvh(edge_boxes);
        parallel_for(0, num_blocks, [&](std::ptrdiff_t block) {
            for (std::ptrdiff_t e = n * block / num_blocks; e < n * (block + 1) / num_blocks; ++e) {
                if (found.load(std::memory_order_relaxed)) {
                    return;
                }
                bvh.query(edge_boxes[size_t(e)], [&](Index other) {
                    if (test.crosses(e, other)) {
                        found.store(true, std::memory_order_relaxed);
                    }
                });
            }
        });
    }
    return found.load();
}

} // namespace ipc
