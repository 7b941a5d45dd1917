#pragma once
/// @file
/// A mixed-dimensional elastic model (C-IPC eq. 3): tetrahedral volumes,
/// shells (membrane + hinge bending), rods (stretch + bending) and particles,
/// with lumped masses, gravity, fixed and scripted vertices and static
/// obstacles, all sharing one vertex array. It evaluates the elastic energy
/// Psi(x) element by element, with gradient and (per-element PSD-projected)
/// Hessian, for assembly with ipc::StencilAssembly, and
/// records what the contact side needs: surface triangles, rod edges and a
/// contact radius per vertex.
///
/// Units: metres, kilograms, seconds, pascals; energies in joules.

#include "hinge_bending.hpp"
#include "mass.hpp"
#include "membrane.hpp"
#include "rod_elasticity.hpp"
#include "sparse_assembly.hpp"
#include "tet_elasticity.hpp"

#include <ipc/core/error.hpp>
#include <ipc/core/math.hpp>
#include <ipc/core/psd_projection.hpp>
#include <ipc/mesh/collision_mesh.hpp>
#include <ipc/obstacles/obstacle_set.hpp>
#include <ipc/potentials/stencil_assembly.hpp>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <variant>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace ipc::examples {

/// Shell (cloth) material. Defaults: cotton as in C-IPC (Penava et al. 2014)
/// with the membrane stiffness scaled by 0.01 against locking.
struct ShellMaterial {
    double density = 472.6;        ///< kg/m^3
    double thickness = 0.318e-3;   ///< material thickness (m)
    double membrane_young = 0.8e6; ///< Young's modulus of the membrane (Pa), before scaling
    double membrane_scale = 0.01;  ///< factor on membrane_young
    double bending_young = 0.8e6;  ///< Young's modulus for bending (Pa)
    double poisson = 0.243;        ///< Poisson ratio
};

/// Volumetric material (stable neo-Hookean unless model says otherwise).
struct VolumeMaterial {
    double density = 1000; ///< kg/m^3
    double young = 1e5;    ///< Pa
    double poisson = 0.4;  ///< dimensionless
    VolumeModel model = VolumeModel::stable_neo_hookean; ///< energy density
};

/// Rod material: the radius sets mass, stretching and bending stiffness.
struct RodMaterial {
    double density = 1000; ///< kg/m^3
    double young = 1e6;    ///< Pa
    double radius = 0.75e-3; ///< physical radius (m)
};

/// Particle material.
struct ParticleMaterial {
    double density = 1600;  ///< kg/m^3
    double radius = 1e-3;   ///< physical radius (m), sets the mass
};

/// A static obstacle given exactly as a signed-distance shape (plane,
/// sphere, rounded box, capsule) rather than as a mesh: the solvers collide
/// with the shape itself (ipc::ObstacleCollisions), so a ground costs one
/// contact per vertex near it and no triangles. board_extent is the half-size
/// (m) of the square drawn for a plane in frames and pictures.
struct AnalyticObstacle {
    ipc::SdfObstacle shape;
    double board_extent = 1;
};

/// What a vertex belongs to (for rendering and statistics).
enum class VertexKind { volume, shell, rod, particle, obstacle };

/// One piece of a prescribed rigid motion. During [begin, end) (s) a point
/// turns at angular_velocity (rad/s: the axis times the rate, right-handed)
/// about center (m) and moves at velocity (m/s); the centre moves with it.
struct MotionSegment {
    double begin = 0;
    double end = std::numeric_limits<double>::infinity();
    Eigen::Vector3d velocity = Eigen::Vector3d::Zero();
    Eigen::Vector3d angular_velocity = Eigen::Vector3d::Zero();
    Eigen::Vector3d center = Eigen::Vector3d::Zero();
};

/// Exact equality (every field bit for bit).
inline bool operator==(const MotionSegment& a, const MotionSegment& b)
{
    return a.begin == b.begin && a.end == b.end && a.velocity == b.velocity
        && a.angular_velocity == b.angular_velocity && a.center == b.center;
}

/// Prescribed motion of a scripted vertex, as data (so that a scene can be
/// written to a file and read back): the segments act one after the other,
/// each for the part of [0, t] inside its window. A vertex with no segment
/// stays where it starts.
struct ScriptedMotion {
    std::vector<MotionSegment> segments;

