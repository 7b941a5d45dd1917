#pragma once
/// @file
/// CollisionMesh: the primitives that take part in contact, who may touch
/// whom, and how thick everything is. One source of truth for the broad phase,
/// the constraint-set builder, the potentials and the step size.
///
/// Pair rules (after C-IPC section 3; a pair is never admissible when its two
/// primitives share a vertex):
///
/// 3D
/// - point-triangle (face, vertex): every colliding vertex against every
///   face. Colliding vertices are the vertices of faces, of edges and the
///   free particles; interior vertices of a tetrahedral mesh do not collide.
/// - edge-edge (edge0, edge1): any two edges (face edges and rod edges).
/// - point-edge (edge, vertex): rod edges (edges on no face) against vertices
///   on no face (rod nodes and free particles). A vertex that lies on a face
///   is already covered by the edge-edge pairs of its face edges, and a
///   vertex near a face edge by its point-triangle pair, so those pairs are
///   not repeated.
/// - point-point (v0, v1): free particles against free particles.
/// - In every case, a pair whose vertices are all prescribed
///   (Builder::prescribed_vertices: obstacles, fixed or moved by a script) is
///   never admissible: nothing in it can respond, and obstacles may touch or
///   overlap each other by design.
/// - In every case, the collision filter (collision_filter.hpp: per-vertex
///   group ids, group pairs that never collide, per-group-pair stiffness
///   scales, a vertex-pair predicate) must admit the pair: some (vertex of
///   one primitive, vertex of the other) pair may collide.
///
/// 2D (positions with two columns; faces are not allowed)
/// - point-edge: every colliding vertex against every edge.
/// - point-point: free particles against free particles.
///
/// Degenerate elements: construction rejects (ipc::degenerate_geometry) an
/// edge of zero rest length and a face of zero rest area, measured as
///  - edge (a, b): |x_b - x_a| <= degenerate_tolerance * D, with D the
///    diagonal of the bounding box of all rest positions (a mesh whose
///    vertices all coincide therefore has only degenerate edges);
///  - face (a, b, c): its height over its longest edge L is at most
///    degenerate_tolerance * L (|(x_b - x_a) x (x_c - x_a)| <= tolerance * L^2:
///    collinear up to rounding), or L <= degenerate_tolerance * D (the face
///    is a point at the mesh's scale).
/// degenerate_tolerance is 1e-12: a few thousand times the rounding of
/// coordinates near the bounding box, far below any element a simulation can
/// resolve. Builder::allow_degenerate_elements(true) keeps such elements (later
/// calls may then throw ipc::degenerate_geometry where a direction is needed,
/// e.g. the edge-edge mollifier of a zero-length rest edge). Elements that
/// repeat a vertex index and tetrahedra of exactly zero rest volume are
/// always rejected.
///
/// Thickness: every vertex carries a radius r >= 0 (half the contact
/// thickness, metres, default 0). An edge's or face's radius is the largest of
/// its vertices' radii, and a pair's offset is xi = r_a + r_b: the pair is
/// required to stay farther apart than xi, and is active when its distance is
/// below xi + dhat.

#include <ipc/core/error.hpp>
#include <ipc/core/hash.hpp>
#include <ipc/core/types.hpp>
#include <ipc/mesh/collision_filter.hpp>

#include <Eigen/Core>
#include <Eigen/Geometry>

#include <tsl/robin_map.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace ipc {

/// The contact primitives of a simulation mesh; see the file comment for the
/// pair rules. Vertex indices are the rows of the user's vertex matrix, so
/// positions passed to the broad phase and potentials are the full vertex
/// matrix (one row per vertex, dim() columns).
class CollisionMesh {
public:
    class Builder;

    /// Relative tolerance of the zero-length edge and zero-area face test at
    /// construction (see the file comment).
    static constexpr double degenerate_tolerance = 1e-12;

    /// An empty mesh (no vertices, 3D).
    CollisionMesh() = default;

    /// Mesh from rest positions V (n x 2 or n x 3, metres), edges E (m x 2)
    /// and faces F (k x 3; 3D only), vertex indices zero-based.
    ///
    /// The edges of every face are added automatically when E does not list
    /// them (E may be empty for a pure triangle mesh); edges given in E keep
    /// their row index and the missing face edges follow in order of first
    /// appearance. Edges on no face are rod edges; vertices on no edge or
    /// face are free particles. vertex_radii (n entries, metres, half the
    /// contact thickness) defaults to zero.
    ///
    /// Throws ipc::invalid_argument for non-finite coordinates, wrong column
    /// counts, out-of-range indices, repeated elements, faces in 2D or bad
    /// radii, and ipc::degenerate_geometry for an element that repeats a
    /// vertex, an edge of zero rest length or a face of zero rest area (see
    /// the file comment for the criterion; use
    /// Builder::allow_degenerate_elements to keep them); the message names
    /// the element, its index and its vertices.
    CollisionMesh(
        const Eigen::Ref<const Eigen::MatrixXd>& V,
        const Eigen::Ref<const Eigen::MatrixXi>& E,
        const Eigen::Ref<const Eigen::MatrixXi>& F,
        const Eigen::Ref<const Eigen::VectorXd>& vertex_radii = Eigen::VectorXd());

