#pragma once
/// @file
/// The lagged friction potential over a mesh (IPC section 5.3):
///     D(U) = sum_k mu_k lambda_k f0(|T_k^T sum_i w_ki U_i|)
/// over the contacts of a FrictionCollisions set, with U the vertex
/// displacements over the step (current positions minus the positions at the
/// start of the step, m), the lagged basis T_k, weights w_k, normal force
/// lambda_k and mu_k of each contact, and f0 the mollified slip magnitude with
/// threshold eps = eps_v h (m). Mollifier selects the f0 shape (IPC's C1 by
/// default).
///
/// Units: lambda times metres (joules when lambda is in newtons). Gradients
/// are dense (3 n entries, x y z per vertex), Hessians sparse 3n x 3n and PSD
/// by construction (each contact's Hessian is assembled from the
/// non-negative eigenpairs of its 2x2 slip Hessian). Parallel, lock-free,
/// bit-identical for any thread count. For a 2D mesh (displacements n x 2)
/// they are 2 n entries and 2n x 2n: the contacts are evaluated in the plane
/// z = 0 (the slip has no z component, so the 3D tangent basis measures the
/// 2D slip exactly) and their z entries dropped.

#include <ipc/collisions/friction_collisions.hpp>
#include <ipc/core/error.hpp>
#include <ipc/core/psd_projection.hpp>
#include <ipc/friction/friction_energy.hpp>
#include <ipc/friction/friction_mollifier.hpp>
#include <ipc/mesh/collision_mesh.hpp>
#include <ipc/potentials/stencil_assembly.hpp>
#include <ipc/obstacles/obstacle_friction.hpp>

#include <Eigen/Core>
#include <Eigen/SparseCore>

#include <cmath>
#include <string>

