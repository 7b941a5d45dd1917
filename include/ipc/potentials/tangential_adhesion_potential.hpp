#pragma once
/// @file
/// Tangential adhesion: a lagged potential like friction,
///     T(U) = sum_k mu_t lambda_a,k f0_a(|T_k^T sum_i w_ki U_i|),
/// whose strength is the lagged normal adhesion force lambda_a,k = w_k a(s_k)
/// of each stencil (NormalAdhesionPotential::stencil_force_magnitude, N, at
/// the lag positions) times a dimensionless coefficient mu_t >= 0, and whose
/// mollifier f0_a (TangentialAdhesionMollifier, threshold eps_a in m) lets
/// the bond resist sliding up to the force mu_t lambda_a at slip eps_a and
/// break by 2 eps_a. U are the displacements over the step (m), T_k and w_k
/// the lagged tangent basis and closest-point weights of the stencil's
/// contact (as for friction). Units: joules when lambda_a is in newtons.
///
/// Use: build the lagged set with tangential_adhesion_collisions() from the
/// adhesion's Collisions set (built with dhat >= dhat_a) at the lag
/// positions, then evaluate it with TangentialAdhesionPotential (energy,
/// gradient, Hessian; the Hessian is indefinite where the bond weakens, so
/// pass a PSDProjection for a PSD one).

#include <ipc/adhesion/tangential_adhesion_mollifier.hpp>
#include <ipc/collisions/collisions.hpp>
#include <ipc/collisions/friction_collisions.hpp>
#include <ipc/collisions/pair_distance.hpp>
#include <ipc/core/error.hpp>
#include <ipc/mesh/collision_mesh.hpp>
#include <ipc/potentials/friction_potential.hpp>
#include <ipc/potentials/normal_adhesion_potential.hpp>

#include <Eigen/Core>

#include <cmath>
#include <string>

namespace ipc {

/// The tangential adhesion potential: FrictionPotential with the tangential
/// adhesion mollifier; its constructor takes eps_a (m, > 0).
using TangentialAdhesionPotential = FrictionPotential<TangentialAdhesionMollifier>;

/// The lagged tangential adhesion contacts of `collisions` at the lag
/// positions V (n x 3, m): one contact per stencil with a non-zero adhesion
/// force, normal force lambda_a = normal.stencil_force_magnitude (N), the
/// stencil's tangent basis and weights (contact types as in
/// FrictionCollisions::build) and coefficient mu_t. Throws
/// ipc::invalid_argument for bad positions, a bad mu_t, out-of-range
/// indices or a set built with a dhat below normal.dhat_a(), ipc::penetration
/// for a stencil at or inside its offset, ipc::degenerate_geometry for
/// degenerate primitives.
inline FrictionCollisions tangential_adhesion_collisions(const Collisions& collisions, const CollisionMesh& mesh,
                                                         const Eigen::Ref<const Eigen::MatrixXd>& V,
                                                         const NormalAdhesionPotential& normal, double mu_t)
{
    const char* who = "tangential_adhesion_collisions";
    require(std::isfinite(mu_t) && mu_t >= 0, who, ": mu_t must be finite and non-negative, got ", mu_t);
    normal.prepare(collisions, mesh, V, who); // validation only
    FrictionCollisions contacts;
    const auto add = [&](const auto& stencil, const auto& type, double force) {
        if (!(force > 0)) {
            return;
        }
        PairDistance pair;
        pair.stencil.count = int(stencil.size());
        for (std::size_t a = 0; a < stencil.size(); ++a) {
            pair.stencil.vertices[a] = stencil[a];
        }
        pair.type = type;
        contacts.add(pair, V, force, mu_t);
    };
    for (const auto& c : collisions.vertex_vertex) {
        add(c.vertices, std::monostate {},
            normal.stencil_force_magnitude(c, detail::gather_positions(V, c.vertices)));
    }
    for (const auto& c : collisions.edge_vertex) {
        add(c.vertices, PointEdgeDistanceType::P_E,
            normal.stencil_force_magnitude(c, detail::gather_positions(V, c.vertices)));
    }
    for (const auto& c : collisions.edge_edge) {
        add(c.vertices, c.type, normal.stencil_force_magnitude(c, detail::gather_positions(V, c.vertices)));
    }
    for (const auto& c : collisions.face_vertex) {
        add(c.vertices, PointTriangleDistanceType::P_T,
            normal.stencil_force_magnitude(c, detail::gather_positions(V, c.vertices)));
    }
    return contacts;
}

} // namespace ipc
