// CollisionMesh, candidate pairs and the broad phase.

#include "common.hpp"

#include <ipc/broad_phase/broad_phase.hpp>
#include <ipc/broad_phase/candidates.hpp>
#include <ipc/mesh/collision_mesh.hpp>

#include <pybind11/operators.h>
#include <pybind11/stl.h>

namespace ipc_python {

namespace {

    py::array_t<std::int64_t> index_list(const std::vector<Index>& ids)
    {
        py::array_t<std::int64_t> out(py::ssize_t(ids.size()));
        std::int64_t* d = out.mutable_data();
        for (std::size_t i = 0; i < ids.size(); ++i) {
            d[i] = std::int64_t(ids[i]);
        }
        return out;
    }

    py::array_t<std::int64_t> int_matrix(const Eigen::MatrixXi& M)
    {
        py::array_t<std::int64_t> out({ py::ssize_t(M.rows()), py::ssize_t(M.cols()) });
        auto r = out.mutable_unchecked<2>();
        for (Eigen::Index i = 0; i < M.rows(); ++i) {
            for (Eigen::Index j = 0; j < M.cols(); ++j) {
                r(i, j) = M(i, j);
            }
        }
        return out;
    }

    /// Candidate list <-> (k, 2) int64 array.
    template <typename C, typename Get> py::array_t<std::int64_t> pairs_to_array(const std::vector<C>& list, Get get)
    {
        return index_rows<2>(list, get);
    }

    template <typename C, typename Make>
    std::vector<C> pairs_from_array(const py::handle& obj, const char* what, Make make)
    {
        const Eigen::MatrixXi M = index_matrix(obj, "Candidates", what, 2);
        std::vector<C> out(std::size_t(M.rows()));
        for (Eigen::Index i = 0; i < M.rows(); ++i) {
            ipc::require(M(i, 0) >= 0 && M(i, 1) >= 0, "Candidates: ", what, " row ", i, " has a negative index");
            out[std::size_t(i)] = make(M(i, 0), M(i, 1));
        }
        return out;
    }

