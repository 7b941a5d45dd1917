#pragma once
/// @file
/// The barrier potential over a mesh: B(x) = kappa * sum_k w_k m_k(x) b(d_k^2 - xi_k^2, 2 xi_k dhat + dhat^2)
/// over the stencils of a Collisions set, with w_k the stencil's weight
/// (multiplicity), m_k the edge-edge mollifier (1 for the other stencils), xi_k
/// its offset and b the barrier shape (ClampedLogBarrier by default).
///
/// Per-pair stiffness: when the mesh has a collision filter with stiffness
/// scales (CollisionMesh::set_stiffness_scale), Collisions::build puts each
/// source pair's scale into w_k (the sum of the scales of the pairs merged
/// into a stencil), so energy, gradient and Hessian are all scaled alike and
/// the effective stiffness of a pair is kappa times its scale.
///
/// kappa (the barrier stiffness) is inside the potential: every value,
/// gradient and Hessian returned here is already multiplied by it. Use
/// stiffness 1 to get the unscaled sum (e.g. for initial_barrier_stiffness).
///
/// Gradients are dense, 3 n entries ordered x, y, z per vertex; Hessians are
/// Eigen::SparseMatrix<double> (3n x 3n, column-major). Assembly is parallel,
/// lock-free and deterministic (bit-identical for any thread count).
/// For a 2D mesh (positions n x 2) they are 2 n entries (x, y per vertex) and
/// 2n x 2n: the stencils are evaluated in the plane z = 0 (see
/// collisions.hpp) and their z entries dropped.

