#pragma once
/// @file
/// The normal adhesion potential over a mesh:
///     A(x) = sum_k w_k A(d_k - xi_k)
/// over the stencils of a Collisions set, with w_k the stencil's weight
/// (multiplicity), xi_k its offset, d_k its distance and A the attractive
/// profile of adhesion/normal_adhesion.hpp (peak force Y at the gap dhat_p,
/// range dhat_a). Add it to the incremental potential next to the barrier
/// (whose dhat is usually dhat_p): the Collisions set must hold every pair
/// within xi + dhat_a, so build it with dhat >= dhat_a (checked when the set
/// carries its dhat) and give the barrier potential a set built with its
/// own dhat (or the same set: the barrier is zero beyond its dhat, but
/// BarrierPotential checks the set's dhat, so use two sets).
///
/// Units: joules when Y is in newtons. Gradients are dense (3 n entries, x y z
/// per vertex), Hessians sparse 3n x 3n; the adhesion Hessian is indefinite
/// in general (attraction is concave in the distance beyond dhat_p), so pass
/// a PSDProjection to get a PSD one (each stencil is projected in the small
/// subspace of its distance Hessian, as the barrier's). The edge-edge
/// mollifier of the barrier is not applied (the adhesion of nearly parallel
/// edges uses the stencil's distance as it is). Parallel, lock-free,
/// bit-identical for any thread count.

#include <ipc/adhesion/normal_adhesion.hpp>
#include <ipc/barrier/offset_barrier.hpp>
#include <ipc/collisions/collisions.hpp>
#include <ipc/core/error.hpp>
#include <ipc/core/psd_projection.hpp>
#include <ipc/mesh/collision_mesh.hpp>
#include <ipc/potentials/barrier_potential.hpp>
#include <ipc/potentials/stencil_assembly.hpp>

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <cmath>
#include <string>
#include <vector>

namespace ipc {

/// Normal adhesion potential of a contact set; see the file comment.
class NormalAdhesionPotential {
public:
    /// @param dhat_p  gap of the peak attraction (m), > 0
    /// @param dhat_a  adhesion range (m), > dhat_p
    /// @param Y       peak attractive force per stencil (N), >= 0
    /// Throws ipc::invalid_argument for non-finite or out-of-range values.
    NormalAdhesionPotential(double dhat_p, double dhat_a, double Y)
    {
        check_normal_adhesion_parameters(dhat_p, dhat_a, Y, "NormalAdhesionPotential");
        dhat_p_ = dhat_p;
        dhat_a_ = dhat_a;
        Y_ = Y;
    }

    /// Gap of the peak attraction (m).
    double dhat_p() const { return dhat_p_; }
    /// Adhesion range (m).
    double dhat_a() const { return dhat_a_; }
    /// Peak attractive force per stencil (N).
    double Y() const { return Y_; }

    // ------------------------------------------------------------ one stencil

    /// Energy w A(d - xi) of one stencil at stacked positions x (3 per
    /// vertex, stencil order). No validation (d > 0 assumed).
    template <typename Collision>
    double stencil_energy(const Collision& c, const Vector<double, 3 * Collision::num_vertices>& x) const
    {
        return c.weight * normal_adhesion_potential(offset_gap(c.distance_squared(x), c.offset), dhat_p_, dhat_a_, Y_);
    }

    /// Magnitude w a(d - xi) >= 0 (N) of the stencil's attraction force,
    /// conjugate to its distance (the normal force of tangential adhesion).
    template <typename Collision>
    double stencil_force_magnitude(const Collision& c, const Vector<double, 3 * Collision::num_vertices>& x) const
    {
        return c.weight * normal_adhesion_force(offset_gap(c.distance_squared(x), c.offset), dhat_p_, dhat_a_, Y_);
    }

    /// Gradient of stencil_energy with respect to x (3 * num_vertices).
    template <typename Collision>
    Vector<double, 3 * Collision::num_vertices>
    stencil_gradient(const Collision& c, const Vector<double, 3 * Collision::num_vertices>& x) const
    {
        const double d2 = c.distance_squared(x);
        const double da = normal_adhesion_first_derivative(d2, c.offset, dhat_p_, dhat_a_, Y_);
        if (da == 0) {
            return Vector<double, 3 * Collision::num_vertices>::Zero();
        }
        return (c.weight * da) * c.distance_squared_gradient(x);
    }

    /// Hessian of stencil_energy with respect to x: exact for
    /// projection == none, else projected to the PSD cone in the subspace of
    /// the distance Hessian's factors.
    template <typename Collision>
    Matrix<double, 3 * Collision::num_vertices, 3 * Collision::num_vertices>
    stencil_hessian(const Collision& c, const Vector<double, 3 * Collision::num_vertices>& x,
                    PSDProjection projection = PSDProjection::none) const
    {
        constexpr int n = 3 * Collision::num_vertices;
        const double d2 = c.distance_squared(x);
        const double da = c.weight * normal_adhesion_first_derivative(d2, c.offset, dhat_p_, dhat_a_, Y_);
        const double d2a = c.weight * normal_adhesion_second_derivative(d2, c.offset, dhat_p_, dhat_a_, Y_);
        if (da == 0 && d2a == 0) {
            return Matrix<double, n, n>::Zero();
        }
        if (projection != PSDProjection::none) {
            const auto f = detail::collision_hessian_factors(c, x);
            return detail::project_distance_hessian_to_psd<double, 3, Collision::num_vertices,
                                                           decltype(f)::max_columns>(f.w, f.r, f.L, f.columns, da,
                                                                                     d2a, projection);
        }
        const Vector<double, n> g = c.distance_squared_gradient(x);
        Matrix<double, n, n> H = c.distance_squared_hessian(x);
        H *= da;
        H.noalias() += d2a * g * g.transpose();
        return H;
    }

