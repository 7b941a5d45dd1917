#pragma once
/// @file
/// The AL solver's parameters for a scene of the shared scene library
/// (examples/ipc/scenes.hpp): the scene's time step, friction and eps_v,
/// delta = the scene's dhat, k_min = 6 with friction or cloth and 2
/// otherwise (the paper's choice), eps = 1e-3.

#include "al_solver.hpp"

#include <ipc/scenes.hpp>

namespace ipc::examples {

inline AlParameters al_parameters(const Scene& scene)
{
    AlParameters p;
    p.dt = scene.parameters.dt;
    p.delta = scene.parameters.dhat;
    p.friction = scene.parameters.mu;
    p.eps_v = scene.parameters.eps_v;
    p.k_min = p.friction > 0 || !scene.model.membranes.empty() ? 6 : 2;
    return p;
}

} // namespace ipc::examples