    /// Position (m) at time t (s) of the point that starts at start.
    Eigen::Vector3d operator()(double t, const Eigen::Vector3d& start) const
    {
        Eigen::Vector3d x = start;
        for (const MotionSegment& s : segments) {
            if (!(t > s.begin)) {
                continue;
            }
            const double tau = std::min(t, s.end) - s.begin;
            const double rate = s.angular_velocity.norm();
            if (rate > 0) {
                x = s.center + Eigen::AngleAxisd(rate * tau, s.angular_velocity / rate) * (x - s.center);
            }
            x += tau * s.velocity;
        }
        return x;
    }

    /// Throws ipc::invalid_argument for non-finite values or an empty or
    /// reversed window; what names the motion in the message.
    void check(const std::string& what) const
    {
        for (std::size_t k = 0; k < segments.size(); ++k) {
            const MotionSegment& s = segments[k];
            require(std::isfinite(s.begin) && !std::isnan(s.end) && s.end > s.begin, what, ": segment ", k,
                " needs begin < end, got [", s.begin, ", ", s.end, ")");
            require(all_finite(s.velocity) && all_finite(s.angular_velocity) && all_finite(s.center), what,
                ": segment ", k, " has a non-finite velocity, angular velocity or centre");
        }
    }
};

/// Exact equality of two motions (the same segments, bit for bit).
inline bool operator==(const ScriptedMotion& a, const ScriptedMotion& b) { return a.segments == b.segments; }

/// A motion that translates at velocity v (m/s) during [begin, end).
inline ScriptedMotion translation(const Eigen::Vector3d& v, double begin = 0,
    double end = std::numeric_limits<double>::infinity())
{
    MotionSegment s;
    s.begin = begin;
    s.end = end;
    s.velocity = v;
    return { { s } };
}

/// A motion that turns at angular velocity w (rad/s) about center during
/// [begin, end).
inline ScriptedMotion rotation(const Eigen::Vector3d& w, const Eigen::Vector3d& center, double begin = 0,
    double end = std::numeric_limits<double>::infinity())
{
    MotionSegment s;
    s.begin = begin;
    s.end = end;
    s.angular_velocity = w;
    s.center = center;
    return { { s } };
}

/// The mixed-dimensional model; see the file comment.
class Model {
public:
    struct Tet {
        std::array<Index, 4> vertices;
        TetRest<double> rest;
        TetMaterial<double> material;
    };
    struct Membrane {
        std::array<Index, 3> vertices;
        TriangleRest<double> rest;
        MembraneMaterial<double> material;
    };
    struct Hinge {
        std::array<Index, 4> vertices;
        HingeRest<double> rest;
    };
    struct RodSegment {
        std::array<Index, 2> vertices;
        RodSegmentRest<double> rest;
    };
    struct RodJoint {
        std::array<Index, 3> vertices;
        RodJointRest<double> rest;
    };
    struct Scripted {
        Index vertex;
        ScriptedMotion motion;
    };
    /// A cloth as it was added: its vertex range, triangles (model
    /// indices) and material, for solvers that remesh or rebuild it.
    struct Shell {
        Index first_vertex;
        Index num_vertices;
        Eigen::MatrixXi faces;
        ShellMaterial material;
    };

    /// What an add_* call added: enough to add it again (common/scene_file.hpp
    /// writes a scene back out from these records).
    enum class BodyKind { shell, volume, rod, particles, obstacle, obstacle_segments, obstacle_points };
    struct Body {
        BodyKind kind = BodyKind::obstacle;
        Index first_vertex = 0; ///< its vertices are rows first_vertex .. first_vertex + num_vertices - 1
        Index num_vertices = 0;
        /// Body-local indices as given: triangles (shell, obstacle),
        /// tetrahedra (volume), segments (obstacle_segments); empty for a rod
        /// (a polyline in vertex order) and for points.
        Eigen::MatrixXi elements;
        std::variant<std::monostate, ShellMaterial, VolumeMaterial, RodMaterial, ParticleMaterial> material;
        double contact_radius = 0; ///< half the contact offset (m)
    };
    /// Scripted vertices released for good (they become free) at the start of
    /// the first step at which every vertex that is not an obstacle vertex
    /// has coordinate `axis` (0 x, 1 y, 2 z) above `above` (m): a body
    /// dragged until it has cleared an obstacle, then let go.
    struct Release {
        int axis = 0;
        double above = 0;
    };