    /// Mesh of the boundary of a tetrahedral mesh T (t x 4) over rest
    /// positions V (n x 3): faces used by exactly one tetrahedron, oriented
    /// with outward normals (right-hand rule), plus their edges. Interior
    /// vertices do not collide; vertices on no tetrahedron are free
    /// particles. radius is the uniform vertex radius (metres).
    /// Throws as the main constructor, plus ipc::degenerate_geometry for a
    /// tetrahedron of zero rest volume and ipc::invalid_argument for a
    /// triangle shared by more than two tetrahedra.
    static CollisionMesh from_tetrahedra(
        const Eigen::Ref<const Eigen::MatrixXd>& V,
        const Eigen::Ref<const Eigen::MatrixXi>& T,
        double radius = 0.0);

    // ---------------------------------------------------------------- sizes

    /// Spatial dimension: 2 or 3.
    int dim() const { return dim_; }
    /// Number of vertices (rows of the rest positions), colliding or not.
    Index num_vertices() const { return rest_positions_.rows(); }
    /// Number of edges (face edges and rod edges).
    Index num_edges() const { return edges_.rows(); }
    /// Number of faces (triangles; 0 in 2D).
    Index num_faces() const { return faces_.rows(); }

    // ---------------------------------------------------------- connectivity

    /// Identifies this mesh's elements and vertex roles: meshes with the
    /// same id have the same edges, faces and colliding, codimensional,
    /// particle and rod sets (a copy keeps its original's id; every
    /// construction draws a new one). The broad phase keeps its trees
    /// between queries on one topology and refits them instead of
    /// rebuilding.
    std::uint64_t topology_id() const { return topology_id_; }

    /// Rest positions, n x dim(), metres.
    const Eigen::MatrixXd& rest_positions() const { return rest_positions_; }
    /// Edges, m x 2 vertex indices.
    const Eigen::MatrixXi& edges() const { return edges_; }
    /// Faces, k x 3 vertex indices (counter-clockwise seen from the front).
    const Eigen::MatrixXi& faces() const { return faces_; }

    /// True when vertex v takes part in contact at all.
    bool is_collision_vertex(Index v) const { return vertex_flags_[size_t(v)] & collides_flag; }
    /// True when vertex v belongs to at least one face.
    bool is_on_face(Index v) const { return vertex_flags_[size_t(v)] & on_face_flag; }
    /// True when vertex v is a free particle (colliding, on no edge or face).
    bool is_particle(Index v) const { return vertex_flags_[size_t(v)] & particle_flag; }
    /// True when vertex v's motion is prescribed (Builder::prescribed_vertices).
    bool is_prescribed(Index v) const { return vertex_flags_[size_t(v)] & prescribed_flag; }
    /// True when some vertex is prescribed.
    bool has_prescribed_vertices() const { return has_prescribed_; }
    /// True when edge e belongs to no face (a rod segment).
    bool is_rod_edge(Index e) const { return edge_is_rod_[size_t(e)] != 0; }

    /// Colliding vertices, ascending.
    const std::vector<Index>& collision_vertices() const { return collision_vertices_; }
    /// Colliding vertices on no face (rod nodes and particles), ascending.
    const std::vector<Index>& codim_vertices() const { return codim_vertices_; }
    /// Free particles, ascending.
    const std::vector<Index>& particles() const { return particles_; }
    /// Edges on no face, ascending.
    const std::vector<Index>& rod_edges() const { return rod_edges_; }

    // --------------------------------------------------------------- radii

    /// Radius (half thickness, metres) of every vertex.
    const Eigen::VectorXd& vertex_radii() const { return vertex_radii_; }
    /// Radius of each edge: the largest of its two vertices' radii.
    const Eigen::VectorXd& edge_radii() const { return edge_radii_; }
    /// Radius of each face: the largest of its three vertices' radii.
    const Eigen::VectorXd& face_radii() const { return face_radii_; }
    /// True when some vertex has a positive radius.
    bool has_thickness() const { return max_radius_ > 0.0; }
    /// Largest vertex radius (metres; 0 for an empty mesh).
    double max_radius() const { return max_radius_; }

    /// Offset xi (metres) of a point-point pair: r_v0 + r_v1.
    double vertex_vertex_offset(Index v0, Index v1) const
    {
        return vertex_radii_[v0] + vertex_radii_[v1];
    }
    /// Offset xi of a point-edge pair: r_edge + r_vertex.
    double edge_vertex_offset(Index edge, Index vertex) const
    {
        return edge_radii_[edge] + vertex_radii_[vertex];
    }
    /// Offset xi of an edge-edge pair: r_edge0 + r_edge1.
    double edge_edge_offset(Index edge0, Index edge1) const
    {
        return edge_radii_[edge0] + edge_radii_[edge1];
    }
    /// Offset xi of a point-triangle pair: r_face + r_vertex.
    double face_vertex_offset(Index face, Index vertex) const
    {
        return face_radii_[face] + vertex_radii_[vertex];
    }

    // -------------------------------------------------------- admissibility
    // These say whether a pair belongs to the contact set at all (pair rules
    // and incidence exclusions from the file comment). Indices are not range
    // checked: they are meant for inner loops.

    /// Point-triangle pair admissible: 3D, v collides, v not a vertex of f.
    bool can_collide_face_vertex(Index face, Index vertex) const
    {
        if (dim_ != 3 || !is_collision_vertex(vertex)) {
            return false;
        }
        const int v = int(vertex);
        return faces_(face, 0) != v && faces_(face, 1) != v && faces_(face, 2) != v
            && !all_prescribed(v, faces_(face, 0), faces_(face, 1), faces_(face, 2))
            && filter_admits_face_vertex(face, vertex);
    }

