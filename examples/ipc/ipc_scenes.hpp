#pragma once
/// @file
/// The reference IPC solver's parameters for a scene of the shared scene
/// library (common/scenes.hpp): its time step, dhat = the scene's contact
/// gap, friction, eps_v and strain limit; everything else at the solver's
/// defaults.

#include "solver.hpp"

#include <common/scenes.hpp>

namespace ipc::examples {

inline SolverParameters ipc_parameters(const Scene& scene)
{
    SolverParameters p;
    p.dt = scene.physics.dt;
    p.dhat = scene.physics.contact_gap;
    p.mu = scene.physics.friction;
    p.eps_v = scene.physics.eps_v;
    p.strain_limit = scene.physics.strain_limit;
    return p;
}

} // namespace ipc::examples