    void check_vertex(const ipc::CollisionMesh& mesh, Index v, const char* who)
    {
        check_index(v, mesh.num_vertices(), who, "vertex");
    }
    void check_edge(const ipc::CollisionMesh& mesh, Index e, const char* who)
    {
        check_index(e, mesh.num_edges(), who, "edge");
    }
    void check_face(const ipc::CollisionMesh& mesh, Index f, const char* who)
    {
        check_index(f, mesh.num_faces(), who, "face");
    }

} // namespace

void bind_mesh(py::module_& m)
{
    using ipc::CollisionMesh;
    py::class_<CollisionMesh> mesh(
        m, "CollisionMesh",
        "The contact primitives of a simulation mesh: vertices, edges, faces, which pairs may touch and every "
        "vertex's radius (half the contact thickness). Vertex indices are the rows of the vertex array, so "
        "positions passed to the broad phase and potentials are the full (n, dim) vertex array.");
    mesh.def(py::init([](const py::object& V, const py::object& E, const py::object& F, const py::object& radii) {
                 const char* who = "CollisionMesh";
                 const FloatMatrix v = positions(V, who, "rest positions V");
                 const Eigen::MatrixXi e = index_matrix(E, who, "edges E", 2);
                 const Eigen::MatrixXi f = index_matrix(F, who, "faces F", 3);
                 Eigen::VectorXd r;
                 if (!radii.is_none()) {
                     r = float_vector(radii, who, "vertex_radii", v.rows());
                 }
                 return CollisionMesh(v.map, e, f, r);
             }),
             py::arg("V"), py::arg("E") = py::none(), py::arg("F") = py::none(), py::arg("vertex_radii") = py::none(),
             "Mesh from rest positions V ((n, 2) or (n, 3) floats, m), edges E ((m, 2) ints, may be None) and faces "
             "F ((k, 3) ints, 3D only, may be None). Face edges missing from E are added. vertex_radii: (n,) "
             "floats (m, half the contact thickness), default 0. Raises ValueError for non-finite coordinates, "
             "wrong shapes, out-of-range or repeated indices, and DegenerateGeometryError for zero-length edges "
             "or zero-area faces.");
    mesh.def_static(
        "from_tetrahedra",
        [](const py::object& V, const py::object& T, double radius) {
            const char* who = "CollisionMesh.from_tetrahedra";
            const FloatMatrix v = positions(V, who, "rest positions V", 3);
            const Eigen::MatrixXi t = index_matrix(T, who, "tetrahedra T", 4);
            return CollisionMesh::from_tetrahedra(v.map, t, radius);
        },
        py::arg("V"), py::arg("T"), py::arg("radius") = 0.0,
        "Mesh of the boundary of a tetrahedral mesh T ((t, 4) ints) over rest positions V ((n, 3) floats, m): "
        "faces used by one tetrahedron, oriented outward, plus their edges; interior vertices do not collide. "
        "radius: uniform vertex radius (m).");
    mesh.def_static(
        "build",
        [](const py::object& V, const py::object& T, const py::object& F, const py::object& E,
           const py::object& radius, const py::object& prescribed, bool isolated_particles, bool allow_degenerate) {
            const char* who = "CollisionMesh.build";
            const FloatMatrix v = positions(V, who, "rest positions V");
            CollisionMesh::Builder builder(v.map);
            if (!T.is_none()) {
                builder.tetrahedra(index_matrix(T, who, "tetrahedra", 4));
            }
            if (!F.is_none()) {
                builder.faces(index_matrix(F, who, "faces", 3));
            }
            if (!E.is_none()) {
                builder.edges(index_matrix(E, who, "edges", 2));
            }
            if (!radius.is_none()) {
                if (py::isinstance<py::float_>(radius) || py::isinstance<py::int_>(radius)) {
                    builder.radius(radius.cast<double>());
                } else {
                    builder.vertex_radii(float_vector(radius, who, "radius", v.rows()));
                }
            }
            if (!prescribed.is_none()) {
                auto flags = py::array_t<bool, py::array::forcecast>::ensure(prescribed);
                ipc::require(bool(flags) && flags.ndim() == 1, who,
                             ": prescribed_vertices must be a 1-D boolean array");
                std::vector<bool> p(std::size_t(flags.shape(0)));
                for (py::ssize_t i = 0; i < flags.shape(0); ++i) {
                    p[std::size_t(i)] = flags.at(i);
                }
                builder.prescribed_vertices(p);
            }
            builder.isolated_vertices_are_particles(isolated_particles);
            builder.allow_degenerate_elements(allow_degenerate);
            return builder.build();
        },
        py::arg("V"), py::arg("tetrahedra") = py::none(), py::arg("faces") = py::none(),
        py::arg("edges") = py::none(), py::arg("radius") = py::none(), py::arg("prescribed_vertices") = py::none(),
        py::arg("isolated_vertices_are_particles") = true, py::arg("allow_degenerate_elements") = false,
        "CollisionMesh::Builder in one call: any mix of tetrahedra ((t, 4)), faces ((k, 3)), edges ((m, 2)) over "
        "rest positions V; radius is a float (uniform, m) or an (n,) array; prescribed_vertices an (n,) bool "
        "array (pairs made only of prescribed vertices are never admissible). Raises as the constructor.");

    mesh.def_property_readonly("dim", &CollisionMesh::dim, "spatial dimension, 2 or 3")
        .def_property_readonly("num_vertices", &CollisionMesh::num_vertices, "number of vertices")
        .def_property_readonly("num_edges", &CollisionMesh::num_edges, "number of edges (face and rod edges)")
        .def_property_readonly("num_faces", &CollisionMesh::num_faces, "number of faces (0 in 2D)")
        .def_property_readonly(
            "rest_positions", [](const CollisionMesh& c) { return to_numpy(c.rest_positions()); },
            "rest positions, (n, dim) floats (a copy)")
        .def_property_readonly(
            "edges", [](const CollisionMesh& c) { return int_matrix(c.edges()); }, "edges, (m, 2) int64 (a copy)")
        .def_property_readonly(
            "faces", [](const CollisionMesh& c) { return int_matrix(c.faces()); }, "faces, (k, 3) int64 (a copy)")
        .def_property_readonly(
            "vertex_radii", [](const CollisionMesh& c) { return to_numpy(c.vertex_radii()); },
            "radius of every vertex (m)")
        .def_property_readonly(
            "edge_radii", [](const CollisionMesh& c) { return to_numpy(c.edge_radii()); },
            "radius of every edge: the larger of its vertices' radii (m)")
        .def_property_readonly(
            "face_radii", [](const CollisionMesh& c) { return to_numpy(c.face_radii()); },
            "radius of every face: the largest of its vertices' radii (m)")
        .def_property_readonly(
            "collision_vertices", [](const CollisionMesh& c) { return index_list(c.collision_vertices()); },
            "colliding vertices, ascending")
        .def_property_readonly(
            "codim_vertices", [](const CollisionMesh& c) { return index_list(c.codim_vertices()); },
            "colliding vertices on no face (rod nodes and particles), ascending")
        .def_property_readonly(
            "particles", [](const CollisionMesh& c) { return index_list(c.particles()); }, "free particles")
        .def_property_readonly(
            "rod_edges", [](const CollisionMesh& c) { return index_list(c.rod_edges()); }, "edges on no face")
        .def_property_readonly("has_thickness", &CollisionMesh::has_thickness, "True when some radius is positive")
        .def_property_readonly("max_radius", &CollisionMesh::max_radius, "largest vertex radius (m)")
        .def_property_readonly("has_prescribed_vertices", &CollisionMesh::has_prescribed_vertices,
                               "True when some vertex is prescribed");

    // Index queries, bounds-checked here (the C++ accessors are unchecked).
#define IPC_PY_VERTEX_QUERY(name, doc)                                                                       \
    mesh.def(                                                                                                \
        #name,                                                                                               \
        [](const CollisionMesh& c, Index v) {                                                                \
            check_vertex(c, v, "CollisionMesh." #name);                                                      \
            return c.name(v);                                                                                \
        },                                                                                                   \
        py::arg("v"), doc " Raises ValueError for an index out of range.")
    IPC_PY_VERTEX_QUERY(is_collision_vertex, "True when vertex v takes part in contact.");
    IPC_PY_VERTEX_QUERY(is_on_face, "True when vertex v belongs to a face.");
    IPC_PY_VERTEX_QUERY(is_particle, "True when vertex v is a free particle.");
    IPC_PY_VERTEX_QUERY(is_prescribed, "True when vertex v's motion is prescribed.");
#undef IPC_PY_VERTEX_QUERY
    mesh.def(
        "is_rod_edge",
        [](const CollisionMesh& c, Index e) {
            check_edge(c, e, "CollisionMesh.is_rod_edge");
            return c.is_rod_edge(e);
        },
        py::arg("e"), "True when edge e belongs to no face. Raises ValueError for an index out of range.");
    mesh.def(
        "can_collide_face_vertex",
        [](const CollisionMesh& c, Index f, Index v) {
            check_face(c, f, "CollisionMesh.can_collide_face_vertex");
            check_vertex(c, v, "CollisionMesh.can_collide_face_vertex");
            return c.can_collide_face_vertex(f, v);
        },
        py::arg("face"), py::arg("vertex"), "Point-triangle pair admissible (mesh pair rules).");
    mesh.def(
        "can_collide_edge_edge",
        [](const CollisionMesh& c, Index e0, Index e1) {
            check_edge(c, e0, "CollisionMesh.can_collide_edge_edge");
            check_edge(c, e1, "CollisionMesh.can_collide_edge_edge");
            return c.can_collide_edge_edge(e0, e1);
        },
        py::arg("edge0"), py::arg("edge1"), "Edge-edge pair admissible (3D, distinct, sharing no vertex).");
    mesh.def(
        "can_collide_edge_vertex",
        [](const CollisionMesh& c, Index e, Index v) {
            check_edge(c, e, "CollisionMesh.can_collide_edge_vertex");
            check_vertex(c, v, "CollisionMesh.can_collide_edge_vertex");
            return c.can_collide_edge_vertex(e, v);
        },
        py::arg("edge"), py::arg("vertex"), "Point-edge pair admissible (mesh pair rules).");
    mesh.def(
        "can_collide_vertex_vertex",
        [](const CollisionMesh& c, Index v0, Index v1) {
            check_vertex(c, v0, "CollisionMesh.can_collide_vertex_vertex");
            check_vertex(c, v1, "CollisionMesh.can_collide_vertex_vertex");
            return c.can_collide_vertex_vertex(v0, v1);
        },
        py::arg("v0"), py::arg("v1"), "Point-point pair admissible (two distinct free particles).");
    mesh.def(
        "check_positions",
        [](const CollisionMesh& c, const py::object& V) {
            const FloatMatrix v = float_matrix(V, "CollisionMesh.check_positions", "V");
            c.check_positions(v.map, "CollisionMesh.check_positions: V");
        },
        py::arg("V"),
        "Raises ValueError unless V has num_vertices rows, dim columns and finite coordinates.");
    // ------------------------------------------------------ collision filter
    mesh.def(
        "set_collision_groups",
        [](CollisionMesh& c, const py::array_t<long long, py::array::c_style | py::array::forcecast>& groups) {
            ipc::require(groups.ndim() == 1, "CollisionMesh.set_collision_groups: groups must be a 1D integer "
                                             "array, got ", groups.ndim(), " dimensions");
            Eigen::VectorXi g(groups.shape(0));
            const auto view = groups.unchecked<1>();
            for (py::ssize_t i = 0; i < groups.shape(0); ++i) {
                ipc::require(view(i) >= 0 && view(i) <= ipc::CollisionFilter::max_group_id,
                             "CollisionMesh.set_collision_groups: vertex ", i, " has group id ", view(i),
                             " (must be in [0, ", ipc::CollisionFilter::max_group_id, "])");
                g[Index(i)] = int(view(i));
            }
            c.set_collision_groups(g);
        },
        py::arg("groups"),
        "Gives every vertex a group (body) id >= 0, one entry per vertex. Clears the disabled pairs and stiffness "
        "scales set before. Raises ValueError for a wrong size or a negative id.");
    mesh.def_property_readonly(
        "collision_groups",
        [](const CollisionMesh& c) {
            const Eigen::VectorXi& g = c.collision_groups();
            py::array_t<long long> out(g.size());
            for (Index i = 0; i < g.size(); ++i) {
                out.mutable_at(i) = g[i];
            }
            return out;
        },
        "group id of every vertex (empty when no groups were set)");
    mesh.def_property_readonly("num_collision_groups", &CollisionMesh::num_collision_groups,
                               "number of groups (largest id + 1; 0 when none were set)");
    mesh.def("disable_collisions", &CollisionMesh::disable_collisions, py::arg("group_a"), py::arg("group_b"),
             "Groups a and b never collide (a == b: no self-contact within group a). Every broad phase, the "
             "collision set, the step size and has_intersections then skip their pairs.");
    mesh.def("enable_collisions", &CollisionMesh::enable_collisions, py::arg("group_a"), py::arg("group_b"),
             "Undoes disable_collisions for groups a and b (their stiffness scale is kept).");
    mesh.def("groups_can_collide", &CollisionMesh::groups_can_collide, py::arg("group_a"), py::arg("group_b"),
             "True unless collisions between groups a and b are disabled.");
    mesh.def("set_stiffness_scale", &CollisionMesh::set_stiffness_scale, py::arg("group_a"), py::arg("group_b"),
             py::arg("scale"),
             "Multiplies the barrier (and the friction and adhesion that read its weight) of pairs between groups a "
             "and b by scale > 0. Raises ValueError for a bad group or scale.");
    mesh.def("stiffness_scale", &CollisionMesh::stiffness_scale, py::arg("group_a"), py::arg("group_b"),
             "The stiffness scale of groups a and b (1 by default).");
    mesh.def("clear_collision_filter", &CollisionMesh::clear_collision_filter,
             "Removes the groups, disabled pairs and stiffness scales.");
    mesh.def_property_readonly("has_collision_filter", &CollisionMesh::has_collision_filter,
                               "True when some pair is disabled or scaled (the filter is active)");
    mesh.def("__repr__", [](const CollisionMesh& c) {
        return ipc::detail::concat("CollisionMesh(dim=", c.dim(), ", vertices=", c.num_vertices(),
                                   ", edges=", c.num_edges(), ", faces=", c.num_faces(), ")");
    });

    // ------------------------------------------------------------- candidates
    py::enum_<ipc::BroadPhaseMethod>(m, "BroadPhaseMethod",
                                     "Broad-phase algorithm; all give identical candidates. Functions taking a "
                                     "method also accept its name as a string.")
        .value("BRUTE_FORCE", ipc::BroadPhaseMethod::brute_force, "every pair of boxes; O(n^2), for testing")
        .value("SWEEP_AND_PRUNE", ipc::BroadPhaseMethod::sweep_and_prune, "sort along one axis and scan")
        .value("SPATIAL_HASH", ipc::BroadPhaseMethod::spatial_hash, "uniform grid in a hash map")
        .value("BVH", ipc::BroadPhaseMethod::bvh, "bounding volume hierarchy (the default)");

    using ipc::Candidates;
    py::class_<Candidates>(m, "Candidates",
                           "Candidate pairs of a broad-phase query, one (k, 2) int64 array per pair kind: "
                           "vertex_vertex (v0, v1), edge_vertex (edge, vertex), edge_edge (edge0, edge1), "
                           "face_vertex (face, vertex). Indices refer to a CollisionMesh.")
        .def(py::init([](const py::object& vv, const py::object& ev, const py::object& ee, const py::object& fv) {
                 Candidates c;
                 c.vertex_vertex = pairs_from_array<ipc::VertexVertexCandidate>(
                     vv, "vertex_vertex", [](Index a, Index b) { return ipc::VertexVertexCandidate { a, b }; });
                 c.edge_vertex = pairs_from_array<ipc::EdgeVertexCandidate>(
                     ev, "edge_vertex", [](Index a, Index b) { return ipc::EdgeVertexCandidate { a, b }; });
                 c.edge_edge = pairs_from_array<ipc::EdgeEdgeCandidate>(
                     ee, "edge_edge", [](Index a, Index b) { return ipc::EdgeEdgeCandidate { a, b }; });
                 c.face_vertex = pairs_from_array<ipc::FaceVertexCandidate>(
                     fv, "face_vertex", [](Index a, Index b) { return ipc::FaceVertexCandidate { a, b }; });
                 return c;
             }),
             py::arg("vertex_vertex") = py::none(), py::arg("edge_vertex") = py::none(),
             py::arg("edge_edge") = py::none(), py::arg("face_vertex") = py::none(),
             "Candidates from (k, 2) integer arrays (None: empty). Indices are checked against the mesh by the "
             "functions that use them.")
        .def_property_readonly(
            "vertex_vertex",
            [](const Candidates& c) {
                return pairs_to_array(c.vertex_vertex, [](const auto& p) { return std::array<Index, 2> { p.v0, p.v1 }; });
            },
            "(k, 2) int64: point-point pairs (v0, v1)")
        .def_property_readonly(
            "edge_vertex",
            [](const Candidates& c) {
                return pairs_to_array(c.edge_vertex,
                                      [](const auto& p) { return std::array<Index, 2> { p.edge, p.vertex }; });
            },
            "(k, 2) int64: point-edge pairs (edge, vertex)")
        .def_property_readonly(
            "edge_edge",
            [](const Candidates& c) {
                return pairs_to_array(c.edge_edge,
                                      [](const auto& p) { return std::array<Index, 2> { p.edge0, p.edge1 }; });
            },
            "(k, 2) int64: edge-edge pairs (edge0, edge1)")
        .def_property_readonly(
            "face_vertex",
            [](const Candidates& c) {
                return pairs_to_array(c.face_vertex,
                                      [](const auto& p) { return std::array<Index, 2> { p.face, p.vertex }; });
            },
            "(k, 2) int64: point-triangle pairs (face, vertex)")
        .def("size", &Candidates::size, "total number of pairs")
        .def("__len__", &Candidates::size)
        .def("empty", &Candidates::empty, "True when there is no pair")
        .def("clear", &Candidates::clear, "removes every pair")
        .def(py::self == py::self)
        .def("__repr__", [](const Candidates& c) {
            return ipc::detail::concat("Candidates(vertex_vertex=", c.vertex_vertex.size(),
                                       ", edge_vertex=", c.edge_vertex.size(), ", edge_edge=", c.edge_edge.size(),
                                       ", face_vertex=", c.face_vertex.size(), ")");
        });

    m.def(
        "static_candidates",
        [](const CollisionMesh& mesh, const py::object& V, double dhat, const py::object& method) {
            const FloatMatrix v = float_matrix(V, "static_candidates", "V");
            const ipc::BroadPhaseMethod bp = broad_phase_method(method);
            py::gil_scoped_release release;
            return ipc::static_candidates(mesh, v.map, dhat, bp);
        },
        py::arg("mesh"), py::arg("V"), py::arg("dhat"), py::arg("method") = ipc::BroadPhaseMethod::bvh,
        "Candidates at positions V ((n, dim), m) for activation distance dhat (m, >= 0): every admissible pair "
        "closer than xi + dhat, plus some farther ones. Raises ValueError for bad V or dhat. Releases the GIL.");
    m.def(
        "swept_candidates",
        [](const CollisionMesh& mesh, const py::object& V0, const py::object& V1, double min_distance,
           const py::object& method) {
            const FloatMatrix v0 = float_matrix(V0, "swept_candidates", "V0");
            const FloatMatrix v1 = float_matrix(V1, "swept_candidates", "V1");
            const ipc::BroadPhaseMethod bp = broad_phase_method(method);
            py::gil_scoped_release release;
            return ipc::swept_candidates(mesh, v0.map, v1.map, min_distance, bp);
        },
        py::arg("mesh"), py::arg("V0"), py::arg("V1"), py::arg("min_distance") = 0.0,
        py::arg("method") = ipc::BroadPhaseMethod::bvh,
        "Candidates for CCD over the linear motion V0 -> V1 ((n, dim), m): every admissible pair coming closer "
        "than xi + min_distance (m) at some t in [0, 1]. Raises ValueError for bad positions. Releases the GIL.");
    m.def("release_broad_phase_memory", &ipc::release_broad_phase_memory,
          "Frees the buffers the broad phase keeps between calls on the calling thread.");
}

} // namespace ipc_python