    /// Edge-edge pair admissible: 3D, distinct edges sharing no vertex.
    bool can_collide_edge_edge(Index edge0, Index edge1) const
    {
        if (dim_ != 3 || edge0 == edge1) {
            return false;
        }
        const int a0 = edges_(edge0, 0), a1 = edges_(edge0, 1);
        const int b0 = edges_(edge1, 0), b1 = edges_(edge1, 1);
        return a0 != b0 && a0 != b1 && a1 != b0 && a1 != b1 && !all_prescribed(a0, a1, b0, b1)
            && filter_admits_edge_edge(edge0, edge1);
    }

    /// Point-edge pair admissible: v collides and is not an endpoint; in 3D
    /// the edge must be a rod edge and v must lie on no face.
    bool can_collide_edge_vertex(Index edge, Index vertex) const
    {
        if (!is_collision_vertex(vertex)) {
            return false;
        }
        if (dim_ == 3 && (!is_rod_edge(edge) || is_on_face(vertex))) {
            return false;
        }
        const int v = int(vertex);
        return edges_(edge, 0) != v && edges_(edge, 1) != v && !all_prescribed(v, edges_(edge, 0), edges_(edge, 1))
            && filter_admits_edge_vertex(edge, vertex);
    }

    /// Point-point pair admissible: two distinct free particles.
    bool can_collide_vertex_vertex(Index v0, Index v1) const
    {
        return v0 != v1 && is_particle(v0) && is_particle(v1) && !all_prescribed(v0, v1)
            && filter_admits_vertex_vertex(v0, v1);
    }

    // ------------------------------------------------------- collision filter
    // Who may touch whom and how stiffly (see collision_filter.hpp for the
    // rules). Group ids index the rows of the vertex matrix (every vertex,
    // colliding or not: this mesh has no separate collision-vertex
    // numbering). Copies of the mesh carry the filter along.

    /// Sets the group (body) id of every vertex: num_vertices() entries,
    /// ids >= 0; the number of groups is the largest id + 1. Clears the pair
    /// rules set before (disabled pairs, stiffness scales); keeps the
    /// predicate. Group ids alone change nothing: all groups collide with
    /// scale 1 until disable_collisions or set_stiffness_scale is called.
    /// Throws ipc::invalid_argument for a wrong size (naming both sizes) or a
    /// negative or too large id (naming the vertex and the id).
    void set_collision_groups(const Eigen::Ref<const Eigen::VectorXi>& group_of_vertex)
    {
        filter_.set_groups(group_of_vertex, num_vertices(), "CollisionMesh::set_collision_groups");
        // Group of each edge and face (-1 when its vertices mix groups): one
        // look-up per pair of single-group primitives.
        const auto group_of = [&](const Eigen::MatrixXi& elements, Index i) {
            const int g = group_of_vertex[elements(i, 0)];
            for (Index k = 1; k < elements.cols(); ++k) {
                if (group_of_vertex[elements(i, k)] != g) {
                    return -1;
                }
            }
            return g;
        };
        edge_groups_.resize(size_t(num_edges()));
        for (Index e = 0; e < num_edges(); ++e) {
            edge_groups_[size_t(e)] = group_of(edges_, e);
        }
        face_groups_.resize(size_t(num_faces()));
        for (Index f = 0; f < num_faces(); ++f) {
            face_groups_[size_t(f)] = group_of(faces_, f);
        }
    }
    /// Group id of every vertex (empty when none was set).
    const Eigen::VectorXi& collision_groups() const { return filter_.groups(); }
    /// Number of groups (largest id + 1; 0 when none was set).
    int num_collision_groups() const { return filter_.num_groups(); }

    /// Pairs between groups a and b (either order; a == b: the self-contact
    /// of group a) are never admissible: such primitives may pass through
    /// each other (no barrier, no CCD hit, no intersection reported). Throws
    /// ipc::invalid_argument for an id outside [0, num_collision_groups()).
    void disable_collisions(int group_a, int group_b) { filter_.disable_collisions(group_a, group_b); }
    /// Undoes disable_collisions (the default). Throws as disable_collisions.
    void enable_collisions(int group_a, int group_b) { filter_.enable_collisions(group_a, group_b); }
    /// True when groups a and b may collide. Throws as disable_collisions.
    bool groups_can_collide(int group_a, int group_b) const { return filter_.groups_can_collide(group_a, group_b); }

    /// Multiplies the barrier of pairs between groups a and b (either order)
    /// by scale (> 0, finite, dimensionless; default 1): Collisions::build
    /// puts the pair scale (the largest over the pair's vertex group pairs
    /// that may collide) into the stencil weights. Throws
    /// ipc::invalid_argument for an id outside [0, num_collision_groups())
    /// or a bad scale.
    void set_stiffness_scale(int group_a, int group_b, double scale)
    {
        filter_.set_stiffness_scale(group_a, group_b, scale);
    }
    /// Stiffness scale of groups a and b. Throws as disable_collisions.
    double stiffness_scale(int group_a, int group_b) const { return filter_.stiffness_scale(group_a, group_b); }

