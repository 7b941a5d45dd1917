#pragma once
/// @file
/// Turns a scene of the shared library (common/scenes.hpp) into a problem
/// for the repulsion integrator. The method needs uniform edge lengths (its
/// separation B and edge cap L derive from one rest edge length L_ref), so
/// every cloth is remeshed as a lattice of nearly equilateral triangles
/// with edge L_ref over the same flat rectangle, keeping its material.
/// Fixed and scripted vertices carry over to the lattice vertices on or
/// near them (within 0.55 lattice spacings of a held vertex or of a mesh
/// edge between two held vertices), with the same motion. Obstacles come
/// from the scene's signed-distance shapes. Bodies the method does not
/// simulate (volumes, rods, particles) are left out, each with a note.

#include "repulsion_solver.hpp"

#include <common/scenes.hpp>

#include <string>
#include <vector>

namespace ipc::examples {

/// A scene ready for RepulsionSimulator.
struct RepulsionScene {
    Model model;                 ///< the remeshed cloth
    RepulsionParameters parameters;
    std::vector<AnalyticObstacle> obstacles; ///< the same bodies as parameters.obstacles, with drawing sizes
    int frames = 0;              ///< steps of h covering the scene's default duration
    std::vector<std::string> notes; ///< what differs from the scene, one line each
};

/// The lattice edge length that gives about target_vertices cloth vertices
/// over the scene's cloth area, reduced where the cloth starts too close to
/// another sheet for the constraints to hold (pairs start at least
/// B + B_t = 1.55 L_ref apart) or to an obstacle (its margin).
double choose_rest_edge(const Scene& scene, double target_vertices);

/// The repulsion problem of scene. rest_edge = 0 chooses it for about 1,000
/// cloth vertices (paper: 50,000); h = 0.01 s unless dt > 0 (never more
/// than the scene's own step). Throws ipc::invalid_argument for a cloth
/// that is not a flat rectangle, or mesh obstacles without shapes.
RepulsionScene repulsion_scene(const Scene& scene, bool paper, double rest_edge = 0, double dt = 0);

} // namespace ipc::examples
