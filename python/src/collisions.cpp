// Constraint sets (Collisions, FrictionCollisions), the collision-free step
// size, intersection test and minimum distance.

#include "common.hpp"

#include <ipc/barrier/clamped_log_barrier.hpp>
#include <ipc/ccd/additive_ccd.hpp>
#include <ipc/ccd/inclusion_ccd.hpp>
#include <ipc/ccd/root_finding_ccd.hpp>
#include <ipc/collisions/collision_free_step_size.hpp>
#include <ipc/collisions/collisions.hpp>
#include <ipc/collisions/friction_collisions.hpp>
#include <ipc/collisions/intersection.hpp>
#include <ipc/collisions/minimum_distance.hpp>

#include <pybind11/stl.h>

namespace ipc_python {

namespace {

    /// Calls f(ccd) with the CCD object given (None: AdditiveCCD()).
    template <typename F> double with_ccd(const py::handle& ccd, F&& f)
    {
        if (ccd.is_none()) {
            return f(ipc::AdditiveCCD());
        }
        if (py::isinstance<ipc::AdditiveCCD>(ccd)) {
            return f(ccd.cast<const ipc::AdditiveCCD&>());
        }
        if (py::isinstance<ipc::InclusionCCD>(ccd)) {
            return f(ccd.cast<const ipc::InclusionCCD&>());
        }
        if (py::isinstance<ipc::RootFindingCCD>(ccd)) {
            return f(ccd.cast<const ipc::RootFindingCCD&>());
        }
        throw ipc::invalid_argument(
            "collision_free_step_size: ccd must be an AdditiveCCD, InclusionCCD or RootFindingCCD (or None)");
    }

} // namespace

void bind_collisions(py::module_& m)
{
    using ipc::CollisionMesh;
    using ipc::Collisions;

    py::class_<Collisions>(
        m, "Collisions",
        "The active constraint set: every admissible pair closer than its offset plus dhat, stored by the "
        "distance formula it uses (IPC's multiplicity rule). Stencil lists are read as int64 vertex arrays: "
        "vertex_vertex (k, 2), edge_vertex (k, 3: point, e0, e1), edge_edge (k, 4), face_vertex (k, 4: point, "
        "t0, t1, t2).")
        .def(py::init<>(), "An empty set.")
        .def(
            "build",
            [](Collisions& c, const CollisionMesh& mesh, const py::object& V, double dhat, double dmin,
               const py::object& method) {
                const FloatMatrix v = float_matrix(V, "Collisions.build", "V");
                const ipc::BroadPhaseMethod bp = broad_phase_method(method);
                py::gil_scoped_release release;
                c.build(mesh, v.map, dhat, dmin, bp);
            },
            py::arg("mesh"), py::arg("V"), py::arg("dhat"), py::arg("dmin") = 0.0,
            py::arg("method") = ipc::BroadPhaseMethod::bvh,
            "Builds the set at positions V ((n, dim) floats, m) with activation distance dhat (m, > 0) and extra "
            "offset dmin (m, >= 0): static broad phase then the exact distance test. Raises ValueError for bad "
            "positions or parameters. Releases the GIL.")
        .def(
            "build",
            [](Collisions& c, const ipc::Candidates& candidates, const CollisionMesh& mesh, const py::object& V,
               double dhat, double dmin) {
                const FloatMatrix v = float_matrix(V, "Collisions.build", "V");
                py::gil_scoped_release release;
                c.build(candidates, mesh, v.map, dhat, dmin);
            },
            py::arg("candidates"), py::arg("mesh"), py::arg("V"), py::arg("dhat"), py::arg("dmin") = 0.0,
            "Builds the set from precomputed candidates (any superset of the pairs within xi + dhat). Raises "
            "ValueError for out-of-range candidate indices too.")
        .def("size", &Collisions::size, "total number of stencils")
        .def("__len__", &Collisions::size)
        .def("empty", &Collisions::empty, "True when no pair is active")
        .def("clear", &Collisions::clear, "removes every stencil")
        .def_property_readonly("dhat", &Collisions::dhat, "activation distance of the last build (m; 0 if none)")
        .def_property_readonly("dmin", &Collisions::dmin, "extra offset of the last build (m)")
        .def_property_readonly(
            "vertex_vertex",
            [](const Collisions& c) { return index_rows<2>(c.vertex_vertex, [](const auto& s) { return s.vertices; }); },
            "(k, 2) int64: merged point-point stencils")
        .def_property_readonly(
            "edge_vertex",
            [](const Collisions& c) { return index_rows<3>(c.edge_vertex, [](const auto& s) { return s.vertices; }); },
            "(k, 3) int64: merged point-edge stencils (point, e0, e1)")
        .def_property_readonly(
            "edge_edge",
            [](const Collisions& c) { return index_rows<4>(c.edge_edge, [](const auto& s) { return s.vertices; }); },
            "(k, 4) int64: edge-edge stencils (ea0, ea1, eb0, eb1)")
        .def_property_readonly(
            "face_vertex",
            [](const Collisions& c) { return index_rows<4>(c.face_vertex, [](const auto& s) { return s.vertices; }); },
            "(k, 4) int64: point-triangle stencils (point, t0, t1, t2)")
        .def(
            "offsets",
            [](const Collisions& c) {
                py::array_t<double> out(py::ssize_t(c.size()));
                double* d = out.mutable_data();
                std::size_t k = 0;
                for (const auto& s : c.vertex_vertex) d[k++] = s.offset;
                for (const auto& s : c.edge_vertex) d[k++] = s.offset;
                for (const auto& s : c.edge_edge) d[k++] = s.offset;
                for (const auto& s : c.face_vertex) d[k++] = s.offset;
                return out;
            },
            "Offsets xi (m) of every stencil, in the order vertex_vertex, edge_vertex, edge_edge, face_vertex.")
        .def(
            "weights",
            [](const Collisions& c) {
                py::array_t<double> out(py::ssize_t(c.size()));
                double* d = out.mutable_data();
                std::size_t k = 0;
                for (const auto& s : c.vertex_vertex) d[k++] = s.weight;
                for (const auto& s : c.edge_vertex) d[k++] = s.weight;
                for (const auto& s : c.edge_edge) d[k++] = s.weight;
                for (const auto& s : c.face_vertex) d[k++] = s.weight;
                return out;
            },
            "Multiplicities (number of merged source pairs) of every stencil, same order as offsets().")
        .def("__repr__", [](const Collisions& c) {
            return ipc::detail::concat("Collisions(vertex_vertex=", c.vertex_vertex.size(),
                                       ", edge_vertex=", c.edge_vertex.size(), ", edge_edge=", c.edge_edge.size(),
                                       ", face_vertex=", c.face_vertex.size(), ", dhat=", c.dhat(), ")");
        });

    using ipc::FrictionCollisions;
    py::class_<FrictionCollisions>(m, "FrictionCollisions",
                                   "The lagged friction contacts of one lag configuration (IPC section 5.3): "
                                   "normal force, tangent basis and weights per stencil, held fixed while the "
                                   "friction potential is minimised.")
        .def(py::init<>(), "An empty set.")
        .def(
            "build",
            [](FrictionCollisions& f, const Collisions& collisions, const CollisionMesh& mesh, const py::object& V,
               double dhat, double kappa, double mu) {
                const FloatMatrix v = float_matrix(V, "FrictionCollisions.build", "V");
                py::gil_scoped_release release;
                f.build(collisions, mesh, v.map, dhat, kappa, mu);
            },
            py::arg("collisions"), py::arg("mesh"), py::arg("V"), py::arg("dhat"), py::arg("kappa"), py::arg("mu"),
            "Builds one contact per stencil of collisions (built at V) from the lag positions V ((n, dim), m; 2D "
            "contacts are those of the plane z = 0); "
            "normal forces from the clamped log barrier with activation distance dhat (m) and stiffness kappa; "
            "mu >= 0 the friction coefficient. Raises ValueError for bad input or a dhat other than the set's, "
            "PenetrationError when a stencil is inside its offset. Releases the GIL.")
        .def("size", &FrictionCollisions::size, "total number of contacts")
        .def("__len__", &FrictionCollisions::size)
        .def("empty", &FrictionCollisions::empty, "True when there is no contact")
        .def("clear", &FrictionCollisions::clear, "removes every contact")
        .def(
            "normal_forces",
            [](const FrictionCollisions& f) {
                py::array_t<double> out(py::ssize_t(f.size()));
                double* d = out.mutable_data();
                std::size_t k = 0;
                for (const auto& s : f.vertex_vertex) d[k++] = s.contact.normal_force;
                for (const auto& s : f.edge_vertex) d[k++] = s.contact.normal_force;
                for (const auto& s : f.edge_edge) d[k++] = s.contact.normal_force;
                for (const auto& s : f.face_vertex) d[k++] = s.contact.normal_force;
                return out;
            },
            "Normal-force magnitudes lambda of every contact (vertex_vertex, edge_vertex, edge_edge, face_vertex "
            "order).")
        .def("__repr__", [](const FrictionCollisions& f) {
            return ipc::detail::concat("FrictionCollisions(size=", f.size(), ")");
        });

    m.def(
        "collision_free_step_size",
        [](const CollisionMesh& mesh, const py::object& V0, const py::object& V1, double min_distance,
           const py::object& method, const py::object& ccd) {
            const FloatMatrix v0 = float_matrix(V0, "collision_free_step_size", "V0");
            const FloatMatrix v1 = float_matrix(V1, "collision_free_step_size", "V1");
            const ipc::BroadPhaseMethod bp = broad_phase_method(method);
            return with_ccd(ccd, [&](const auto& c) {
                py::gil_scoped_release release;
                return ipc::collision_free_step_size(mesh, v0.map, v1.map, min_distance, bp, c);
            });
        },
        py::arg("mesh"), py::arg("V0"), py::arg("V1"), py::arg("min_distance") = 0.0,
        py::arg("method") = ipc::BroadPhaseMethod::bvh, py::arg("ccd") = py::none(),
        "Largest alpha in [0, 1] such that the linear motion V0 -> V0 + alpha (V1 - V0) keeps every pair farther "
        "than its offset + min_distance (m): swept broad phase plus narrow-phase CCD (ccd: an AdditiveCCD "
        "(default), InclusionCCD or RootFindingCCD). 2D or 3D meshes; V0, V1 (n, dim) floats (m; 2D motions are "
        "queried in the plane z = 0). Raises ValueError "
        "for bad input. Releases the GIL.");
    m.def(
        "collision_free_step_size",
        [](const ipc::Candidates& candidates, const CollisionMesh& mesh, const py::object& V0, const py::object& V1,
           double min_distance, const py::object& ccd) {
            const FloatMatrix v0 = float_matrix(V0, "collision_free_step_size", "V0");
            const FloatMatrix v1 = float_matrix(V1, "collision_free_step_size", "V1");
            return with_ccd(ccd, [&](const auto& c) {
                py::gil_scoped_release release;
                return ipc::collision_free_step_size(candidates, mesh, v0.map, v1.map, min_distance, c);
            });
        },
        py::arg("candidates"), py::arg("mesh"), py::arg("V0"), py::arg("V1"), py::arg("min_distance") = 0.0,
        py::arg("ccd") = py::none(),
        "The same over given swept candidates (e.g. swept_candidates(mesh, V0, V1, min_distance)).");

    py::enum_<ipc::StepStartStatus>(m, "StepStartStatus", "Verdict of step_start_state.")
        .value("VALID", ipc::StepStartStatus::valid, "intersection-free, every pair clear of its offset")
        .value("WITHIN_OFFSET", ipc::StepStartStatus::within_offset, "some pair at or inside xi + min_distance")
        .value("INTERSECTS", ipc::StepStartStatus::intersects, "an edge meets a face");
    py::class_<ipc::StepStartState>(m, "StepStartState", "Result of step_start_state.")
        .def_readonly("status", &ipc::StepStartState::status, "StepStartStatus")
        .def_readonly("message", &ipc::StepStartState::message, "names the first offending pair (empty when valid)")
        .def("valid", &ipc::StepStartState::valid, "True when the start is valid");
    m.def(
        "step_start_state",
        [](const CollisionMesh& mesh, const py::object& V0, double min_distance, const py::object& method) {
            const FloatMatrix v0 = float_matrix(V0, "step_start_state", "V0");
            const ipc::BroadPhaseMethod bp = broad_phase_method(method);
            py::gil_scoped_release release;
            return ipc::step_start_state(mesh, v0.map, min_distance, bp);
        },
        py::arg("mesh"), py::arg("V0"), py::arg("min_distance") = 0.0, py::arg("method") = ipc::BroadPhaseMethod::bvh,
        "Checks that V0 ((n, dim), m) is a valid start for collision_free_step_size: every pair farther than its "
        "offset + min_distance and no edge meeting a face. Returns a StepStartState.");
    m.def(
        "check_step_start",
        [](const CollisionMesh& mesh, const py::object& V0, double min_distance, const py::object& method) {
            const FloatMatrix v0 = float_matrix(V0, "check_step_start", "V0");
            const ipc::BroadPhaseMethod bp = broad_phase_method(method);
            py::gil_scoped_release release;
            ipc::check_step_start(mesh, v0.map, min_distance, bp);
        },
        py::arg("mesh"), py::arg("V0"), py::arg("min_distance") = 0.0, py::arg("method") = ipc::BroadPhaseMethod::bvh,
        "Raises PenetrationError (a ValueError) unless V0 is a valid start (see step_start_state).");
    m.def(
        "has_intersections",
        [](const CollisionMesh& mesh, const py::object& V) {
            const FloatMatrix v = float_matrix(V, "has_intersections", "V");
            py::gil_scoped_release release;
            return ipc::has_intersections(mesh, v.map);
        },
        py::arg("mesh"), py::arg("V"),
        "True when the configuration V ((n, dim), m) intersects: in 3D an edge and a face share a point, in 2D "
        "two edges. Touching counts; pairs sharing a vertex and radii are ignored. Raises ValueError for bad V. "
        "Releases the GIL.");
    m.def(
        "minimum_distance",
        [](const CollisionMesh& mesh, const py::object& V, const py::object& method) {
            const FloatMatrix v = float_matrix(V, "minimum_distance", "V");
            const ipc::BroadPhaseMethod bp = broad_phase_method(method);
            py::gil_scoped_release release;
            return ipc::minimum_distance(mesh, v.map, bp);
        },
        py::arg("mesh"), py::arg("V"), py::arg("method") = ipc::BroadPhaseMethod::bvh,
        "Smallest (distance - xi) (m) over all admissible pairs at positions V; +inf with no pair, negative "
        "when some pair is inside its offset.");
}

} // namespace ipc_python