    /// Vertex-pair predicate, combined with the groups by AND: pairs of
    /// vertices a < b for which it returns false may not collide (a primitive
    /// pair stays admissible while some vertex pair may). Called from
    /// several threads at once for every candidate pair: keep it pure and
    /// cheap. An empty function removes it.
    void set_can_collide(std::function<bool(Index, Index)> predicate)
    {
        filter_.set_can_collide(std::move(predicate));
    }

    /// Removes the groups, the pair rules and the predicate.
    void clear_collision_filter()
    {
        filter_ = CollisionFilter();
        edge_groups_.clear();
        face_groups_.clear();
    }
    /// The filter (read only).
    const CollisionFilter& collision_filter() const { return filter_; }
    /// True when the filter can rule a pair out or scale it (some pair rule
    /// or a predicate); false means no filter cost at all.
    bool has_collision_filter() const { return filter_.active(); }

    // The filter's part of the admissibility (no range checks; inner
    // loops): true when some (vertex of one primitive, vertex of the other)
    // pair may collide, always true without a filter. The pair rules and
    // incidence exclusions are not checked here; can_collide_* include these.

    /// Filter admits point-triangle pair (face, vertex).
    bool filter_admits_face_vertex(Index face, Index vertex) const
    {
        return !filter_.active() || face_vertex_rule(face, vertex, false) != 0.0;
    }
    /// Filter admits edge-edge pair (edge0, edge1).
    bool filter_admits_edge_edge(Index edge0, Index edge1) const
    {
        return !filter_.active() || edge_edge_rule(edge0, edge1, false) != 0.0;
    }
    /// Filter admits point-edge pair (edge, vertex).
    bool filter_admits_edge_vertex(Index edge, Index vertex) const
    {
        return !filter_.active() || edge_vertex_rule(edge, vertex, false) != 0.0;
    }
    /// Filter admits point-point pair (v0, v1).
    bool filter_admits_vertex_vertex(Index v0, Index v1) const
    {
        return !filter_.active() || filter_.vertex_pair_rule(v0, v1) != 0.0;
    }

    // Stiffness scale of a primitive pair (no range checks; inner loops):
    // the largest scale over its vertex pairs that may collide, 0 when the
    // filter rules the pair out, 1 without a filter. Pair rules other than
    // the filter's are not checked here.

    /// Stiffness scale of point-triangle pair (face, vertex).
    double face_vertex_stiffness_scale(Index face, Index vertex) const
    {
        return filter_.active() ? face_vertex_rule(face, vertex, true) : 1.0;
    }
    /// Stiffness scale of edge-edge pair (edge0, edge1).
    double edge_edge_stiffness_scale(Index edge0, Index edge1) const
    {
        return filter_.active() ? edge_edge_rule(edge0, edge1, true) : 1.0;
    }
    /// Stiffness scale of point-edge pair (edge, vertex).
    double edge_vertex_stiffness_scale(Index edge, Index vertex) const
    {
        return filter_.active() ? edge_vertex_rule(edge, vertex, true) : 1.0;
    }
    /// Stiffness scale of point-point pair (v0, v1).
    double vertex_vertex_stiffness_scale(Index v0, Index v1) const
    {
        return filter_.active() ? filter_.vertex_pair_rule(v0, v1) : 1.0;
    }

    // ----------------------------------------------------------- validation

    /// Throws ipc::invalid_argument unless V has num_vertices() rows, dim()
    /// columns and finite coordinates; what names the argument in messages.
    void check_positions(const Eigen::Ref<const Eigen::MatrixXd>& V, const char* what = "positions") const
    {
        require(V.rows() == num_vertices(), what, " has ", V.rows(), " rows but the mesh has ",
                num_vertices(), " vertices");
        require(V.cols() == dim_, what, " has ", V.cols(), " columns but the mesh is ", dim_, "D");
        for (Index i = 0; i < V.rows(); ++i) {
            for (Index d = 0; d < V.cols(); ++d) {
                require(std::isfinite(V(i, d)), what, ": vertex ", i, " has a non-finite coordinate (",
                        V(i, d), ")");
            }
        }
    }

private:
    static constexpr unsigned char collides_flag = 1;
    static constexpr unsigned char on_face_flag = 2;
    static constexpr unsigned char on_edge_flag = 4;
    static constexpr unsigned char particle_flag = 8;
    static constexpr unsigned char prescribed_flag = 16;
    bool has_prescribed_ = false;

    static std::uint64_t next_topology_id()
    {
        static std::atomic<std::uint64_t> next { 1 };
        return next.fetch_add(1, std::memory_order_relaxed);
    }
    std::uint64_t topology_id_ = next_topology_id();

    std::array<int, 2> edge_array(Index e) const { return { { edges_(e, 0), edges_(e, 1) } }; }
    std::array<int, 3> face_array(Index f) const { return { { faces_(f, 0), faces_(f, 1), faces_(f, 2) } }; }

    // Group of a vertex, edge or face for the filter's fast path (-1: mixed
    // groups or no groups).
    int vertex_group(Index v) const { return filter_.has_groups() ? filter_.groups()[v] : -1; }
    int edge_group(Index e) const { return edge_groups_.empty() ? -1 : edge_groups_[size_t(e)]; }
    int face_group(Index f) const { return face_groups_.empty() ? -1 : face_groups_[size_t(f)]; }

