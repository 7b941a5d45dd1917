#pragma once
/// @file
/// The scene library shared by every example solver (ipc_sim, al_sim): the
/// same name gives the same physical setup (sizes, materials, obstacles,
/// motions) under each of them. Each scene has a small default that runs in
/// seconds and a "paper" size closer to the resolution of the paper it
/// comes from (SceneSize says which scenes also have the paper's own vertex
/// count and a size series). y is up; units are metres, kilograms and
/// seconds.
///
/// A scene states its physics in solver-neutral terms (ScenePhysics); each
/// solver turns them into its own parameters (ipc/ipc_scenes.hpp,
/// al/al_scenes.hpp). Declared here, defined in scenes.cpp (compiled once,
/// in the ipc_scenes library).

#include <common/frame_output.hpp>
#include <common/model.hpp>


#include <optional>
#include <string>
#include <vector>

namespace ipc::examples {

/// What a scene asks of any solver that runs it.
struct ScenePhysics {
    double dt = 0.04;     ///< time step h (s)
    double contact_gap = 1e-3; ///< contact distance added to the offsets: IPC's dhat, AL's delta (m)
    double friction = 0;  ///< friction coefficient mu
    double eps_v = 1e-3;  ///< friction velocity threshold (m/s)
    std::optional<double> strain_limit; ///< cloth stretch limit s, for solvers that enforce one
    // Newton solver settings a scene may state (imported IPC scripts do);
    // unset means the solver's own default.
    std::optional<double> newton_tolerance; ///< eps_d (m/s)
    /// Newton stopping rule: "residual" (C-IPC eq. 13), "toi" (Zheng et al.
    /// 2025 Eq. 9) or "max_norm" (IPC 2020: |p|_inf / h < eps_d, once).
    std::optional<std::string> termination;
    std::optional<double> barrier_stiffness; ///< initial kappa (IPC tuning slot 0), else automatic
    int friction_iterations = 1; ///< lagged friction updates per step
};

/// A ready-to-run scene.
struct Scene {
    std::string name;
    std::string description; ///< one line for --list-scenes
    Model model;
    ScenePhysics physics;
    double offset = 0;    ///< pair offset xi (m) used for every vertex (radius xi/2)
    int frames = 25;      ///< default number of time steps
    Eigen::Vector3d eye { 0, 1, 2 };    ///< preview camera
    Eigen::Vector3d target { 0, 0, 0 };
    double shell_opacity = 1; ///< cloth opacity in the preview (below 1 shows what lies under it)
    /// Signed-distance stand-ins for the model's obstacle MESHES, where the
    /// scene can state them exactly, for solvers that collide only with
    /// distance fields (repulsion_sim). Obstacles that exist only as shapes
    /// (a ground plane) are in model.analytic_obstacles instead, and every
    /// solver collides with those.
    std::vector<AnalyticObstacle> shapes;
};

/// How the example programs show the scene.
inline FrameView view_of(const Scene& scene)
{
    return { scene.name, scene.eye, scene.target, scene.shell_opacity };
}

/// Names accepted by make_scene, in the order --list-scenes prints them.
std::vector<std::string> scene_names();

/// How large a built-in scene is built (--size):
/// - small: seconds to a minute;
/// - paper: the paper's setup at the resolution --list-scenes states, with
///   its share of the paper's vertex count where that is less than the
///   whole (several scenes are a fraction of it);
/// - full: the paper's own vertex count (the scenes with a size series:
///   chains, press, well);
/// - a vertex count N: the resolution whose vertex count is nearest N
///   (the same scenes), for size series.
struct SceneSize {
    enum class Kind { small, paper, full, vertices };
    Kind kind = Kind::small;
    Index vertices = 0; ///< the vertex count asked for (Kind::vertices)