    Eigen::MatrixXd positions;  ///< initial positions, n x 3 (m)
    Eigen::MatrixXd velocities; ///< initial velocities, n x 3 (m/s)
    Eigen::VectorXd mass;       ///< lumped mass per vertex (kg)
    Eigen::VectorXd contact_radius; ///< half the contact offset per vertex (m)
    std::vector<VertexKind> kind;
    std::vector<bool> fixed;        ///< held at the initial position
    std::vector<Scripted> scripted; ///< held on a prescribed path
    std::vector<Shell> shells;      ///< every cloth, in the order added
    std::vector<Body> bodies;       ///< every add_* call, in order
    std::optional<Release> release; ///< when scripted vertices are let go (none: never)
    /// Static obstacles given as exact shapes, with no vertices of their own
    /// (a ground plane); see add_analytic_obstacle.
    std::vector<AnalyticObstacle> analytic_obstacles;
    Eigen::Vector3d gravity { 0, -9.81, 0 }; ///< m/s^2, applied to free vertices

    std::vector<Tet> tets;
    std::vector<Membrane> membranes;
    std::vector<Hinge> hinges;
    std::vector<RodSegment> rod_segments;
    std::vector<RodJoint> rod_joints;

    std::vector<Eigen::Vector3i> contact_faces; ///< shells, volume boundaries, obstacles
    std::vector<Eigen::Vector2i> contact_edges; ///< rod segments (face edges are implied)
    std::vector<Eigen::Vector4i> tetrahedra;    ///< for the collision mesh's tet boundary

    /// Number of vertices.
    Index num_vertices() const { return positions.rows(); }

    /// Adds a cloth: vertices V (m x 3), consistently oriented triangles F.
    /// Every triangle gets a membrane and every interior edge a hinge.
    /// contact_radius is half the contact offset (m). Returns the index of
    /// the first new vertex. Throws for degenerate triangles or bad indices.
    Index add_shell(const Eigen::MatrixXd& V, const Eigen::MatrixXi& F, const ShellMaterial& m,
        double contact_radius)
    {
        const Index base = append_vertices(V, VertexKind::shell, contact_radius);
        check_indices(F, V.rows(), "shell triangle");
        const double E = m.membrane_young * m.membrane_scale;
        require(E > 0 && m.poisson > -1 && m.poisson < 0.5 && m.thickness > 0 && m.density > 0,
            "shell material: need positive stiffness, thickness and density and Poisson ratio in (-1, 0.5)");
        const double mu = E / (2 * (1 + m.poisson));
        const double lambda = E * m.poisson / (1 - m.poisson * m.poisson); // plane stress
        const MembraneMaterial<double> membrane { mu, lambda, m.thickness };
        shells.push_back({ base, V.rows(), F.array() + int(base), m });
        bodies.push_back({ BodyKind::shell, base, V.rows(), F, m, contact_radius });
        std::map<std::pair<Index, Index>, std::pair<Index, Index>> directed; // (a,b) -> (face, third)
        for (Index f = 0; f < F.rows(); ++f) {
            const std::array<Index, 3> t { base + F(f, 0), base + F(f, 1), base + F(f, 2) };
            const auto rest = triangle_rest<double>(row(t[0]), row(t[1]), row(t[2]));
            membranes.push_back({ t, rest, membrane });
            const double vertex_mass = triangle_vertex_mass(m.density, rest.area, m.thickness);
            for (const Index v : t) {
                mass[v] += vertex_mass;
            }
            contact_faces.emplace_back(int(t[0]), int(t[1]), int(t[2]));
            for (int k = 0; k < 3; ++k) {
                directed[{ t[std::size_t(k)], t[std::size_t((k + 1) % 3)] }] = { f, t[std::size_t((k + 2) % 3)] };
            }
        }
        const double k = hinge_stiffness(m.bending_young, m.poisson, m.thickness);
        for (const auto& [edge, info] : directed) {
            const auto other = directed.find({ edge.second, edge.first });
            if (other == directed.end() || edge.first > edge.second) {
                continue; // boundary edge, or the hinge is made from its twin
            }
            const std::array<Index, 4> h { edge.first, edge.second, info.second, other->second.second };
            Vector<double, 12> X;
            for (int i = 0; i < 4; ++i) {
                X.segment<3>(3 * i) = row(h[std::size_t(i)]);
            }
            hinges.push_back({ h, hinge_rest<double>(X, k) });
        }
        return base;
    }