    // Filter rule of a primitive pair (active filter): 0 when it rules the
    // pair out, else its stiffness scale (largest) or any positive value
    // (!largest: stops at the first vertex pair that may collide). Two
    // single-group primitives without a predicate take one table look-up.
    template <std::size_t A, std::size_t B>
    double filter_rule(const std::array<int, A>& first, const std::array<int, B>& second, bool largest) const
    {
        return largest ? filter_.pair_scale(first, second) : double(filter_.allows(first, second));
    }
    double face_vertex_rule(Index face, Index vertex, bool largest) const
    {
        const int gf = face_group(face), gv = vertex_group(vertex);
        if (gf >= 0 && gv >= 0 && !filter_.has_predicate()) {
            return filter_.group_pair_rule(gf, gv);
        }
        return filter_rule(face_array(face), std::array<int, 1> { { int(vertex) } }, largest);
    }
    double edge_edge_rule(Index edge0, Index edge1, bool largest) const
    {
        const int g0 = edge_group(edge0), g1 = edge_group(edge1);
        if (g0 >= 0 && g1 >= 0 && !filter_.has_predicate()) {
            return filter_.group_pair_rule(g0, g1);
        }
        return filter_rule(edge_array(edge0), edge_array(edge1), largest);
    }
    double edge_vertex_rule(Index edge, Index vertex, bool largest) const
    {
        const int ge = edge_group(edge), gv = vertex_group(vertex);
        if (ge >= 0 && gv >= 0 && !filter_.has_predicate()) {
            return filter_.group_pair_rule(ge, gv);
        }
        return filter_rule(edge_array(edge), std::array<int, 1> { { int(vertex) } }, largest);
    }

    /// True when every vertex of the stencil is prescribed.
    template <typename... Vertices> bool all_prescribed(Vertices... v) const
    {
        return has_prescribed_ && (... && is_prescribed(Index(v)));
    }

    int dim_ = 3;
    Eigen::MatrixXd rest_positions_;
    Eigen::MatrixXi edges_ = Eigen::MatrixXi(0, 2);
    Eigen::MatrixXi faces_ = Eigen::MatrixXi(0, 3);
    Eigen::VectorXd vertex_radii_, edge_radii_, face_radii_;
    double max_radius_ = 0.0;
    std::vector<unsigned char> vertex_flags_;
    std::vector<unsigned char> edge_is_rod_;
    std::vector<Index> collision_vertices_, codim_vertices_, particles_, rod_edges_;
    CollisionFilter filter_;
    std::vector<int> edge_groups_, face_groups_; // see set_collision_groups
};

/// Assembles a CollisionMesh from any mix of codimensions: tetrahedral volumes
/// (their boundary), triangle shells, rod edges and free particles, with a
/// uniform or per-vertex radius. Calls to tetrahedra(), faces() and edges()
/// append; build() validates everything and throws as the CollisionMesh
/// constructor does (allow_degenerate_elements(true) keeps zero-length edges
/// and zero-area faces).
///
///     CollisionMesh mesh = CollisionMesh::Builder(V).tetrahedra(T).faces(F)
///                              .edges(rods).radius(0.5e-3).build();
class CollisionMesh::Builder {
public:
    /// Starts from rest positions V (n x 2 or n x 3, metres).
    explicit Builder(const Eigen::Ref<const Eigen::MatrixXd>& V) : rest_positions_(V) { }

    /// Adds tetrahedra (t x 4, 3D): their boundary triangles and edges become
    /// faces and edges; their interior vertices do not collide. Boundary
    /// triangles are oriented outward; a tetrahedron of negative rest volume
    /// is read with its orientation flipped.
    Builder& tetrahedra(const Eigen::Ref<const Eigen::MatrixXi>& T)
    {
        append_rows(tetrahedra_, T, 4, "tetrahedra");
        return *this;
    }

    /// Adds triangles (k x 3, 3D): shells or an already extracted surface.
    Builder& faces(const Eigen::Ref<const Eigen::MatrixXi>& F)
    {
        append_rows(faces_, F, 3, "faces");
        return *this;
    }

    /// Adds edges (m x 2): rod segments, or face edges the caller wants at a
    /// fixed index. Face edges not given here are added by build().
    Builder& edges(const Eigen::Ref<const Eigen::MatrixXi>& E)
    {
        append_rows(edges_, E, 2, "edges");
        return *this;
    }

    /// Same radius (half thickness, metres, >= 0) for every vertex.
    Builder& radius(double r)
    {
        uniform_radius_ = r;
        vertex_radii_.resize(0);
        return *this;
    }

    /// One radius per vertex (half thickness, metres, >= 0).
    Builder& vertex_radii(const Eigen::Ref<const Eigen::VectorXd>& r)
    {
        vertex_radii_ = r;
        return *this;
    }

    /// Marks the vertices whose motion is prescribed (n flags; obstacles,
    /// fixed or scripted): pairs made only of such vertices are never
    /// admissible (see the file comment). Default: none.
    Builder& prescribed_vertices(const std::vector<bool>& prescribed)
    {
        prescribed_ = prescribed;
        return *this;
    }

    /// Whether vertices on no element (and not inside a tetrahedral mesh)
    /// collide as free particles (default true) or are ignored.
    Builder& isolated_vertices_are_particles(bool enable)
    {
        isolated_are_particles_ = enable;
        return *this;
    }

    /// Whether edges of zero rest length and faces of zero rest area (see the
    /// CollisionMesh file comment for the criterion) are kept (true) or
    /// rejected with ipc::degenerate_geometry (false, the default).
    Builder& allow_degenerate_elements(bool enable)
    {
        allow_degenerate_ = enable;
        return *this;
    }

