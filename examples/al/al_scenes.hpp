#pragma once
/// @file
/// The AL solver's parameters for a scene of the shared scene library
/// (common/scenes.hpp): the scene's time step, friction and eps_v,
/// delta = the scene's contact gap, k_min = 6 with friction or cloth and 2
/// otherwise, eps = 1e-3; for twist_cloth k_min = 2 and eps = 0.99, the
/// paper's setting for its twisting cloth (every step ends after two outer
/// iterations, however short their steps).

#include "al_solver.hpp"

#include <common/scenes.hpp>

namespace ipc::examples {

inline AlParameters al_parameters(const Scene& scene)
{
    AlParameters p;
    p.dt = scene.physics.dt;
    p.delta = scene.physics.contact_gap;
    p.friction = scene.physics.friction;
    p.eps_v = scene.physics.eps_v;
    p.k_min = p.friction > 0 || !scene.model.membranes.empty() ? 6 : 2;
    if (scene.name == "twist_cloth") {
        p.k_min = 2;
        p.eps = 0.99;
    }
    return p;
}

} // namespace ipc::examples