    /// Adds a soft volume: vertices V, tetrahedra T (either orientation).
    Index add_volume(const Eigen::MatrixXd& V, const Eigen::MatrixXi& T, const VolumeMaterial& m,
        double contact_radius)
    {
        const Index base = append_vertices(V, VertexKind::volume, contact_radius);
        check_indices(T, V.rows(), "tetrahedron");
        bodies.push_back({ BodyKind::volume, base, V.rows(), T, m, contact_radius });
        const auto material = tet_material_from(m.model, m.young, m.poisson);
        for (Index t = 0; t < T.rows(); ++t) {
            std::array<Index, 4> v { base + T(t, 0), base + T(t, 1), base + T(t, 2), base + T(t, 3) };
            Matrix<double, 3> D;
            D << row(v[1]) - row(v[0]), row(v[2]) - row(v[0]), row(v[3]) - row(v[0]);
            if (D.determinant() < 0) {
                std::swap(v[2], v[3]);
            }
            const auto rest = tet_rest<double>(row(v[0]), row(v[1]), row(v[2]), row(v[3]));
            tets.push_back({ v, rest, material });
            for (const Index i : v) {
                mass[i] += tet_vertex_mass(m.density, rest.volume);
            }
            tetrahedra.emplace_back(int(v[0]), int(v[1]), int(v[2]), int(v[3]));
        }
        return base;
    }

    /// Adds one rod along the polyline V (k x 3, k >= 2). contact_radius is
    /// half the contact offset (m); the material radius sets the mechanics.
    Index add_rod(const Eigen::MatrixXd& V, const RodMaterial& m, double contact_radius)
    {
        require(V.rows() >= 2, "a rod needs at least 2 vertices, got ", V.rows());
        const Index base = append_vertices(V, VertexKind::rod, contact_radius);
        bodies.push_back({ BodyKind::rod, base, V.rows(), Eigen::MatrixXi(), m, contact_radius });
        const double ks = m.young * pi * m.radius * m.radius;
        const double alpha = m.young * pi * m.radius * m.radius * m.radius * m.radius / 4;
        for (Index i = 0; i + 1 < V.rows(); ++i) {
            const double length = (V.row(i + 1) - V.row(i)).norm();
            require<degenerate_geometry>(length > 0, "rod segment ", i, " has zero length");
            rod_segments.push_back({ { base + i, base + i + 1 }, { length, ks } });
            contact_edges.emplace_back(int(base + i), int(base + i + 1));
            const double vertex_mass = rod_segment_vertex_mass(m.density, m.radius, length);
            mass[base + i] += vertex_mass;
            mass[base + i + 1] += vertex_mass;
        }
        for (Index i = 1; i + 1 < V.rows(); ++i) {
            rod_joints.push_back({ { base + i - 1, base + i, base + i + 1 },
                { (V.row(i) - V.row(i - 1)).norm(), (V.row(i + 1) - V.row(i)).norm(), alpha } });
        }
        return base;
    }

    /// Adds free particles at the rows of V.
    Index add_particles(const Eigen::MatrixXd& V, const ParticleMaterial& m, double contact_radius)
    {
        const Index base = append_vertices(V, VertexKind::particle, contact_radius);
        bodies.push_back({ BodyKind::particles, base, V.rows(), Eigen::MatrixXi(), m, contact_radius });
        for (Index i = 0; i < V.rows(); ++i) {
            mass[base + i] = particle_mass(m.density, m.radius);
        }
        return base;
    }

    /// Adds a static obstacle (held triangles). Script its vertices to move it.
    Index add_obstacle(const Eigen::MatrixXd& V, const Eigen::MatrixXi& F, double contact_radius = 0)
    {
        const Index base = append_obstacle_vertices(V, contact_radius);
        check_indices(F, V.rows(), "obstacle triangle");
        bodies.push_back({ BodyKind::obstacle, base, V.rows(), F, std::monostate {}, contact_radius });
        for (Index f = 0; f < F.rows(); ++f) {
            contact_faces.emplace_back(int(base + F(f, 0)), int(base + F(f, 1)), int(base + F(f, 2)));
        }
        return base;
    }

    /// Adds a static obstacle given exactly by a shape (e.g. a ground
    /// ipc::PlaneObstacle); board_extent (m) is the half-size of the square
    /// drawn for a plane. Throws ipc::invalid_argument for an invalid shape.
    void add_analytic_obstacle(const ipc::SdfObstacle& shape, double board_extent = 1)
    {
        std::visit([](const auto& s) { ipc::check_obstacle(s); }, shape);
        require(std::isfinite(board_extent) && board_extent > 0, "analytic obstacle: board_extent must be positive, got ",
            board_extent);
        analytic_obstacles.push_back({ shape, board_extent });
    }

