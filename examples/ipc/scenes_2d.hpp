#pragma once
/// @file
/// The 2D scenes of ipc_sim (run by Simulator2D, solver_2d.hpp), next to the
/// 3D scenes of the shared scene library (common/scenes.hpp):
///
/// - boxes_2d: soft squares, a disc, an L shape and a rope fall into an open
///   box (a fixed floor and two walls) with friction.
///
/// Builders for the shapes (triangulated grids and discs) are declared here
/// as well, for tests and new scenes.

#include "solver.hpp"

#include <common/model_2d.hpp>

#include <Eigen/Core>

#include <string>
#include <vector>

namespace ipc::examples {

/// A 2D scene: its bodies, solver parameters and how it is shown.
struct Scene2D {
    std::string name;
    std::string description; ///< one line for --list-scenes
    Model2D model;
    SolverParameters parameters; ///< dt, dhat, mu, eps_v set by the scene
    double offset = 0;           ///< largest pair offset xi = 2 * largest contact radius (m)
    int frames = 100;            ///< default number of time steps
    Eigen::Vector2d view_center { 0, 0 }; ///< centre of the picture (m)
    double view_height = 1;               ///< height of the world shown in the picture (m)
};

/// Names of the 2D scenes, in --list-scenes order.
std::vector<std::string> scene_names_2d();

/// Whether name is one of scene_names_2d().
bool is_scene_2d(const std::string& name);

/// The 2D scene called name; paper selects the larger, finer version.
/// Throws ipc::invalid_argument for an unknown name.
Scene2D make_scene_2d(const std::string& name, bool paper = false);

/// A triangulated 2D shape: vertices (k x 2, m) and triangles (m x 3).
struct Mesh2D {
    Eigen::MatrixXd V;
    Eigen::MatrixXi T;
};

/// A triangulated grid: cells_x x cells_y square cells of side cell (m),
/// each split into two triangles along alternating diagonals, lower-left
/// corner at the origin; keep(i, j, cells_x, cells_y) (none: all) says whether cell (i, j) is part of the
/// shape (vertices of no kept cell are left out). Returns the vertices (k x
/// 2) and triangles (m x 3). Throws ipc::invalid_argument for non-positive
/// sizes or when no cell is kept.
Mesh2D grid_mesh_2d(int cells_x, int cells_y, double cell, bool (*keep)(int i, int j, int cells_x, int cells_y) = nullptr);

/// A disc of the given radius (m) centred at the origin: a centre vertex and
/// `rings` rings of `segments` vertices each, joined by triangles. Throws
/// ipc::invalid_argument for rings < 1, segments < 3 or a non-positive radius.
Mesh2D disc_mesh_2d(double radius, int rings, int segments);

} // namespace ipc::examples