    /// Validates the input and builds the mesh.
    CollisionMesh build() const;

private:
    static void append_rows(
        Eigen::MatrixXi& into, const Eigen::Ref<const Eigen::MatrixXi>& rows, Index columns, const char* what)
    {
        if (rows.rows() == 0) {
            return;
        }
        require(rows.cols() == columns, what, " must have ", columns, " columns, got ", rows.cols());
        const Index old_rows = into.rows();
        into.conservativeResize(old_rows + rows.rows(), columns);
        into.bottomRows(rows.rows()) = rows;
    }

    Eigen::MatrixXd rest_positions_;
    Eigen::MatrixXi tetrahedra_ = Eigen::MatrixXi(0, 4);
    Eigen::MatrixXi faces_ = Eigen::MatrixXi(0, 3);
    Eigen::MatrixXi edges_ = Eigen::MatrixXi(0, 2);
    Eigen::VectorXd vertex_radii_;
    double uniform_radius_ = 0.0;
    std::vector<bool> prescribed_;
    bool isolated_are_particles_ = true;
    bool allow_degenerate_ = false;
};

// ===========================================================================
// Implementation

namespace detail {

    /// Checks that every index of element row i lies in [0, num_vertices) and
    /// that no vertex repeats; kind names the element in messages.
    inline void check_element(const Eigen::MatrixXi& elements, Index i, Index num_vertices, const char* kind)
    {
        const Index columns = elements.cols();
        for (Index j = 0; j < columns; ++j) {
            const int v = elements(i, j);
            require(v >= 0 && Index(v) < num_vertices, kind, " ", i, " references vertex ", v,
                    " but there are ", num_vertices, " vertices");
        }
        for (Index j = 0; j < columns; ++j) {
            for (Index k = j + 1; k < columns; ++k) {
                require<degenerate_geometry>(elements(i, j) != elements(i, k), kind, " ", i,
                                             " repeats vertex ", elements(i, j));
            }
        }
    }

    /// Throws ipc::degenerate_geometry for the first face of zero rest area
    /// and then the first edge of zero rest length (criterion in the file
    /// comment).
    inline void check_nondegenerate(const Eigen::MatrixXd& V, const Eigen::MatrixXi& E, const Eigen::MatrixXi& F)
    {
        if (V.rows() == 0) {
            return;
        }
        const double tolerance = CollisionMesh::degenerate_tolerance;
        const double diagonal = (V.colwise().maxCoeff() - V.colwise().minCoeff()).norm();
        const double shortest = tolerance * diagonal;
        for (Index f = 0; f < F.rows(); ++f) {
            const int a = F(f, 0), b = F(f, 1), c = F(f, 2);
            const Eigen::Vector3d xa = V.row(a).transpose(), xb = V.row(b).transpose(), xc = V.row(c).transpose();
            const double longest = std::sqrt(
                std::max({ (xb - xa).squaredNorm(), (xc - xb).squaredNorm(), (xa - xc).squaredNorm() }));
            const double twice_area = (xb - xa).cross(xc - xa).norm();
            require<degenerate_geometry>(longest > shortest, "face ", f, " (vertices ", a, ", ", b, ", ", c,
                                         ") has zero rest area: its longest edge is ", longest, " <= ",
                                         tolerance, " x the bounding-box diagonal ", diagonal,
                                         " (CollisionMesh::Builder::allow_degenerate_elements keeps it)");
            require<degenerate_geometry>(twice_area > tolerance * longest * longest, "face ", f, " (vertices ", a,
                                         ", ", b, ", ", c, ") has zero rest area: twice its area is ", twice_area,
                                         " <= ", tolerance, " x its longest edge squared ", longest * longest,
                                         " (CollisionMesh::Builder::allow_degenerate_elements keeps it)");
        }
        for (Index e = 0; e < E.rows(); ++e) {
            const int a = E(e, 0), b = E(e, 1);
            const double length = (V.row(b) - V.row(a)).norm();
            require<degenerate_geometry>(length > shortest, "edge ", e, " (vertices ", a, ", ", b,
                                         ") has zero rest length: ", length, " <= ", tolerance,
                                         " x the bounding-box diagonal ", diagonal,
                                         " (CollisionMesh::Builder::allow_degenerate_elements keeps it)");
        }
    }