    /// This model with every analytic obstacle replaced by an obstacle mesh
    /// inscribed in its shape (ipc::obstacle_mesh; a plane becomes the square
    /// board of its board_extent), appended after the other vertices: for
    /// solvers that collide with meshes only.
    Model with_meshed_obstacles() const
    {
        Model m = *this;
        m.analytic_obstacles.clear();
        for (const AnalyticObstacle& a : analytic_obstacles) {
            const ipc::ObstacleMesh mesh = ipc::obstacle_mesh(a.shape, 48, a.board_extent);
            m.add_obstacle(mesh.vertices, mesh.faces);
        }
        return m;
    }

    /// The analytic obstacles as an ipc::ObstacleSet (in order).
    ipc::ObstacleSet obstacle_set() const
    {
        ipc::ObstacleSet set;
        for (const AnalyticObstacle& a : analytic_obstacles) {
            set.shapes.push_back(a.shape);
        }
        return set;
    }

    /// Adds held segments E (pairs of rows of V) as an obstacle, e.g. pins.
    Index add_obstacle_segments(const Eigen::MatrixXd& V, const Eigen::MatrixXi& E, double contact_radius = 0)
    {
        const Index base = append_obstacle_vertices(V, contact_radius);
        check_indices(E, V.rows(), "obstacle segment");
        bodies.push_back({ BodyKind::obstacle_segments, base, V.rows(), E, std::monostate {}, contact_radius });
        for (Index e = 0; e < E.rows(); ++e) {
            contact_edges.emplace_back(int(base + E(e, 0)), int(base + E(e, 1)));
        }
        return base;
    }

    /// Adds held points (the rows of V) as an obstacle.
    Index add_obstacle_points(const Eigen::MatrixXd& V, double contact_radius = 0)
    {
        const Index base = append_obstacle_vertices(V, contact_radius);
        bodies.push_back(
            { BodyKind::obstacle_points, base, V.rows(), Eigen::MatrixXi(), std::monostate {}, contact_radius });
        return base;
    }

    /// Holds vertex v at its initial position.
    void fix(Index v)
    {
        require(v >= 0 && v < num_vertices(), "fix: vertex ", v, " out of range");
        fixed[std::size_t(v)] = true;
    }

    /// Moves vertex v along a prescribed path.
    void script(Index v, ScriptedMotion motion)
    {
        require(v >= 0 && v < num_vertices(), "script: vertex ", v, " out of range");
        motion.check("script of vertex " + std::to_string(v));
        scripted.push_back({ v, std::move(motion) });
    }

    /// The collision mesh of the contact surfaces, edges and tetrahedra at
    /// the initial positions, with the contact radii and the held vertices
    /// as prescribed (no obstacle-obstacle pairs; validated by
    /// CollisionMesh: degenerate or out-of-range elements throw).
    CollisionMesh collision_mesh() const
    {
        Eigen::MatrixXi F(Index(contact_faces.size()), 3), E(Index(contact_edges.size()), 2),
            T(Index(tetrahedra.size()), 4);
        for (std::size_t i = 0; i < contact_faces.size(); ++i) {
            F.row(Index(i)) = contact_faces[i].transpose();
        }
        for (std::size_t i = 0; i < contact_edges.size(); ++i) {
            E.row(Index(i)) = contact_edges[i].transpose();
        }
        for (std::size_t i = 0; i < tetrahedra.size(); ++i) {
            T.row(Index(i)) = tetrahedra[i].transpose();
        }
        return CollisionMesh::Builder(positions)
            .tetrahedra(T)
            .faces(F)
            .edges(E)
            .vertex_radii(contact_radius)
            .prescribed_vertices(held())
            .build();
    }

    /// True for vertices whose position is prescribed (fixed, scripted).
    std::vector<bool> held() const
    {
        std::vector<bool> h = fixed;
        for (const auto& s : scripted) {
            h[std::size_t(s.vertex)] = true;
        }
        return h;
    }

