#pragma once
/// @file
/// Reader for the scene scripts of the IPC reference code (Li et al.,
/// "Incremental Potential Contact", SIGGRAPH 2020; ipc-sim/IPC), read as
/// that code reads them (docs/ipc-scene-scripts.md), producing a Scene of
/// the shared scene library. Defined in ipc_script.cpp (ipc_scenes library).
///
/// How a script maps onto Model and Scene (every deviation from the original
/// is reported in IpcScriptImport::warnings as "FILE:LINE: message"):
///
/// - Volumetric shapes (.msh) become Model::add_volume with
///   VolumeMaterial{density, E, nu, model}: model neo_hookean for `energy NH`
///   (and unknown names), fixed_corotated for `energy FCR`; a shape's
///   `material rho E nu` (rho > 0, E > 0) replaces density, E and nu for it.
///   Our Model takes the rest shape equal to the initial positions X0 (after
///   rotateModel, size and the script's lift). The original's X_rest is not
///   rotated by rotateModel and not lifted; both differences are rigid (a
///   rotation, a translation), so the elastic energy is the same.
/// - Codimensional shapes: .obj -> add_obstacle, .seg -> add_obstacle_segments,
///   .pt -> add_obstacle_points (a missing .seg/.pt falls back to <stem>.obj:
///   its unique edges, its vertices). They are held unless the script moves
///   them. Where the original would leave codim shapes free (non-DCO,
///   non-null scripts, and codim shapes beyond those DCORotCylinders,
///   DCOVerschoorRoller or DCOSquash6 drive) they stay held, with a warning:
///   our model gives them no elasticity.
/// - halfSpace / ground: an analytic PlaneObstacle in
///   Model::analytic_obstacles, as in the original (vertex-plane contacts of
///   the free surface vertices, exact CCD against the plane). It is drawn as
///   a square board centred at the projection of the centre of the AABB of
///   the volumetric initial positions, half-size 5 x max(that AABB's
///   diagonal, 1 m).
/// - meshCO: a static obstacle after the four-step transform (centroid,
///   rotation, scale by s / L0, translation). Its k and mu are not used (the
///   original evaluates no friction against it).
/// - Physics: dt = h; contact_gap = dhat = tuning[2] l (the continuation from
///   tuning[1] is not reproduced); eps_v = tuning[5] l (likewise tuning[4]);
///   newton_tolerance = tol[0] l with termination "max_norm" (later tol
///   values are not used); barrier_stiffness = tuning[0] when > 0 (else
///   automatic); friction_iterations = fricIterAmt (n <= 0 -> 20); gravity
///   (0, -9.80665, 0) unless turnOffGravity; scene offset 0; frames =
///   ceil(T / h). One friction coefficient: selfFric, or a halfSpace's mu
///   when the scene has exactly one volumetric shape and no codim shape
///   (a warning names both when they differ). Newmark (NM) runs as backward
///   Euler, dampingStiff is not modelled, warmStart 1 is not reproduced,
///   selfCollisionOff is not reproduced (warnings).
/// - Scripts: Dirichlet vertices become Model::fix or Model::script with
///   MotionSegments (rad/s; rotations about the fixed centres the spec
///   gives). Stop and reversal rules that depend only on prescribed vertices
///   (DCOSquash6, DCOSegBedSquash, DCOSqueezeOut, stretchAndPause) are
///   evaluated here by stepping the prescribed motion with h as the original
///   does at the start of each step, giving piecewise segments (beyond T the
///   last segment continues). dragright's release becomes Model::Release{x,
///   max x over the meshCO vertices}. Initial velocities (DCOBallHitWall,
///   initVel) go into Model::velocities. Forces and accelerations (NBC,
///   utopiaComparison's top band) cannot be represented: warned and ignored.
/// - Display-only, comparison-only (QP/SQP) and unused commands are accepted
///   with a warning; `section` blocks for other solvers are skipped with a
///   warning; any other command throws ipc::invalid_argument.

#include <common/scenes.hpp>

#include <ipc/core/types.hpp>

#include <string>
#include <vector>

namespace ipc::examples {

/// A scene read from an IPC script, with what the reader measured.
struct IpcScriptImport {
    Scene scene;                       ///< ready to run
    std::vector<std::string> warnings; ///< every ignored or approximated command, "FILE:LINE: message"
    double scale = 1;                  ///< the size rescale factor f (1 without size)
    double lift = 0;                   ///< the fall/dragright lift in y (0 for other scripts)
    double tolerance_length = 0;       ///< l: AABB diagonal of the volumetric rest shapes (spec section 6)
    Index volume_nodes = 0, volume_tets = 0, volume_faces = 0; ///< over the .msh shapes (faces: boundary triangles)
    std::string script_name;           ///< the animation script, e.g. "DCORotCylinders"
    double duration = 0;               ///< T from `time`
};

/// Reads an IPC (SIGGRAPH 2020) scene script; relative mesh paths are tried
/// against the script's folder, then each ancestor folder of it, then the
/// current directory. Throws ipc::invalid_argument (naming the file, the
/// line and the problem) for unknown commands or scripts, malformed or
/// missing arguments and unreadable meshes.
IpcScriptImport import_ipc_script(const std::string& path);

} // namespace ipc::examples
