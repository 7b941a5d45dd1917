// Mesh-level potentials: barrier, friction and strain limit.

#include "common.hpp"

#include <ipc/barrier/clamped_log_barrier.hpp>
#include <ipc/core/psd_projection.hpp>
#include <ipc/potentials/assembly_layout.hpp>
#include <ipc/potentials/barrier_potential.hpp>
#include <ipc/potentials/friction_potential.hpp>
#include <ipc/potentials/strain_limit_potential.hpp>
#include <ipc/strain_limit/strain_limit_feasibility.hpp>

namespace ipc_python {

namespace {
    /// The layout of a gradient or Hessian call: the optional vertex map
    /// (None: the collision mesh's own rows) and the stored triangle.
    ipc::AssemblyLayout layout_of(const ipc::VertexMap* vertex_map, ipc::SparseTriangle triangle)
    {
        ipc::AssemblyLayout layout;
        if (vertex_map != nullptr) {
            layout.vertices = *vertex_map;
        }
        layout.triangle = triangle;
        return layout;
    }
} // namespace

void bind_potentials(py::module_& m)
{
    using ipc::CollisionMesh;
    py::enum_<ipc::PSDProjection>(m, "PSDProjection", "How local Hessian blocks are made positive semi-definite.")
        .value("NONE", ipc::PSDProjection::none, "leave the matrix as it is")
        .value("CLAMP", ipc::PSDProjection::clamp, "set negative eigenvalues to zero")
        .value("ABS", ipc::PSDProjection::abs, "flip the sign of negative eigenvalues");

    py::enum_<ipc::FrictionHessianForm>(m, "FrictionHessianForm", "Which matrix the friction Hessians return.")
        .value("EXACT", ipc::FrictionHessianForm::exact, "the exact Hessian (no curvature along a sliding slip)")
        .value("MAJORIZER", ipc::FrictionHessianForm::majorizer,
               "f1(y)/y along the slip too: its quadratic model lies above the friction energy, so a full Newton "
               "step never overshoots a reversing slip");

    py::enum_<ipc::SparseTriangle>(m, "SparseTriangle", "Which entries of a symmetric sparse matrix are stored.")
        .value("FULL", ipc::SparseTriangle::full, "every entry")
        .value("UPPER", ipc::SparseTriangle::upper, "row <= column only")
        .value("LOWER", ipc::SparseTriangle::lower, "row >= column only");

    py::class_<ipc::VertexMap>(m, "VertexMap",
                               "The collision mesh's vertices as vertices of a larger simulation mesh: collision vertex "
                               "v is vertex full_vertex[v] of a mesh of num_full_vertices vertices. Passed as "
                               "vertex_map to the potentials' gradient and hessian, it puts their entries in the "
                               "rows of the larger mesh directly.")
        .def(py::init([](const py::object& full_vertex, ipc::Index num_full_vertices) {
                 return ipc::VertexMap(index_vector(full_vertex, "VertexMap", "full_vertex"), num_full_vertices);
             }),
             py::arg("full_vertex"), py::arg("num_full_vertices"),
             "full_vertex: (n,) integers in [0, num_full_vertices). Raises ValueError naming the first entry out "
             "of range.")
        .def_property_readonly("num_vertices", &ipc::VertexMap::num_vertices, "collision vertices covered")
        .def_property_readonly("num_full_vertices", &ipc::VertexMap::num_full_vertices,
                               "vertices of the larger mesh");

    const char* const layout_note = " With vertex_map (a VertexMap over the mesh's vertices), the rows are those of "
                                    "the larger mesh (dim num_full_vertices of them). With triangle UPPER or LOWER, "
                                    "only that triangle is stored, as sparse Cholesky reads it.";
    const char* const sparse_note = " Returned as a scipy.sparse.csr_matrix of shape (dim n, dim n) (x, y (, z) per "
                                    "vertex; (3n, 3n) in 3D, (2n, 2n) in 2D) "
                                    "when SciPy imports, else as a (rows, cols, values) tuple of NumPy arrays.";

    // ---------------------------------------------------------------- barrier
    using Barrier = ipc::BarrierPotential<ipc::ClampedLogBarrier>;
    py::class_<Barrier>(m, "BarrierPotential",
                        "The barrier potential over a mesh: B(x) = kappa * sum_k w_k m_k(x) b(d_k^2 - xi_k^2, 2 xi_k "
                        "dhat + dhat^2) with the clamped log barrier b, over the stencils of a Collisions set (2D or "
                        "3D meshes), or over the vertex-obstacle contacts of an ObstacleCollisions set (3D). Units: "
                        "kappa times m^4 (the barrier is in squared-distance units).")
        .def(py::init<double, double>(), py::arg("dhat"), py::arg("stiffness") = 1.0,
             "dhat: activation distance (m, > 0, equal to the Collisions set's); stiffness: kappa (> 0). Raises "
             "ValueError otherwise.")
        .def_property_readonly("dhat", &Barrier::dhat, "activation distance (m)")
        .def_property("stiffness", &Barrier::stiffness, &Barrier::set_stiffness, "barrier stiffness kappa (> 0)")
        .def(
            "__call__",
            [](const Barrier& b, const ipc::Collisions& c, const CollisionMesh& mesh, const py::object& V) {
                const FloatMatrix v = float_matrix(V, "BarrierPotential", "V");
                py::gil_scoped_release release;
                return b(c, mesh, v.map);
            },
            py::arg("collisions"), py::arg("mesh"), py::arg("V"),
            "Barrier energy (kappa included) of the set at positions V ((n, dim) floats, m; 2D meshes too). Raises ValueError for "
            "bad positions, out-of-range stencils or a set built with another dhat, PenetrationError when a "
            "stencil is at or inside its offset. Releases the GIL.")
        .def(
            "gradient",
            [](const Barrier& b, const ipc::Collisions& c, const CollisionMesh& mesh, const py::object& V,
               const ipc::VertexMap* vertex_map) {
                const FloatMatrix v = float_matrix(V, "BarrierPotential.gradient", "V");
                const ipc::AssemblyLayout layout = layout_of(vertex_map, ipc::SparseTriangle::full);
                Eigen::VectorXd g;
                {
                    py::gil_scoped_release release;
                    g = b.gradient(c, mesh, v.map, layout);
                }
                return to_numpy(std::move(g));
            },
            py::arg("collisions"), py::arg("mesh"), py::arg("V"), py::arg("vertex_map") = py::none(),
            "Gradient (dim n,) of the barrier energy, x y (z) per vertex; with vertex_map (a VertexMap), in the "
            "rows of the larger mesh. Validates as __call__.")
        .def(
            "hessian",
            [](const Barrier& b, const ipc::Collisions& c, const CollisionMesh& mesh, const py::object& V,
               ipc::PSDProjection projection, const ipc::VertexMap* vertex_map, ipc::SparseTriangle triangle) {
                const FloatMatrix v = float_matrix(V, "BarrierPotential.hessian", "V");
                const ipc::AssemblyLayout layout = layout_of(vertex_map, triangle);
                Eigen::SparseMatrix<double> H;
                {
                    py::gil_scoped_release release;
                    b.hessian(c, mesh, v.map, projection, H, layout);
                }
                return sparse_to_python(H);
            },
            py::arg("collisions"), py::arg("mesh"), py::arg("V"), py::arg("projection") = ipc::PSDProjection::none,
            py::arg("vertex_map") = py::none(), py::arg("triangle") = ipc::SparseTriangle::full,
            (std::string("Hessian of the barrier energy, each stencil's block projected to PSD first unless "
                         "projection is NONE. Validates as __call__.") +
             sparse_note + layout_note)
                .c_str());

    // --------------------------------------------------------------- friction
    using Friction = ipc::FrictionPotential<>;
    py::class_<Friction>(m, "FrictionPotential",
                         "The lagged friction potential D(U) = sum_k mu_k lambda_k f0(|T_k^T sum_i w_ki U_i|) over "
                         "a FrictionCollisions set, with U the vertex displacements over the step (m). Units: "
                         "lambda times metres.")
        .def(py::init<double, ipc::FrictionHessianForm>(), py::arg("eps"),
             py::arg("hessian_form") = ipc::FrictionHessianForm::exact,
             "eps: slip threshold eps_v * h (m, > 0); below this tangential displacement per step friction is "
             "smoothly static. hessian_form: the matrix hessian() returns (FrictionHessianForm).")
        .def_property_readonly("eps", &Friction::eps, "slip threshold (m)")
        .def_property_readonly("hessian_form", &Friction::hessian_form, "the form of the Hessians")
        .def(
            "__call__",
            [](const Friction& f, const ipc::FrictionCollisions& c, const CollisionMesh& mesh, const py::object& U) {
                const FloatMatrix u = float_matrix(U, "FrictionPotential", "U");
                py::gil_scoped_release release;
                return f(c, mesh, u.map);
            },
            py::arg("contacts"), py::arg("mesh"), py::arg("U"),
            "Friction energy for displacements U ((n, dim) floats, m; 2D meshes too). Raises ValueError for non-finite "
            "displacements, wrong sizes or out-of-range contacts. Releases the GIL.")
        .def(
            "gradient",
            [](const Friction& f, const ipc::FrictionCollisions& c, const CollisionMesh& mesh, const py::object& U,
               const ipc::VertexMap* vertex_map) {
                const FloatMatrix u = float_matrix(U, "FrictionPotential.gradient", "U");
                const ipc::AssemblyLayout layout = layout_of(vertex_map, ipc::SparseTriangle::full);
                Eigen::VectorXd g;
                {
                    py::gil_scoped_release release;
                    g = f.gradient(c, mesh, u.map, layout);
                }
                return to_numpy(std::move(g));
            },
            py::arg("contacts"), py::arg("mesh"), py::arg("U"), py::arg("vertex_map") = py::none(),
            "Gradient (dim n,) of the friction energy (the negated friction forces); with vertex_map (a "
            "VertexMap), in the rows of the larger mesh.")
        .def(
            "hessian",
            [](const Friction& f, const ipc::FrictionCollisions& c, const CollisionMesh& mesh, const py::object& U,
               ipc::PSDProjection projection, const ipc::VertexMap* vertex_map, ipc::SparseTriangle triangle) {
                const FloatMatrix u = float_matrix(U, "FrictionPotential.hessian", "U");
                const ipc::AssemblyLayout layout = layout_of(vertex_map, triangle);
                Eigen::SparseMatrix<double> H;
                {
                    py::gil_scoped_release release;
                    f.hessian(c, mesh, u.map, projection, H, layout);
                }
                return sparse_to_python(H);
            },
            py::arg("contacts"), py::arg("mesh"), py::arg("U"), py::arg("projection") = ipc::PSDProjection::none,
            py::arg("vertex_map") = py::none(), py::arg("triangle") = ipc::SparseTriangle::full,
            (std::string("Hessian of the friction energy in this potential's form (PSD by construction).") + sparse_note + layout_note)
                .c_str());

    // ------------------------------------------------------------ strain limit
    using Params = ipc::StrainLimitParameters<double>;
    py::class_<Params>(m, "StrainLimitParameters",
                       "Parameters of the isotropic strain-limit potential (C-IPC's defaults: cotton).")
        .def(py::init([](double limit, double threshold, double thickness, double stiffness) {
                 Params p;
                 p.limit = limit;
                 p.threshold = threshold;
                 p.thickness = thickness;
                 p.stiffness = stiffness;
                 p.validate();
                 return p;
             }),
             py::arg("limit") = 1.0608, py::arg("threshold") = 1.0, py::arg("thickness") = 0.318e-3,
             py::arg("stiffness") = 1e3,
             "limit s: largest allowed singular value (stretch); threshold s_hat < s: barrier zero below it; "
             "thickness (m); stiffness kappa_s (Pa). Raises ValueError unless 0 < threshold < limit, thickness > "
             "0, stiffness >= 0.")
        .def_readwrite("limit", &Params::limit, "strain limit s (dimensionless)")
        .def_readwrite("threshold", &Params::threshold, "activation threshold s_hat (dimensionless)")
        .def_readwrite("thickness", &Params::thickness, "material thickness (m)")
        .def_readwrite("stiffness", &Params::stiffness, "kappa_s (Pa)")
        .def("validate", &Params::validate, "Raises ValueError for invalid parameters.");

    using Strain = ipc::StrainLimitPotential;
    py::class_<Strain>(m, "StrainLimitPotential",
                       "Isotropic strain-limit potential of a triangle set (C-IPC section 4.1): sum over triangles "
                       "of kappa_s * rest area * thickness * psi(F). Units: joules.")
        .def(py::init([](const py::object& rest, const py::object& faces, const Params& p) {
                 const char* who = "StrainLimitPotential";
                 const FloatMatrix r = float_matrix(rest, who, "rest_positions", -1, 3);
                 const Eigen::MatrixXi f = index_matrix(faces, who, "faces", 3);
                 return Strain(r.map, f, p);
             }),
             py::arg("rest_positions"), py::arg("faces"), py::arg("parameters") = Params(),
             "Triangles faces ((k, 3) ints) of a mesh with rest positions ((n, 3) floats, m), all with the same "
             "parameters. Raises ValueError for bad sizes, indices or parameters, DegenerateGeometryError for a "
             "zero-area rest triangle.")
        .def_property_readonly("num_triangles", &Strain::num_triangles, "number of triangles")
        .def("set_stiffness", &Strain::set_stiffness, py::arg("stiffness"),
             "Sets kappa_s (Pa, finite, >= 0) of every triangle.")
        .def(
            "__call__",
            [](const Strain& s, const py::object& V) {
                const FloatMatrix v = float_matrix(V, "StrainLimitPotential", "V");
                py::gil_scoped_release release;
                return s(v.map);
            },
            py::arg("V"),
            "Strain-limit energy (J) at positions V ((n, 3) floats, m). Raises ValueError when a triangle's "
            "largest singular value reaches its limit (filter steps with is_feasible first).")
        .def(
            "gradient",
            [](const Strain& s, const py::object& V) {
                const FloatMatrix v = float_matrix(V, "StrainLimitPotential.gradient", "V");
                Eigen::VectorXd g;
                {
                    py::gil_scoped_release release;
                    g = s.gradient(v.map);
                }
                return to_numpy(std::move(g));
            },
            py::arg("V"), "Gradient (3n,) of the strain-limit energy (N).")
        .def(
            "hessian",
            [](const Strain& s, const py::object& V, ipc::PSDProjection projection) {
                const FloatMatrix v = float_matrix(V, "StrainLimitPotential.hessian", "V");
                Eigen::SparseMatrix<double> H;
                {
                    py::gil_scoped_release release;
                    s.hessian(v.map, projection, H);
                }
                return sparse_to_python(H);
            },
            py::arg("V"), py::arg("projection") = ipc::PSDProjection::none,
            (std::string("Hessian of the strain-limit energy (N/m).") + sparse_note).c_str())
        .def(
            "is_feasible",
            [](const Strain& s, const py::object& V) {
                const FloatMatrix v = float_matrix(V, "StrainLimitPotential.is_feasible", "V", -1, 3);
                const auto& faces = s.faces();
                for (Eigen::Index f = 0; f < faces.rows(); ++f) {
                    for (int j = 0; j < 3; ++j) {
                        check_index(faces(f, j), v.rows(), "StrainLimitPotential.is_feasible", "face vertex");
                    }
                    const Eigen::Vector3d x0 = v.map.row(faces(f, 0)).transpose();
                    const Eigen::Vector3d x1 = v.map.row(faces(f, 1)).transpose();
                    const Eigen::Vector3d x2 = v.map.row(faces(f, 2)).transpose();
                    const auto& rest = s.rest_shapes()[std::size_t(f)];
                    if (!ipc::is_strain_feasible(x0, x1, x2, rest.inverse_rest_matrix,
                                                 s.parameters()[std::size_t(f)].limit)) {
                        return false;
                    }
                }
                return true;
            },
            py::arg("V"),
            "True when every triangle's largest singular value is below its limit at V ((n, 3), m); NaN "
            "positions give False.");
}

} // namespace ipc_python