    /// Applies the release rule at positions x (n x 3, m): when every vertex
    /// that is not an obstacle vertex is beyond it, the scripted vertices
    /// become free for good (scripted is cleared; fixed vertices stay
    /// held). Returns true when it released them; the caller then takes
    /// held() and collision_mesh() again.
    bool release_scripts_if_due(const Eigen::MatrixXd& x)
    {
        if (!release || scripted.empty()) {
            return false;
        }
        for (Index v = 0; v < x.rows(); ++v) {
            if (kind[std::size_t(v)] != VertexKind::obstacle && !(x(v, release->axis) > release->above)) {
                return false;
            }
        }
        scripted.clear();
        return true;
    }

    /// Calls visit(element) on element k (see num_elements for the order).
    template <typename Visit> decltype(auto) visit_element(Index k, const Visit& visit) const
    {
        require(k >= 0 && k < num_elements(), "element ", k, " out of range");
        std::size_t i = std::size_t(k);
        if (i < tets.size()) {
            return visit(tets[i]);
        }
        i -= tets.size();
        if (i < membranes.size()) {
            return visit(membranes[i]);
        }
        i -= membranes.size();
        if (i < hinges.size()) {
            return visit(hinges[i]);
        }
        i -= hinges.size();
        if (i < rod_segments.size()) {
            return visit(rod_segments[i]);
        }
        return visit(rod_joints[i - rod_segments.size()]);
    }

    // Elastic elements, numbered tets, membranes, hinges, rod segments, rod
    // joints in that order; each has at most four vertices, so the solver can
    // assemble them with ipc::StencilAssembly.

    /// Number of elastic elements.
    Index num_elements() const
    {
        return Index(tets.size() + membranes.size() + hinges.size() + rod_segments.size() + rod_joints.size());
    }

    /// Vertices of element k.
    StencilVertices element_vertices(Index k) const
    {
        return visit_element(k, [](const auto& element) {
            StencilVertices s;
            s.size = int(element.vertices.size());
            std::copy(element.vertices.begin(), element.vertices.end(), s.vertices.begin());
            return s;
        });
    }

    /// Elastic energy (J) of element k at positions x (n x 3, m).
    double element_energy(Index k, const Eigen::MatrixXd& x) const;

    /// Writes the gradient of element k's energy (3 entries per element
    /// vertex, in its vertex order) at the head of out.
    void element_gradient(Index k, const Eigen::MatrixXd& x, Vector<double, 12>& out) const;

    /// Writes the (projected) Hessian of element k's energy in the top-left
    /// corner of out.
    void element_hessian(Index k, const Eigen::MatrixXd& x, PSDProjection projection, Matrix<double, 12, 12>& out) const;

    // The three above are compiled once, in model.cpp: instantiating every
    // element's closed-form derivatives costs each file that includes this
    // header half a minute of compile time.

private:
    Eigen::Vector3d row(Index v) const { return positions.row(v).transpose(); }


    Index append_obstacle_vertices(const Eigen::MatrixXd& V, double radius)
    {
        const Index base = append_vertices(V, VertexKind::obstacle, radius);
        for (Index i = 0; i < V.rows(); ++i) {
            fixed[std::size_t(base + i)] = true;
            mass[base + i] = 1; // never used: held vertices are not unknowns
        }
        return base;
    }

    Index append_vertices(const Eigen::MatrixXd& V, VertexKind k, double radius)
    {
        require(V.cols() == 3, "vertex arrays need 3 columns, got ", V.cols());
        require(all_finite(V), "vertex positions must be finite");
        require(std::isfinite(radius) && radius >= 0, "contact radius ", radius, " must be >= 0");
        const Index base = num_vertices();
        const Index n = base + V.rows();
        positions.conservativeResize(n, 3);
        velocities.conservativeResize(n, 3);
        mass.conservativeResize(n);
        contact_radius.conservativeResize(n);
        positions.bottomRows(V.rows()) = V;
        velocities.bottomRows(V.rows()).setZero();
        mass.tail(V.rows()).setZero();
        contact_radius.tail(V.rows()).setConstant(radius);
        kind.insert(kind.end(), std::size_t(V.rows()), k);
        fixed.insert(fixed.end(), std::size_t(V.rows()), false);
        return base;
    }

    static void check_indices(const Eigen::MatrixXi& E, Index n, const char* what)
    {
        for (Index i = 0; i < E.rows(); ++i) {
            for (Index j = 0; j < E.cols(); ++j) {
                require(E(i, j) >= 0 && E(i, j) < n, what, " ", i, " refers to vertex ", E(i, j),
                    " of ", n);
            }
        }
    }
};

} // namespace ipc::examples