    /// Boundary triangles of a tetrahedral mesh, outward oriented, in order of
    /// (tetrahedron, local face). Indices must already be validated.
    inline Eigen::MatrixXi tetrahedra_boundary(const Eigen::MatrixXd& V, const Eigen::MatrixXi& T)
    {
        struct Entry {
            std::array<int, 3> sorted;
            std::array<int, 3> oriented;
            Index order;
        };
        std::vector<Entry> entries;
        entries.reserve(size_t(T.rows()) * 4);
        for (Index t = 0; t < T.rows(); ++t) {
            int a = T(t, 0), b = T(t, 1), c = T(t, 2);
            const int d = T(t, 3);
            const Eigen::Vector3d ab = V.row(b) - V.row(a);
            const Eigen::Vector3d ac = V.row(c) - V.row(a);
            const Eigen::Vector3d ad = V.row(d) - V.row(a);
            const double volume6 = ab.cross(ac).dot(ad);
            require<degenerate_geometry>(volume6 != 0.0, "tetrahedron ", t, " has zero rest volume");
            if (volume6 < 0.0) {
                std::swap(b, c);
            }
            const std::array<std::array<int, 3>, 4> local = {
                { { { a, c, b } }, { { a, b, d } }, { { a, d, c } }, { { b, c, d } } }
            };
            for (int f = 0; f < 4; ++f) {
                Entry entry { local[size_t(f)], local[size_t(f)], 4 * t + f };
                std::sort(entry.sorted.begin(), entry.sorted.end());
                entries.push_back(entry);
            }
        }
        std::sort(entries.begin(), entries.end(), [](const Entry& x, const Entry& y) {
            return x.sorted != y.sorted ? x.sorted < y.sorted : x.order < y.order;
        });
        std::vector<Entry> boundary;
        for (size_t i = 0; i < entries.size();) {
            size_t j = i + 1;
            while (j < entries.size() && entries[j].sorted == entries[i].sorted) {
                ++j;
            }
            require(j - i <= 2, "triangle (", entries[i].sorted[0], ", ", entries[i].sorted[1], ", ",
                    entries[i].sorted[2], ") is shared by ", j - i, " tetrahedra (at most 2 allowed)");
            if (j - i == 1) {
                boundary.push_back(entries[i]);
            }
            i = j;
        }
        std::sort(boundary.begin(), boundary.end(),
                  [](const Entry& x, const Entry& y) { return x.order < y.order; });
        Eigen::MatrixXi F(Index(boundary.size()), 3);
        for (size_t i = 0; i < boundary.size(); ++i) {
            for (int k = 0; k < 3; ++k) {
                F(Index(i), k) = boundary[i].oriented[size_t(k)];
            }
        }
        return F;
    }

} // namespace detail

