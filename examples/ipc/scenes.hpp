#pragma once
/// @file
/// The example scenes of the reference C-IPC solver. Each has a small
/// default that runs in seconds and a "paper" size with the resolution and
/// parameters of C-IPC's Fig. 24 table (as far as a scene of this kind can
/// match them). y is up; units are metres, kilograms and seconds.
/// Declared here, defined in scenes.cpp (compiled once, in ipc_solver).

#include "solver.hpp"

#include <common/frame_output.hpp>
#include <common/model.hpp>

#include <string>
#include <vector>

namespace ipc::examples {

/// A ready-to-run scene.
struct Scene {
    std::string name;
    std::string description; ///< one line for --list-scenes
    Model model;
    SolverParameters parameters;
    double offset = 0;    ///< pair offset xi (m) used for every vertex (radius xi/2)
    int frames = 25;      ///< default number of time steps
    Eigen::Vector3d eye { 0, 1, 2 };    ///< preview camera
    Eigen::Vector3d target { 0, 0, 0 };
    double shell_opacity = 1; ///< cloth opacity in the preview (below 1 shows what lies under it)
};

/// How the example programs show the scene.
inline FrameView view_of(const Scene& scene)
{
    return { scene.name, scene.eye, scene.target, scene.shell_opacity };
}

/// Names accepted by make_scene.
std::vector<std::string> scene_names();

/// C-IPC "cloth on sphere": a square cotton sheet drapes over a fixed sphere
/// above the ground (h = 0.04 s, strain limit 1.0608, mu = 0.4, dhat = 1 mm).
Scene cloth_on_sphere(bool paper);

/// Sheets dropped one above the other onto a board, then a soft ball on top
/// (C-IPC's sphere-on-cloth-stack, h = 0.02 s, mu = 0.1, dhat = 1 mm).
Scene cloth_stack(bool paper);

/// Noodles: thick rods (offset 1 mm, dhat 0.5 mm, mu = 0.4) dropped in
/// crossing layers into a hemispherical bowl.
Scene noodles(bool paper);

/// Granules on a cloth held at its four corners (particles with a 2 mm
/// offset, dhat 1 mm, mu = 0.05, h = 0.01 s, strain limit 1.0608).
Scene granules(bool paper);

/// Everything together: a soft ball, a cloth, rods and a column of
/// particles, dropped one after another onto the ground (offset 0.5 mm,
/// dhat 1 mm, mu = 0.2, h = 0.02 s, strain limit 1.0608).
Scene all_in(bool paper);

/// A soft block resting on an incline of the given angle (radians) with
/// friction coefficient mu; no strain limit. Used by the tests.
Scene incline(double angle, double mu);

/// A cloth pinned at two corners hanging under gravity with the strain limit.
Scene hanging_cloth(bool paper);

/// The scene called name ("cloth_on_sphere", ...); paper selects the large
/// version. Throws ipc::invalid_argument for an unknown name.
Scene make_scene(const std::string& name, bool paper = false);

} // namespace ipc::examples