    static SceneSize small() { return {}; }
    static SceneSize paper() { return { Kind::paper, 0 }; }
    static SceneSize full() { return { Kind::full, 0 }; }
    /// The resolution nearest n vertices; n must be positive.
    static SceneSize about(Index n);
    /// "small", "paper", "full" or a positive whole number of vertices
    /// (up to 100 million); throws ipc::invalid_argument naming the text
    /// otherwise.
    static SceneSize parse(const std::string& text);
    /// The text parse() reads back.
    std::string label() const;
};

/// The scene called name at the given size. Throws ipc::invalid_argument
/// for an unknown name, or a size the scene does not have (full and vertex
/// counts are for chains, press and well).
Scene make_scene(const std::string& name, const SceneSize& size);

/// The scene called name; paper selects the paper size. Throws
/// ipc::invalid_argument for an unknown name.
Scene make_scene(const std::string& name, bool paper = false);

/// The scenes that have the paper's own vertex count and a size series
/// (SceneSize::full and vertex counts).
std::vector<std::string> sized_scene_names();

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
/// friction coefficient mu (eps_v = 1e-5 m/s, h = 0.01 s). By name: the AL
/// paper's threshold test, angle atan(0.5), mu = 0.5.
Scene incline(double angle, double mu);

/// A cloth pinned at two corners hanging under gravity with the strain limit.
Scene hanging_cloth(bool paper);

/// The 1D elastic bar of the AL paper's Fig. 7: a vertical rod of 10
/// linear-spring segments (0.5 m, E = 1e4 Pa, radius 0.75 mm) above a rigid
/// board, contact gap 1e-6 m, h = 1e-3 s. Problem 1: thrown down at 1 m/s
/// without gravity, 5 cm above the board; problem 2: at rest 2 cm above
/// it, under gravity. The bar is the last 11 vertices, lowest first.
Scene bar_drop(int problem = 1);

/// Momentum (AL paper Fig. 8): a soft block thrown into a lighter one
/// without gravity, mu = 0.5; total linear momentum is conserved.
Scene momentum(bool paper);

/// Masonry arch (AL paper Fig. 10): a semicircular arch of stiff voussoirs
/// (E = 1e8 Pa) with 2 mm joints, the two bottom blocks fixed. It stands
/// with mu = 0.5 and collapses without friction.
Scene arch(bool paper, double mu = 0.5);

/// Chains (AL paper Fig. 3, with its Table 2 setup: fixed corotated,
/// rho = 1e3 kg/m^3, E = 1e5 Pa, nu = 0.3, h = 0.02 s, delta = 2e-4 m,
/// frictionless): three chains of seven interlocked rings (square-section
/// tori) in an open box, crushed by a lid that comes down to 6 cm above the
/// floor and goes back up (the paper shrinks the whole box). Sizes: small
/// (five rings a chain, 754 vertices), paper (2,050 vertices, 1/25 of the
/// paper's 51.0K), full (50,434, 99 %), or a vertex count.
Scene chains(const SceneSize& size);
Scene chains(bool paper);

/// Press ("squishy balls", AL paper Fig. 1, with its Table 2 setup: fixed
/// corotated, rho = 1e2 kg/m^3, E = 1e4 Pa, nu = 0.4, h = 0.01 s,
/// delta = 1e-3 m, frictionless): five soft balls on the ground crushed by a
/// moving plate to a third of their height, then released. Sizes: small
/// (four balls), paper (2,314 vertices, 1/376 of the paper's 0.87M), full
/// (880,474, 101 %), or a vertex count.
Scene press(const SceneSize& size);
Scene press(bool paper);

/// Well (AL paper Fig. 4, with its Table 2 setup: stable neo-Hookean,
/// rho = 1e3 kg/m^3, E = 5e5 Pa, nu = 0.3, h = 0.01 s, delta = 1e-3 m,
/// frictionless): a dozen soft balls and blocks thrown down a narrow square
/// well at 19.7 m/s (the paper's top objects land at that speed), each
/// travelling about twice its size per time step. Sizes: small, paper
/// (3,541 vertices, 1/121 of the paper's 0.43M), full (420,379, 98 %), or
/// a vertex count.
Scene well(const SceneSize& size);
Scene well(bool paper);

/// Compress (AL paper Fig. 24): a soft sphere (at paper size 3.1K tets,
/// neo-Hookean, h = 0.01 s, delta = dhat = 1 mm) squeezed between two plates
/// to 40% of its diameter.
Scene compress(bool paper);

/// Twisting cloth (AL paper Fig. 22): a square cloth whose left and right
/// edges turn in opposite directions at 180 degrees per second each.
Scene twist_cloth(bool paper);

/// Free fall (repulsion paper Sec. 5.2): a horizontal sheet falls without
/// obstacles for half a second; its speed should follow g t.
Scene free_fall(bool paper);

/// Pile: a long strip of cloth held upright and dropped onto the ground,
/// where it folds into a heap (heavy self-contact).
Scene pile(bool paper);

} // namespace ipc::examples