    // ------------------------------------------------------------ whole mesh

    /// Adhesion energy (J) of the set at positions V (mesh.num_vertices() x
    /// 3, m). Throws ipc::invalid_argument for bad positions, stencil indices
    /// out of range or a set built with a dhat smaller than dhat_a (a set with
    /// collisions.dhat() == 0 is not checked), and ipc::penetration when a
    /// stencil is at or inside its offset (naming it).
    double operator()(const Collisions& collisions, const CollisionMesh& mesh,
                      const Eigen::Ref<const Eigen::MatrixXd>& V) const
    {
        const StencilAssembly assembly = prepare(collisions, mesh, V, "NormalAdhesionPotential");
        return assembly.sum([&](Index k) {
            return visit(collisions, V, k, [&](const auto& c, const auto& x) { return stencil_energy(c, x); });
        });
    }

    /// Gradient (3 n entries) of the adhesion energy (the negated adhesion
    /// forces). Validates as operator().
    Eigen::VectorXd gradient(const Collisions& collisions, const CollisionMesh& mesh,
                             const Eigen::Ref<const Eigen::MatrixXd>& V) const
    {
        const StencilAssembly assembly = prepare(collisions, mesh, V, "NormalAdhesionPotential::gradient");
        return assembly.gradient([&](Index k, Vector<double, 12>& out) {
            visit(collisions, V, k, [&](const auto& c, const auto& x) {
                const auto g = stencil_gradient(c, x);
                write_local_gradient(out, g);
                return 0.0;
            });
        });
    }

    /// Sparse Hessian (3n x 3n) of the adhesion energy, each stencil's block
    /// projected to PSD first when projection is not none. Validates as
    /// operator().
    Eigen::SparseMatrix<double> hessian(const Collisions& collisions, const CollisionMesh& mesh,
                                        const Eigen::Ref<const Eigen::MatrixXd>& V,
                                        PSDProjection projection = PSDProjection::none) const
    {
        const StencilAssembly assembly = prepare(collisions, mesh, V, "NormalAdhesionPotential::hessian");
        return assembly.hessian([&](Index k, Matrix<double, 12, 12>& out) {
            visit(collisions, V, k, [&](const auto& c, const auto& x) {
                const auto local = stencil_hessian(c, x, projection);
                write_local_hessian(out, local);
                return 0.0;
            });
        });
    }

    /// Calls f(collision, stacked positions) for stencil k of the
    /// concatenation (vertex_vertex, edge_vertex, edge_edge, face_vertex) and
    /// returns its result. No validation.
    template <typename F>
    static double visit(const Collisions& collisions, const Eigen::Ref<const Eigen::MatrixXd>& V, Index k, const F& f)
    {
        return detail::visit_collision(collisions, V, k, f);
    }

    /// Validates a set and positions for this potential (see operator())
    /// and returns the stencils' assembly; `who` names the caller.
    StencilAssembly prepare(const Collisions& collisions, const CollisionMesh& mesh,
                            const Eigen::Ref<const Eigen::MatrixXd>& V, const char* who) const
    {
        require(mesh.dim() == 3, who, ": only 3D meshes are supported");
        require(collisions.dhat() == 0 || collisions.dhat() >= dhat_a_ * (1 - 1e-12), who,
                ": the Collisions set was built with dhat = ", collisions.dhat(),
                " but adhesion needs every pair within the adhesion range dhat_a = ", dhat_a_,
                " (build the set with dhat >= dhat_a)");
        mesh.check_positions(V, (std::string(who) + ": positions V").c_str());
        const Index nv = mesh.num_vertices();
        StencilAssembly assembly(nv, Index(collisions.size()), [&](Index k) {
            return detail::collision_stencil_vertices(collisions, k, nv, who);
        });
        for (Index k = 0; k < Index(collisions.size()); ++k) {
            const double gap = visit(collisions, V, k, [&](const auto& c, const auto& x) {
                return offset_gap(c.distance_squared(x), c.offset);
            });
            if (!(gap > 0)) {
                throw penetration(detail::concat(who, ": contact stencil ", k, " (first vertex ",
                                                 assembly.stencil(k).vertices[0], ") has gap ", gap,
                                                 " <= 0 to its offset"));
            }
        }
        return assembly;
    }

private:
    double dhat_p_ = 0;
    double dhat_a_ = 0;
    double Y_ = 0;
};

} // namespace ipc