#include <ipc/barrier/clamped_log_barrier.hpp>
#include <ipc/barrier/offset_barrier.hpp>
#include <ipc/collisions/collisions.hpp>
#include <ipc/core/error.hpp>
#include <ipc/core/psd_projection.hpp>
#include <ipc/distance/edge_edge.hpp>
#include <ipc/distance/edge_edge_mollifier.hpp>
#include <ipc/distance/line_line.hpp>
#include <ipc/distance/point_line.hpp>
#include <ipc/distance/point_plane.hpp>
#include <ipc/distance/point_point.hpp>
#include <ipc/mesh/collision_mesh.hpp>
#include <ipc/potentials/stencil_assembly.hpp>
#include <ipc/obstacles/obstacle_barrier.hpp>

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace ipc {

namespace detail {
    /// The vertices of stencil k of the concatenation (vertex_vertex,
    /// edge_vertex, edge_edge, face_vertex), each checked against the mesh's
    /// nv vertices (ipc::invalid_argument naming `who`, the stencil and the
    /// vertex otherwise): what a potential's StencilAssembly is built from.
    inline StencilVertices collision_stencil_vertices(const Collisions& collisions, Index k, Index nv,
                                                      const char* who)
    {
        StencilVertices s;
        const auto copy = [&](const auto& ids) {
            s.size = int(ids.size());
            for (std::size_t a = 0; a < ids.size(); ++a) {
                require(ids[a] >= 0 && ids[a] < nv, who, ": contact stencil ", k, " references vertex ", ids[a],
                        " but the mesh has ", nv, " vertices");
                s.vertices[a] = ids[a];
            }
        };
        std::size_t i = std::size_t(k);
        const std::size_t nvv = collisions.vertex_vertex.size(), nev = collisions.edge_vertex.size(),
                          nee = collisions.edge_edge.size();
        if (i < nvv) {
            copy(collisions.vertex_vertex[i].vertices);
        } else if ((i -= nvv) < nev) {
            copy(collisions.edge_vertex[i].vertices);
        } else if ((i -= nev) < nee) {
            copy(collisions.edge_edge[i].vertices);
        } else {
            copy(collisions.face_vertex[i - nee].vertices);
        }
        return s;
    }

    /// Factored squared-distance Hessian (DistanceHessianFactors) of each
    /// stencil type, with the formula its distance_squared uses.
    inline auto collision_hessian_factors(const VertexVertexCollision&, const Vector<double, 6>& x)
    {
        return point_point_distance_squared_hessian_factors(x.head<3>(), x.tail<3>());
    }
    inline auto collision_hessian_factors(const EdgeVertexCollision&, const Vector<double, 9>& x)
    {
        return point_line_distance_squared_hessian_factors(x.segment<3>(0), x.segment<3>(3), x.segment<3>(6));
    }
    inline auto collision_hessian_factors(const EdgeEdgeCollision& c, const Vector<double, 12>& x)
    {
        return edge_edge_distance_squared_hessian_factors(
            x.segment<3>(0), x.segment<3>(3), x.segment<3>(6), x.segment<3>(9), c.type);
    }
    inline auto collision_hessian_factors(const FaceVertexCollision&, const Vector<double, 12>& x)
    {
        return point_plane_distance_squared_hessian_factors(
            x.segment<3>(0), x.segment<3>(3), x.segment<3>(6), x.segment<3>(9));
    }
} // namespace detail

/// Barrier potential of a contact set; see the file comment. Barrier is a
/// shape policy (ClampedLogBarrier, CubicBarrier, ...).
template <typename Barrier = ClampedLogBarrier> class BarrierPotential {
public:
    /// @param dhat       activation distance (m), > 0; must equal the dhat the
    ///                   Collisions set was built with (checked by every
    ///                   mesh-level call, see Collisions::dhat())
    /// @param stiffness  barrier stiffness kappa (energy per unit barrier), > 0
    /// Throws ipc::invalid_argument for non-finite or non-positive values.
    explicit BarrierPotential(double dhat, double stiffness = 1.0)
    {
        require(std::isfinite(dhat) && dhat > 0, "BarrierPotential: dhat must be finite and positive, got ", dhat);
        dhat_ = dhat;
        set_stiffness(stiffness);
    }

    /// Activation distance (m).
    double dhat() const { return dhat_; }
    /// Barrier stiffness kappa.
    double stiffness() const { return stiffness_; }
    /// Sets kappa (> 0, finite).
    void set_stiffness(double stiffness)
    {
        require(std::isfinite(stiffness) && stiffness > 0,
                "BarrierPotential: stiffness must be finite and positive, got ", stiffness);
        stiffness_ = stiffness;
    }

    // ------------------------------------------------------------ one stencil

    /// Energy kappa w m b of one stencil at stacked positions x (3 per
    /// vertex, in the stencil's vertex order). Returns +infinity when the
    /// stencil is at or inside its offset (no validation: hot kernel).
    template <typename Collision>
    double stencil_energy(const Collision& c, const Vector<double, 3 * Collision::num_vertices>& x) const
    {
        bool inside = false;
        return stencil_energy(c, x, inside);
    }

    /// The same, also setting inside when the stencil is at or inside its
    /// offset (the whole-mesh calls check penetration this way, in the pass
    /// that evaluates the stencils).
    template <typename Collision>
    double stencil_energy(const Collision& c, const Vector<double, 3 * Collision::num_vertices>& x, bool& inside) const
    {
        const double d2 = c.distance_squared(x);
        inside = !(offset_barrier_argument(d2, c.offset) > 0);
        double value = stiffness_ * c.weight * offset_barrier<Barrier>(d2, c.offset, dhat_);
        if constexpr (std::is_same_v<Collision, EdgeEdgeCollision>) {
            if (value != 0) {
                value *= mollifier(c, x);
            }
        }
        return value;
    }

    /// Gradient of stencil_energy with respect to x (3 * num_vertices).
    /// Zero when the stencil is at or inside its offset.
    template <typename Collision>
    Vector<double, 3 * Collision::num_vertices>
    stencil_gradient(const Collision& c, const Vector<double, 3 * Collision::num_vertices>& x) const
    {
        bool inside = false;
        return stencil_gradient(c, x, inside);
    }

    /// The same, also setting inside when the stencil is at or inside its
    /// offset.
    template <typename Collision>
    Vector<double, 3 * Collision::num_vertices>
    stencil_gradient(const Collision& c, const Vector<double, 3 * Collision::num_vertices>& x, bool& inside) const
    {
        using Gradient = Vector<double, 3 * Collision::num_vertices>;
        const double d2 = c.distance_squared(x);
        inside = !(offset_barrier_argument(d2, c.offset) > 0);
        const double db = inside ? 0.0 : offset_barrier_first_derivative<Barrier>(d2, c.offset, dhat_);
        if (db == 0) {
            return Gradient::Zero();
        }
        const double scale = stiffness_ * c.weight;
        Gradient g = (scale * db) * c.distance_squared_gradient(x);
        if constexpr (std::is_same_v<Collision, EdgeEdgeCollision>) {
            const double cross = cross_squarednorm(x);
            if (cross < c.mollifier_threshold) {
                const double m = edge_edge_mollifier(cross, c.mollifier_threshold);
                const double b = offset_barrier<Barrier>(d2, c.offset, dhat_);
                g *= m;
                g += (scale * b * edge_edge_mollifier_gradient(cross, c.mollifier_threshold))
                    * edge_edge_cross_squarednorm_gradient(x.template segment<3>(0), x.template segment<3>(3),
                                                           x.template segment<3>(6), x.template segment<3>(9));
            }
        }
        return g;
    }

    /// Hessian of stencil_energy with respect to x, optionally projected to
    /// the positive semi-definite cone. The projection works in the (at most
    /// 5-dimensional) subspace spanned by the distance Hessian's factors
    /// (detail::project_distance_hessian_to_psd); edge-edge stencils with an
    /// active mollifier are projected densely in the translation-free basis.
    /// Zero when the stencil is at or inside its offset (no validation: hot
    /// kernel).
    template <typename Collision>
    Matrix<double, 3 * Collision::num_vertices, 3 * Collision::num_vertices>
    stencil_hessian(const Collision& c, const Vector<double, 3 * Collision::num_vertices>& x,
                    PSDProjection projection = PSDProjection::none) const
    {
        bool inside = false;
        return stencil_hessian(c, x, projection, inside);
    }

    /// The same, also setting inside when the stencil is at or inside its
    /// offset (the Hessian is then meaningless).
    template <typename Collision>
    Matrix<double, 3 * Collision::num_vertices, 3 * Collision::num_vertices>
    stencil_hessian(const Collision& c, const Vector<double, 3 * Collision::num_vertices>& x,
                    PSDProjection projection, bool& inside) const
    {
        constexpr int n = 3 * Collision::num_vertices;
        using Hessian = Matrix<double, n, n>;
        // One region classification gives the squared distance |r|^2 and the
        // gradient and Hessian of d^2 in factored form.
        const auto f = detail::collision_hessian_factors(c, x);
        const double d2 = f.r.squaredNorm();
        inside = !(offset_barrier_argument(d2, c.offset) > 0);
        if (inside) {
            return Hessian::Zero(); // no derivative there (and no NaN into the projection)
        }
        const BarrierDerivatives<double> b = offset_barrier_derivatives<Barrier>(d2, c.offset, dhat_);
        const double db = b.first, d2b = b.second;
        if (db == 0 && d2b == 0) {
            return Hessian::Zero();
        }
        const double scale = stiffness_ * c.weight;
        if constexpr (std::is_same_v<Collision, EdgeEdgeCollision>) {
            const double cross = cross_squarednorm(x);
            if (cross < c.mollifier_threshold) {
                return mollified_edge_edge_hessian(c, x, f, b, cross, projection);
            }
        }
        // The Hessian (projected or not) is formed from the factors.
        return detail::project_distance_hessian_to_psd<double, 3, Collision::num_vertices, std::decay_t<decltype(f)>::max_columns>(
            f.w, f.r, f.L, f.columns, scale * db, scale * d2b, projection);
    }

    // ------------------------------------------------------------ whole mesh

    /// Barrier energy (kappa included) of the set at positions V
    /// (mesh.num_vertices() x mesh.dim(), m; a column count other than
    /// mesh.dim() throws, naming both). Throws ipc::invalid_argument for bad
    /// positions, stencil indices out of range or a set built with another
    /// dhat (naming both values; a set with collisions.dhat() == 0, i.e. not
    /// built by Collisions::build, is not checked), and ipc::penetration when
    /// a stencil is at or inside its offset (naming it).
    double operator()(const Collisions& collisions, const CollisionMesh& mesh,
                      const Eigen::Ref<const Eigen::MatrixXd>& V) const
    {
        const char* who = "BarrierPotential";
        // The energy needs no assembly (and leaves the set's kept one, which
        // may be laid out for another mesh, alone).
        detail::check_collisions_dhat(collisions.dhat(), dhat_, who);
        mesh.check_positions(V, (std::string(who) + ": positions V").c_str());
        for (Index k = 0; k < Index(collisions.size()); ++k) {
            detail::collision_stencil_vertices(collisions, k, mesh.num_vertices(), who);
        }
        std::vector<unsigned char> inside(collisions.size(), 0);
        const double energy = detail::ordered_parallel_sum(Index(collisions.size()), [&](Index k) {
            return visit(collisions, V, k, [&](const auto& c, const auto& x) {
                bool stencil_inside = false;
                const double value = stencil_energy(c, x, stencil_inside);
                inside[std::size_t(k)] = stencil_inside;
                return value;
            });
        });
        throw_first_penetration(collisions, V, inside, who);
        return energy;
    }

    /// Gradient (dim n entries, x y (z) per vertex) of the barrier energy;
    /// with a vertex map in layout, dim layout.vertices.num_full_vertices()
    /// entries (see assembly_layout.hpp). Validates as operator(), and
    /// throws ipc::invalid_argument for a map of another vertex count.
    Eigen::VectorXd gradient(const Collisions& collisions, const CollisionMesh& mesh,
                             const Eigen::Ref<const Eigen::MatrixXd>& V,
                             const AssemblyLayout& layout = AssemblyLayout()) const
    {
        const char* who = "BarrierPotential::gradient";
        const std::shared_ptr<const StencilAssembly> kept = assembly_of(collisions, mesh, V, who, false, layout);
        const StencilAssembly& assembly = *kept;
        std::vector<unsigned char> inside(collisions.size(), 0);
        Eigen::VectorXd g = assembly.gradient([&](Index k, Vector<double, 12>& out) {
            visit(collisions, V, k, [&](const auto& c, const auto& x) {
                bool stencil_inside = false;
                const auto local = stencil_gradient(c, x, stencil_inside);
                inside[std::size_t(k)] = stencil_inside;
                write_local_gradient(out, local);
                return 0.0;
            });
        });
        throw_first_penetration(collisions, V, inside, who);
        return g;
    }

    /// Sparse Hessian (dim n square) of the barrier energy, each stencil's block
    /// projected to PSD first when projection is not none. layout selects
    /// one triangle only and the rows of a larger mesh (see
    /// assembly_layout.hpp). Validates as gradient().
    Eigen::SparseMatrix<double> hessian(const Collisions& collisions, const CollisionMesh& mesh,
                                        const Eigen::Ref<const Eigen::MatrixXd>& V,
                                        PSDProjection projection = PSDProjection::none,
                                        const AssemblyLayout& layout = AssemblyLayout()) const
    {
        Eigen::SparseMatrix<double> H;
        hessian(collisions, mesh, V, projection, H, layout);
        return H;
    }

    /// The same, written into H, whose storage is reused when large enough
    /// (keep one matrix between Newton iterations to avoid allocating it
    /// afresh each time). When it throws ipc::penetration, H holds garbage.
    /// The set keeps the pattern of the last layout asked for: alternating
    /// two vertex maps on one set rebuilds it on every call.
    void hessian(const Collisions& collisions, const CollisionMesh& mesh, const Eigen::Ref<const Eigen::MatrixXd>& V,
                 PSDProjection projection, Eigen::SparseMatrix<double>& H,
                 const AssemblyLayout& layout = AssemblyLayout()) const
    {
        const char* who = "BarrierPotential::hessian";
        const std::shared_ptr<const StencilAssembly> kept = assembly_of(collisions, mesh, V, who, true, layout);
        const StencilAssembly& assembly = *kept;
        std::vector<unsigned char> inside(collisions.size(), 0);
        assembly.hessian(
            [&](Index k, Matrix<double, 12, 12>& out) {
                visit(collisions, V, k, [&](const auto& c, const auto& x) {
                    bool stencil_inside = false;
                    const auto local = stencil_hessian(c, x, projection, stencil_inside);
                    inside[std::size_t(k)] = stencil_inside;
                    write_local_hessian(out, local);
                    return 0.0;
                });
            },
            H, layout.triangle);
        throw_first_penetration(collisions, V, inside, who);
    }

    // ------------------------------------------------- static obstacles

    /// Barrier energy (kappa included) of vertex-obstacle contacts at
    /// positions V (n x 3, m), with this potential's dhat, kappa and shape;
    /// see obstacle_barrier.hpp. Add it to the mesh-mesh energy. Throws
    /// ipc::invalid_argument for a 2D mesh, bad positions, out-of-range
    /// indices or a set built with another dhat, and ipc::penetration when a
    /// vertex is at or inside its offset.
    double operator()(const ObstacleCollisions& contacts, const CollisionMesh& mesh,
                      const Eigen::Ref<const Eigen::MatrixXd>& V) const
    {
        return obstacle_barrier_potential<Barrier>(contacts, mesh, V, dhat_, stiffness_);
    }

    /// Gradient (3 n entries) of the obstacle barrier energy. Validates as
    /// the energy.
    Eigen::VectorXd gradient(const ObstacleCollisions& contacts, const CollisionMesh& mesh,
                             const Eigen::Ref<const Eigen::MatrixXd>& V) const
    {
        return obstacle_barrier_potential_gradient<Barrier>(contacts, mesh, V, dhat_, stiffness_);
    }

    /// Sparse Hessian (3n x 3n) of the obstacle barrier energy, each 3 x 3
    /// contact block projected to PSD first unless projection is none.
    /// Validates as the energy.
    Eigen::SparseMatrix<double> hessian(const ObstacleCollisions& contacts, const CollisionMesh& mesh,
                                        const Eigen::Ref<const Eigen::MatrixXd>& V,
                                        PSDProjection projection = PSDProjection::none) const
    {
        Eigen::SparseMatrix<double> H;
        obstacle_barrier_potential_hessian<Barrier>(contacts, mesh, V, dhat_, stiffness_, projection, H);
        return H;
    }

    /// The same, written into H (storage reused when large enough).
    void hessian(const ObstacleCollisions& contacts, const CollisionMesh& mesh,
                 const Eigen::Ref<const Eigen::MatrixXd>& V, PSDProjection projection,
                 Eigen::SparseMatrix<double>& H) const
    {
        obstacle_barrier_potential_hessian<Barrier>(contacts, mesh, V, dhat_, stiffness_, projection, H);
    }

private:
    /// stencil_hessian of an edge-edge pair with an active mollifier, given
    /// the factored squared-distance Hessian f, the barrier's value and
    /// first two derivatives at its d^2, and c = |u x v|^2 of the edge
    /// vectors (cross). Then projected as stencil_hessian says.
    template <typename Factors>
    Matrix<double, 12, 12> mollified_edge_edge_hessian(const EdgeEdgeCollision& c, const Vector<double, 12>& x,
                                                       const Factors& f, const BarrierDerivatives<double>& barrier,
                                                       double cross, PSDProjection projection) const
    {
        const double b = barrier.value, db = barrier.first, d2b = barrier.second;
        const double scale = stiffness_ * c.weight;
        const double eps = c.mollifier_threshold;
        const double m = edge_edge_mollifier(cross, eps);
        const double dm = edge_edge_mollifier_gradient(cross, eps);
        const double d2m = edge_edge_mollifier_hessian(cross, eps);
        // The energy is s m(c) b(d^2), s = kappa w; its Hessian is
        //   s m (b' H_d + b'' g_d g_d^T) + s b' m' (g_d g_c^T + g_c g_d^T)
        //   + s b (m'' g_c g_c^T + m' H_c),
        // with g_d = 2 w (x) r and H_d = 2 (w w^T) (x) I - L L^T from the
        // factors, and g_c, H_c the derivatives of c through the edge vectors
        // u and v (vertex signs -, +, -, +). The lower triangle is mirrored,
        // so the result is exactly symmetric.
        const double alpha = scale * m * db, beta = scale * m * d2b;
        const double cross_term = scale * db * dm, gc_gc = scale * b * d2m, hc = scale * b * dm;
        Matrix<double, 3, 3> distance_block;
        for (int j = 0; j < 3; ++j) {
            for (int i = 0; i < 3; ++i) {
                distance_block(i, j) = (4 * beta) * (f.r[i] * f.r[j]) + (i == j ? 2 * alpha : 0.0);
            }
        }
        const Vector<double, 3> u = x.segment<3>(3) - x.segment<3>(0);
        const Vector<double, 3> v = x.segment<3>(9) - x.segment<3>(6);
        const Vector<double, 3> uv = u.cross(v);
        const Vector<double, 3> gu = 2 * v.cross(uv), gv = 2 * uv.cross(u);
        const detail::CrossSquarednormSecondDerivatives<double> dc = detail::cross_squarednorm_second_derivatives(u, v);
        Vector<double, 12> g_d, g_c;
        for (int a = 0; a < 4; ++a) {
            const double sign = a % 2 == 0 ? -1.0 : 1.0;
            g_d.segment<3>(3 * a) = (2 * f.w[a]) * f.r;
            g_c.segment<3>(3 * a) = sign * (a < 2 ? gu : gv);
        }
        // The rank-4 part -alpha L L^T + g_d p^T + g_c q^T as one product.
        Matrix<double, 12, 4> U = Matrix<double, 12, 4>::Zero();
        for (int k = 0; k < f.columns; ++k) {
            U.col(k) = f.L.col(k);
        }
        Matrix<double, 12, 4> W = -alpha * U;
        U.col(2) = g_d;
        U.col(3) = g_c;
        W.col(2) = cross_term * g_c;
        W.col(3) = cross_term * g_d + gc_gc * g_c;
        Matrix<double, 12, 12> H;
        H.noalias() = U.lazyProduct(W.transpose()); // coefficient-wise: no GEMM set-up
        // The block-structured part, on the lower blocks: w_a w_b times the
        // distance block, plus s b m' H_c (blocks uu, vv or vu = uv^T).
        const Matrix<double, 3, 3> vu = dc.uv.transpose();
        for (int bv = 0; bv < 4; ++bv) {
            for (int av = bv; av < 4; ++av) {
                const double ww = f.w[av] * f.w[bv];
                const double cross_scale = av % 2 == bv % 2 ? hc : -hc;
                const Matrix<double, 3, 3>& hc_block = bv >= 2 ? dc.vv : av < 2 ? dc.uu : vu;
                for (int j = 0; j < 3; ++j) {
                    for (int i = 0; i < 3; ++i) {
                        H(3 * av + i, 3 * bv + j) += ww * distance_block(i, j) + cross_scale * hc_block(i, j);
                    }
                }
            }
        }
        detail::mirror_lower_to_upper(H);
        return project_translation_invariant_to_psd<4>(H, projection);
    }

    static double cross_squarednorm(const Vector<double, 12>& x)
    {
        return (x.segment<3>(3) - x.segment<3>(0)).cross(x.segment<3>(9) - x.segment<3>(6)).squaredNorm();
    }

    static double mollifier(const EdgeEdgeCollision& c, const Vector<double, 12>& x)
    {
        const double cross = cross_squarednorm(x);
        return cross < c.mollifier_threshold ? edge_edge_mollifier(cross, c.mollifier_threshold) : 1.0;
    }

    /// Calls f(collision, stacked positions) for stencil k of the
    /// concatenation (vertex_vertex, edge_vertex, edge_edge, face_vertex).
    template <typename F>
    static double visit(const Collisions& collisions, const Eigen::Ref<const Eigen::MatrixXd>& V, Index k, const F& f)
    {
        return detail::visit_collision(collisions, V, k, f);
    }

    /// Validates the input and returns the stencils' assembly (kept by the
    /// set; with the Hessian pattern of layout when with_pattern; its
    /// vertices are those of layout's map). Penetration is
    /// checked by each call in its own pass over the stencils (every stencil
    /// term starts from its squared distance), reported once the pass is
    /// done: throw_first_penetration.
    std::shared_ptr<const StencilAssembly> assembly_of(const Collisions& collisions, const CollisionMesh& mesh,
                                                       const Eigen::Ref<const Eigen::MatrixXd>& V, const char* who,
                                                       bool with_pattern,
                                                       const AssemblyLayout& layout = AssemblyLayout()) const
    {
        detail::check_collisions_dhat(collisions.dhat(), dhat_, who);
        mesh.check_positions(V, (std::string(who) + ": positions V").c_str());
        const Index nv = mesh.num_vertices();
        const Index output_vertices = layout.vertices.output_vertices(nv, who);
        const auto vertices_of = [&](Index k) {
            detail::StencilVertices s = detail::collision_stencil_vertices(collisions, k, nv, who);
            for (int a = 0; a < s.size; ++a) {
                s.vertices[std::size_t(a)] = layout.vertices(s.vertices[std::size_t(a)]);
            }
            return s;
        };
        return collisions.stencil_assembly_cache().get(output_vertices, Index(collisions.size()), vertices_of,
                                                       mesh.dim(), with_pattern, layout.triangle);
    }

    /// Throws ipc::penetration naming the first stencil flagged inside, if any.
    static void throw_first_penetration(const Collisions& collisions, const Eigen::Ref<const Eigen::MatrixXd>& V,
                                        const std::vector<unsigned char>& inside, const char* who)
    {
        const auto first = std::find(inside.begin(), inside.end(), static_cast<unsigned char>(1));
        if (first == inside.end()) {
            return;
        }
        const Index k = Index(first - inside.begin());
        // The collision mesh's vertices (the assembly's may be mapped);
        // they were checked when the assembly was built.
        const detail::StencilVertices s = detail::collision_stencil_vertices(collisions, k, V.rows(), who);
        const double d2 = visit(collisions, V, k, [&](const auto& c, const auto& x) { return c.distance_squared(x); });
        const double xi = visit(collisions, V, k, [&](const auto& c, const auto&) { return c.offset; });
        throw penetration(detail::concat(who, ": contact stencil ", k, " (vertices ", s.vertices[0], ", ",
                                         s.vertices[1], s.size > 2 ? ", ..." : "", ") has distance ", std::sqrt(d2),
                                         " <= its offset ", xi));
    }

    double dhat_ = 0;
    double stiffness_ = 1;
};

} // namespace ipc