namespace ipc {

/// Lagged friction potential; see the file comment.
template <typename Mollifier = C1FrictionMollifier> class FrictionPotential {
public:
    /// @param eps   slip threshold eps_v * h (m), > 0: below this tangential
    ///              displacement per step, friction is smoothly static.
    /// @param form  the matrix the Hessians return (friction_energy.hpp):
    ///              exact, or the majorizer, whose full Newton steps never
    ///              overshoot a reversing slip.
    /// Throws ipc::invalid_argument unless eps is finite and positive.
    explicit FrictionPotential(double eps, FrictionHessianForm form = FrictionHessianForm::exact)
        : form_(form)
    {
        require(std::isfinite(eps) && eps > 0, "FrictionPotential: eps must be finite and positive, got ", eps);
        eps_ = eps;
    }

    /// Slip threshold eps_v h (m).
    double eps() const { return eps_; }
    /// The form of the Hessians.
    FrictionHessianForm hessian_form() const { return form_; }

    /// Friction energy of the contacts for displacements U (n x mesh.dim(), m;
    /// another column count throws, naming both).
    /// Throws ipc::invalid_argument for non-finite displacements, wrong
    /// sizes or contact indices out of range.
    double operator()(const FrictionCollisions& contacts, const CollisionMesh& mesh,
                      const Eigen::Ref<const Eigen::MatrixXd>& U) const
    {
        const detail::StencilAssembly assembly = prepare(contacts, mesh, U, "FrictionPotential");
        return assembly.sum([&](Index k) {
            return visit(contacts, U, k, [&](const auto& contact, const auto& dx) {
                return friction_energy<Mollifier>(contact, dx, eps_);
            });
        });
    }

    /// Gradient (dim n entries) of the friction energy: the negated friction
    /// forces; with a vertex map in layout, dim
    /// layout.vertices.num_full_vertices() entries (see assembly_layout.hpp).
    /// Validates as operator(), and throws ipc::invalid_argument for a map
    /// of another vertex count.
    Eigen::VectorXd gradient(const FrictionCollisions& contacts, const CollisionMesh& mesh,
                             const Eigen::Ref<const Eigen::MatrixXd>& U,
                             const AssemblyLayout& layout = AssemblyLayout()) const
    {
        const detail::StencilAssembly assembly = prepare(contacts, mesh, U, "FrictionPotential::gradient", layout);
        return assembly.gradient([&](Index k, Vector<double, 12>& out) {
            visit(contacts, U, k, [&](const auto& contact, const auto& dx) {
                const auto g = friction_gradient<Mollifier>(contact, dx, eps_);
                write_local_gradient(out, g);
                return 0.0;
            });
        });
    }

    /// Sparse Hessian (dim n square) of the friction energy, in this
    /// potential's form; PSD by construction.
    /// projection (other than none) is applied to the two eigenvalues of each
    /// contact's 2x2 slip Hessian (friction_hessian), which projects the
    /// contact's whole block. Validates as operator().
    /// Exceptions to "PSD by construction": contacts with static/kinetic
    /// coefficients (static_kinetic_friction.hpp) and mollifiers whose f1
    /// decreases (TangentialAdhesionMollifier) give indefinite exact blocks;
    /// pass a projection to get a PSD Hessian there.
    /// layout selects one triangle only and the rows of a larger mesh
    /// (see assembly_layout.hpp).
    Eigen::SparseMatrix<double> hessian(const FrictionCollisions& contacts, const CollisionMesh& mesh,
                                        const Eigen::Ref<const Eigen::MatrixXd>& U,
                                        PSDProjection projection = PSDProjection::none,
                                        const AssemblyLayout& layout = AssemblyLayout()) const
    {
        Eigen::SparseMatrix<double> H;
        hessian(contacts, mesh, U, projection, H, layout);
        return H;
    }

    /// The same, written into H, whose storage is reused when large enough.
    void hessian(const FrictionCollisions& contacts, const CollisionMesh& mesh,
                 const Eigen::Ref<const Eigen::MatrixXd>& U, PSDProjection projection,
                 Eigen::SparseMatrix<double>& H, const AssemblyLayout& layout = AssemblyLayout()) const
    {
        const detail::StencilAssembly assembly = prepare(contacts, mesh, U, "FrictionPotential::hessian", layout);
        assembly.hessian(
            [&](Index k, Matrix<double, 12, 12>& out) {
                visit(contacts, U, k, [&](const auto& contact, const auto& dx) {
                    // The contact's block is (w w^T) kron (its 3x3 slip
                    // block): projecting the slip block's two eigenvalues
                    // projects the whole block, without a 12 x 12 eigensolve.
                    const auto local = friction_hessian<Mollifier>(contact, dx, eps_, projection, form_);
                    write_local_hessian(out, local);
                    return 0.0;
                });
            },
            H, layout.triangle);
    }

    // ------------------------------------------------- static obstacles

    /// Friction energy of lagged vertex-obstacle contacts for displacements U
    /// (n x 3, m), with this potential's eps and mollifier; see
    /// obstacle_friction.hpp. Add it to the mesh-mesh friction. Throws
    /// ipc::invalid_argument for a 2D mesh, bad displacements or
    /// out-of-range vertices.
    double operator()(const ObstacleFrictionCollisions& contacts, const CollisionMesh& mesh,
                      const Eigen::Ref<const Eigen::MatrixXd>& U) const
    {
        return obstacle_friction_potential<Mollifier>(contacts, mesh, U, eps_);
    }

    /// Gradient (3 n entries) of the obstacle friction energy. Validates as
    /// the energy.
    Eigen::VectorXd gradient(const ObstacleFrictionCollisions& contacts, const CollisionMesh& mesh,
                             const Eigen::Ref<const Eigen::MatrixXd>& U) const
    {
        return obstacle_friction_potential_gradient<Mollifier>(contacts, mesh, U, eps_);
    }

    /// Sparse Hessian (3n x 3n) of the obstacle friction energy, in this
    /// potential's form; PSD by construction. Validates as the energy.
    Eigen::SparseMatrix<double> hessian(const ObstacleFrictionCollisions& contacts, const CollisionMesh& mesh,
                                        const Eigen::Ref<const Eigen::MatrixXd>& U,
                                        PSDProjection projection = PSDProjection::none) const
    {
        Eigen::SparseMatrix<double> H;
        obstacle_friction_potential_hessian<Mollifier>(contacts, mesh, U, eps_, projection, H, form_);
        return H;
    }

    /// The same, written into H (storage reused when large enough).
    void hessian(const ObstacleFrictionCollisions& contacts, const CollisionMesh& mesh,
                 const Eigen::Ref<const Eigen::MatrixXd>& U, PSDProjection projection,
                 Eigen::SparseMatrix<double>& H) const
    {
        obstacle_friction_potential_hessian<Mollifier>(contacts, mesh, U, eps_, projection, H, form_);
    }

private:
    /// Calls f(contact, stacked displacements) for contact k of the
    /// concatenation (vertex_vertex, edge_vertex, edge_edge, face_vertex).
    template <typename F>
    static double visit(const FrictionCollisions& contacts, const Eigen::Ref<const Eigen::MatrixXd>& U, Index k,
                        const F& f)
    {
        std::size_t i = std::size_t(k);
        if (i < contacts.vertex_vertex.size()) {
            const auto& c = contacts.vertex_vertex[i];
            return f(c.contact, detail::gather_positions(U, c.vertices));
        }
        i -= contacts.vertex_vertex.size();
        if (i < contacts.edge_vertex.size()) {
            const auto& c = contacts.edge_vertex[i];
            return f(c.contact, detail::gather_positions(U, c.vertices));
        }
        i -= contacts.edge_vertex.size();
        if (i < contacts.edge_edge.size()) {
            const auto& c = contacts.edge_edge[i];
            return f(c.contact, detail::gather_positions(U, c.vertices));
        }
        i -= contacts.edge_edge.size();
        const auto& c = contacts.face_vertex[i];
        return f(c.contact, detail::gather_positions(U, c.vertices));
    }

    /// Validates the input and colours the contacts' stencils, whose
    /// vertices are those of layout's map.
    static detail::StencilAssembly prepare(const FrictionCollisions& contacts, const CollisionMesh& mesh,
                                           const Eigen::Ref<const Eigen::MatrixXd>& U, const char* who,
                                           const AssemblyLayout& layout = AssemblyLayout())
    {
        mesh.check_positions(U, (std::string(who) + ": displacements U").c_str());
        const Index nv = mesh.num_vertices();
        const Index output_vertices = layout.vertices.output_vertices(nv, who);
        const std::size_t nvv = contacts.vertex_vertex.size(), nev = contacts.edge_vertex.size(),
                          nee = contacts.edge_edge.size();
        return detail::StencilAssembly(output_vertices, Index(contacts.size()), [&](Index k) {
            detail::StencilVertices s;
            const auto copy = [&](const auto& ids) {
                s.size = int(ids.size());
                for (std::size_t a = 0; a < ids.size(); ++a) {
                    require(ids[a] >= 0 && ids[a] < nv, who, ": friction contact ", k, " references vertex ", ids[a],
                            " but the mesh has ", nv, " vertices");
                    s.vertices[a] = layout.vertices(ids[a]);
                }
            };
            std::size_t i = std::size_t(k);
            if (i < nvv) {
                copy(contacts.vertex_vertex[i].vertices);
            } else if ((i -= nvv) < nev) {
                copy(contacts.edge_vertex[i].vertices);
            } else if ((i -= nev) < nee) {
                copy(contacts.edge_edge[i].vertices);
            } else {
                copy(contacts.face_vertex[i - nee].vertices);
            }
            return s;
        }, mesh.dim());
    }

    double eps_ = 0;
    FrictionHessianForm form_ = FrictionHessianForm::exact;
};

} // namespace ipc