inline CollisionMesh CollisionMesh::Builder::build() const
{
    const Eigen::MatrixXd& V = rest_positions_;
    const Index n = V.rows();
    require(V.cols() == 2 || V.cols() == 3, "rest positions must have 2 or 3 columns, got ", V.cols());
    require(n < Index(1) << 31, "too many vertices (", n, ") for 32-bit indices");
    for (Index i = 0; i < n; ++i) {
        for (Index d = 0; d < V.cols(); ++d) {
            require(std::isfinite(V(i, d)), "rest position of vertex ", i, " has a non-finite coordinate (",
                    V(i, d), ")");
        }
    }
    const int dim = int(V.cols());
    require(dim == 3 || faces_.rows() == 0, "faces are only supported in 3D, got ", faces_.rows(),
            " faces with 2D positions");
    require(dim == 3 || tetrahedra_.rows() == 0, "tetrahedra are only supported in 3D, got ",
            tetrahedra_.rows(), " tetrahedra with 2D positions");

    for (Index i = 0; i < tetrahedra_.rows(); ++i) {
        detail::check_element(tetrahedra_, i, n, "tetrahedron");
    }
    for (Index i = 0; i < faces_.rows(); ++i) {
        detail::check_element(faces_, i, n, "face");
    }
    for (Index i = 0; i < edges_.rows(); ++i) {
        detail::check_element(edges_, i, n, "edge");
    }

    // Radii.
    Eigen::VectorXd radii;
    if (vertex_radii_.size() > 0 || n == 0) {
        require(vertex_radii_.size() == n, "vertex radii has ", vertex_radii_.size(),
                " entries but there are ", n, " vertices");
        radii = vertex_radii_;
    } else {
        radii = Eigen::VectorXd::Constant(n, uniform_radius_);
        require(std::isfinite(uniform_radius_) && uniform_radius_ >= 0.0,
                "radius must be finite and non-negative, got ", uniform_radius_);
    }
    for (Index i = 0; i < n; ++i) {
        require(std::isfinite(radii[i]) && radii[i] >= 0.0, "radius of vertex ", i,
                " must be finite and non-negative, got ", radii[i]);
    }

    CollisionMesh mesh;
    mesh.dim_ = dim;
    mesh.rest_positions_ = V;
    mesh.vertex_radii_ = radii;
    mesh.max_radius_ = n > 0 ? radii.maxCoeff() : 0.0;

    // Faces: the user's, then the tetrahedra boundary; no repeats.
    Eigen::MatrixXi F = faces_;
    if (tetrahedra_.rows() > 0) {
        const Eigen::MatrixXi boundary = detail::tetrahedra_boundary(V, tetrahedra_);
        const Index old_rows = F.rows();
        F.conservativeResize(old_rows + boundary.rows(), 3);
        F.bottomRows(boundary.rows()) = boundary;
    }
    {
        std::vector<std::pair<std::array<int, 3>, Index>> keys(size_t(F.rows()));
        for (Index f = 0; f < F.rows(); ++f) {
            std::array<int, 3> key = { { F(f, 0), F(f, 1), F(f, 2) } };
            std::sort(key.begin(), key.end());
            keys[size_t(f)] = { key, f };
        }
        std::sort(keys.begin(), keys.end());
        for (size_t i = 1; i < keys.size(); ++i) {
            require(keys[i].first != keys[i - 1].first, "face ", keys[i].second, " repeats face ",
                    keys[i - 1].second, " (vertices ", keys[i].first[0], ", ", keys[i].first[1], ", ",
                    keys[i].first[2], ")");
        }
    }

    // Edges: the user's first (no repeats), then missing face edges.
    tsl::robin_map<std::uint64_t, Index, detail::MixedHash> edge_index;
    edge_index.reserve(size_t(edges_.rows() + F.rows() * 3 / 2 + 1));
    std::vector<std::array<int, 2>> edge_list;
    edge_list.reserve(size_t(edges_.rows() + F.rows() * 3 / 2 + 1));
    for (Index e = 0; e < edges_.rows(); ++e) {
        const auto inserted = edge_index.emplace(detail::unordered_pair_key(edges_(e, 0), edges_(e, 1)), e);
        require(inserted.second, "edge ", e, " repeats edge ", inserted.first->second, " (vertices ",
                edges_(e, 0), ", ", edges_(e, 1), ")");
        edge_list.push_back({ { edges_(e, 0), edges_(e, 1) } });
    }
    std::vector<unsigned char> edge_on_face(edge_list.size(), 0);
    for (Index f = 0; f < F.rows(); ++f) {
        for (int k = 0; k < 3; ++k) {
            const int a = F(f, k), b = F(f, (k + 1) % 3);
            const auto inserted = edge_index.emplace(detail::unordered_pair_key(a, b), Index(edge_list.size()));
            if (inserted.second) {
                edge_list.push_back({ { a, b } });
                edge_on_face.push_back(1);
            } else {
                edge_on_face[size_t(inserted.first->second)] = 1;
            }
        }
    }

    mesh.faces_ = F;
    mesh.edges_.resize(Index(edge_list.size()), 2);
    for (size_t e = 0; e < edge_list.size(); ++e) {
        mesh.edges_(Index(e), 0) = edge_list[e][0];
        mesh.edges_(Index(e), 1) = edge_list[e][1];
    }
    if (!allow_degenerate_) {
        detail::check_nondegenerate(V, mesh.edges_, F);
    }

    // Vertex roles.
    mesh.vertex_flags_.assign(size_t(n), 0);
    std::vector<unsigned char> in_tetrahedron(size_t(n), 0);
    for (Index t = 0; t < tetrahedra_.rows(); ++t) {
        for (int k = 0; k < 4; ++k) {
            in_tetrahedron[size_t(tetrahedra_(t, k))] = 1;
        }
    }
    for (Index f = 0; f < F.rows(); ++f) {
        for (int k = 0; k < 3; ++k) {
            mesh.vertex_flags_[size_t(F(f, k))] |= collides_flag | on_face_flag;
        }
    }
    for (Index e = 0; e < mesh.edges_.rows(); ++e) {
        for (int k = 0; k < 2; ++k) {
            mesh.vertex_flags_[size_t(mesh.edges_(e, k))] |= collides_flag | on_edge_flag;
        }
    }
    require(prescribed_.empty() || Index(prescribed_.size()) == n, "prescribed vertices has ", prescribed_.size(),
        " flags but there are ", n, " vertices");
    for (Index v = 0; v < n; ++v) {
        unsigned char& flags = mesh.vertex_flags_[size_t(v)];
        if (!prescribed_.empty() && prescribed_[size_t(v)]) {
            flags |= prescribed_flag;
            mesh.has_prescribed_ = true;
        }
        if (!(flags & (on_face_flag | on_edge_flag)) && !in_tetrahedron[size_t(v)] && isolated_are_particles_) {
            flags |= collides_flag | particle_flag;
        }
        if (flags & collides_flag) {
            mesh.collision_vertices_.push_back(v);
            if (!(flags & on_face_flag)) {
                mesh.codim_vertices_.push_back(v);
            }
            if (flags & particle_flag) {
                mesh.particles_.push_back(v);
            }
        }
    }
    mesh.edge_is_rod_.assign(edge_list.size(), 0);
    for (size_t e = 0; e < edge_list.size(); ++e) {
        if (!edge_on_face[e]) {
            mesh.edge_is_rod_[e] = 1;
            mesh.rod_edges_.push_back(Index(e));
        }
    }

    // Primitive radii.
    mesh.edge_radii_.resize(mesh.edges_.rows());
    for (Index e = 0; e < mesh.edges_.rows(); ++e) {
        mesh.edge_radii_[e] = std::max(radii[mesh.edges_(e, 0)], radii[mesh.edges_(e, 1)]);
    }
    mesh.face_radii_.resize(F.rows());
    for (Index f = 0; f < F.rows(); ++f) {
        mesh.face_radii_[f] = std::max({ radii[F(f, 0)], radii[F(f, 1)], radii[F(f, 2)] });
    }
    return mesh;
}

inline CollisionMesh::CollisionMesh(
    const Eigen::Ref<const Eigen::MatrixXd>& V,
    const Eigen::Ref<const Eigen::MatrixXi>& E,
    const Eigen::Ref<const Eigen::MatrixXi>& F,
    const Eigen::Ref<const Eigen::VectorXd>& vertex_radii)
{
    Builder builder(V);
    builder.edges(E).faces(F);
    if (vertex_radii.size() > 0) {
        builder.vertex_radii(vertex_radii);
    }
    *this = builder.build();
}

inline CollisionMesh CollisionMesh::from_tetrahedra(
    const Eigen::Ref<const Eigen::MatrixXd>& V, const Eigen::Ref<const Eigen::MatrixXi>& T, double radius)
{
    return Builder(V).tetrahedra(T).radius(radius).build();
}

} // namespace ipc
