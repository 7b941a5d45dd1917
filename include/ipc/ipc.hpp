#pragma once
/// @file
/// Umbrella header: includes every public header of the library, lower
/// layers first.

#include <ipc/config.hpp>

// Vocabulary shared by every block
#include <ipc/core/error.hpp>
#include <ipc/core/hash.hpp>
#include <ipc/core/math.hpp>
#include <ipc/core/parallel.hpp>
#include <ipc/core/psd_projection.hpp>
#include <ipc/core/toi_termination.hpp>
#include <ipc/core/types.hpp>

// Distance kernels: squared distances, gradients, Hessians, region classification
#include <ipc/distance/distance_type.hpp>
#include <ipc/distance/edge_edge.hpp>
#include <ipc/distance/edge_edge_mollifier.hpp>
#include <ipc/distance/line_line.hpp>
#include <ipc/distance/point_edge.hpp>
#include <ipc/distance/point_line.hpp>
#include <ipc/distance/point_plane.hpp>
#include <ipc/distance/point_point.hpp>
#include <ipc/distance/point_stencil.hpp>
#include <ipc/distance/point_triangle.hpp>
#include <ipc/distance/separation_bounds.hpp>

// Analytic signed-distance obstacles: plane, sphere, rounded box, capsule
#include <ipc/obstacles/sdf_hessian.hpp>
#include <ipc/obstacles/sdf_obstacle.hpp>

// Barrier shapes, thickness offsets, adaptive stiffness
#include <ipc/barrier/adaptive_stiffness.hpp>
#include <ipc/barrier/clamped_log_barrier.hpp>
#include <ipc/barrier/cubic_barrier.hpp>
#include <ipc/barrier/normalized_log_barrier.hpp>
#include <ipc/barrier/offset_barrier.hpp>

// Continuous collision detection
#include <ipc/ccd/additive_ccd.hpp>
#include <ipc/ccd/ccd_method.hpp>
#include <ipc/ccd/ccd_queries.hpp>
#include <ipc/ccd/ccd_reference.hpp>
#include <ipc/ccd/ccd_result.hpp>
#include <ipc/ccd/inclusion_ccd.hpp>
#include <ipc/ccd/point_pair_linear_motion.hpp>
#include <ipc/ccd/root_finding_ccd.hpp>
#include <ipc/ccd/root_finding_polynomial.hpp>

// Friction kernels for the lagged model
#include <ipc/friction/anisotropic_friction.hpp>
#include <ipc/friction/closest_point.hpp>
#include <ipc/friction/friction_blend.hpp>
#include <ipc/friction/friction_contact.hpp>
#include <ipc/friction/friction_energy.hpp>
#include <ipc/friction/friction_mollifier.hpp>
#include <ipc/friction/normal_force.hpp>
#include <ipc/friction/relative_displacement.hpp>
#include <ipc/friction/static_kinetic_friction.hpp>
#include <ipc/friction/tangent_basis.hpp>

// Adhesion kernels (normal profile, tangential mollifier)
#include <ipc/adhesion/normal_adhesion.hpp>
#include <ipc/adhesion/tangential_adhesion_mollifier.hpp>

// Strain-limit energy densities (C-IPC)
#include <ipc/strain_limit/anisotropic_strain_limit.hpp>
#include <ipc/strain_limit/isotropic_strain_limit.hpp>
#include <ipc/strain_limit/strain_limit_barrier.hpp>
#include <ipc/strain_limit/strain_limit_feasibility.hpp>
#include <ipc/strain_limit/strain_limit_stiffness.hpp>
#include <ipc/strain_limit/svd_3x2.hpp>
#include <ipc/strain_limit/triangle_rest_shape.hpp>

// Collision mesh and its collision filter (groups, pair rules, stiffness scales)
#include <ipc/mesh/collision_filter.hpp>
#include <ipc/mesh/collision_mesh.hpp>

// Broad phase
#include <ipc/broad_phase/aabb.hpp>
#include <ipc/broad_phase/broad_phase.hpp>
#include <ipc/broad_phase/brute_force.hpp>
#include <ipc/broad_phase/bvh.hpp>
#include <ipc/broad_phase/candidates.hpp>
#include <ipc/broad_phase/radius_query.hpp>
#include <ipc/broad_phase/radix_sort.hpp>
#include <ipc/broad_phase/spatial_hash.hpp>
#include <ipc/broad_phase/sweep_and_prune.hpp>

// Constraint sets, intersection test, minimum distance, step size
#include <ipc/collisions/collision_free_step_size.hpp>
#include <ipc/collisions/collision_hit.hpp>
#include <ipc/collisions/collision_hits.hpp>
#include <ipc/collisions/collisions.hpp>
#include <ipc/collisions/friction_collisions.hpp>
#include <ipc/collisions/intersection.hpp>
#include <ipc/collisions/minimum_distance.hpp>
#include <ipc/collisions/pair_distance.hpp>
#include <ipc/collisions/pair_id.hpp>
#include <ipc/collisions/persistent_constraints.hpp>

// Potentials over whole meshes
#include <ipc/potentials/assembly_layout.hpp>
#include <ipc/potentials/barrier_potential.hpp>
#include <ipc/potentials/friction_potential.hpp>
#include <ipc/potentials/normal_adhesion_potential.hpp>
#include <ipc/potentials/squared_gap_potentials.hpp>
#include <ipc/potentials/stencil_assembly.hpp>
#include <ipc/potentials/strain_limit_potential.hpp>
#include <ipc/potentials/tangential_adhesion_potential.hpp>

// Static obstacles (analytic shapes and signed-distance callbacks) in the
// contact pipeline: contacts, barrier, friction, CCD and step size
#include <ipc/obstacles/obstacle_barrier.hpp>
#include <ipc/obstacles/obstacle_ccd.hpp>
#include <ipc/obstacles/obstacle_collisions.hpp>
#include <ipc/obstacles/obstacle_friction.hpp>
#include <ipc/obstacles/obstacle_set.hpp>

// File formats
#include <ipc/io/ccd_queries.hpp>
#include <ipc/io/obj.hpp>

// Scoring CCD methods on the benchmark's query sets
#include <ipc/benchmark/ccd_benchmark.hpp>
