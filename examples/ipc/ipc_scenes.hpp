#pragma once
/// @file
/// The reference IPC solver's parameters for a scene of the shared scene
/// library (common/scenes.hpp): its time step, dhat = the scene's contact
/// gap, friction, eps_v and strain limit; everything else at the solver's
/// defaults.

#include "solver.hpp"

#include <common/scenes.hpp>

#include <ipc/core/error.hpp>

#include <algorithm>
#include <string>

namespace ipc::examples {

inline SolverParameters ipc_parameters(const Scene& scene)
{
    SolverParameters p;
    p.dt = scene.physics.dt;
    p.dhat = scene.physics.contact_gap;
    p.mu = scene.physics.friction;
    p.eps_v = scene.physics.eps_v;
    p.strain_limit = scene.physics.strain_limit;
    p.friction_iterations = std::max(1, scene.physics.friction_iterations);
    p.barrier_stiffness = scene.physics.barrier_stiffness;
    if (scene.physics.newton_tolerance) {
        p.newton_tolerance = *scene.physics.newton_tolerance;
    }
    if (scene.physics.termination) {
        const std::string& t = *scene.physics.termination;
        require(t == "residual" || t == "toi" || t == "max_norm", "scene ", scene.name,
            ": unknown Newton termination '", t, "' (residual, toi or max_norm)");
        p.termination = t == "toi" ? SolverParameters::Termination::toi
            : t == "max_norm"      ? SolverParameters::Termination::max_norm
                                   : SolverParameters::Termination::residual;
    }
    return p;
}

} // namespace ipc::examples
