// Adhesion: the normal adhesion potential, the lagged tangential adhesion
// (its contact set and potential) and the normal adhesion profile as scalar
// functions.

#include "common.hpp"

#include <ipc/adhesion/normal_adhesion.hpp>
#include <ipc/core/psd_projection.hpp>
#include <ipc/potentials/normal_adhesion_potential.hpp>
#include <ipc/potentials/tangential_adhesion_potential.hpp>

#include <string>

namespace ipc_python {

void bind_adhesion(py::module_& m)
{
    using ipc::CollisionMesh;
    using ipc::Collisions;
    const char* const sparse_note = " Returned as a scipy.sparse.csr_matrix of shape (3n, 3n) (x, y, z per vertex) "
                                    "when SciPy imports, else as a (rows, cols, values) tuple of NumPy arrays.";
    const std::string raw = " s: gap d - xi (m); dhat_p > 0: gap of the peak force (m); dhat_a > dhat_p: range (m); "
                            "Y >= 0: peak force (N). Raw kernel: no validation; floats or NumPy arrays (broadcast).";

    m.def("normal_adhesion_potential",
          py::vectorize([](double s, double dhat_p, double dhat_a, double Y) {
              return ipc::normal_adhesion_potential(s, dhat_p, dhat_a, Y);
          }),
          py::arg("s"), py::arg("dhat_p"), py::arg("dhat_a"), py::arg("Y"),
          ("Normal adhesion potential A(s) (J): -Y (dhat_a - dhat_p) / 2 - Y (dhat_p^2 - s^2) / (2 dhat_p) below "
           "dhat_p, -Y (dhat_a - s)^2 / (2 (dhat_a - dhat_p)) up to dhat_a, 0 beyond." + raw)
              .c_str());
    m.def("normal_adhesion_force",
          py::vectorize([](double s, double dhat_p, double dhat_a, double Y) {
              return ipc::normal_adhesion_force(s, dhat_p, dhat_a, Y);
          }),
          py::arg("s"), py::arg("dhat_p"), py::arg("dhat_a"), py::arg("Y"),
          ("Attraction force a(s) = A'(s) >= 0 (N): rises linearly to Y at dhat_p, falls back to 0 at dhat_a." + raw)
              .c_str());
    m.def("normal_adhesion_force_derivative",
          py::vectorize([](double s, double dhat_p, double dhat_a, double Y) {
              return ipc::normal_adhesion_force_derivative(s, dhat_p, dhat_a, Y);
          }),
          py::arg("s"), py::arg("dhat_p"), py::arg("dhat_a"), py::arg("Y"),
          ("A''(s) (N/m): Y / dhat_p below dhat_p, -Y / (dhat_a - dhat_p) up to dhat_a, 0 beyond." + raw).c_str());

    using Normal = ipc::NormalAdhesionPotential;
    py::class_<Normal>(m, "NormalAdhesionPotential",
                       "Normal adhesion over a mesh: sum_k w_k A(d_k - xi_k) over the stencils of a Collisions set "
                       "(built with dhat >= dhat_a), A the attractive profile of normal_adhesion_potential (peak "
                       "force Y at the gap dhat_p, zero beyond dhat_a). Add it next to the barrier. 3D meshes; "
                       "joules when Y is in newtons.")
        .def(py::init<double, double, double>(), py::arg("dhat_p"), py::arg("dhat_a"), py::arg("Y"),
             "dhat_p: gap of the peak attraction (m, > 0); dhat_a: adhesion range (m, > dhat_p); Y: peak "
             "attractive force per stencil (N, >= 0). Raises ValueError otherwise.")
        .def_property_readonly("dhat_p", &Normal::dhat_p, "gap of the peak attraction (m)")
        .def_property_readonly("dhat_a", &Normal::dhat_a, "adhesion range (m)")
        .def_property_readonly("Y", &Normal::Y, "peak attractive force per stencil (N)")
        .def(
            "__call__",
            [](const Normal& a, const Collisions& c, const CollisionMesh& mesh, const py::object& V) {
                const FloatMatrix v = float_matrix(V, "NormalAdhesionPotential", "V");
                py::gil_scoped_release release;
                return a(c, mesh, v.map);
            },
            py::arg("collisions"), py::arg("mesh"), py::arg("V"),
            "Adhesion energy (J) of the set at positions V ((n, 3) floats, m). Raises ValueError for a 2D mesh, "
            "bad positions, out-of-range stencils or a set built with a dhat below dhat_a, PenetrationError when "
            "a stencil is at or inside its offset. Releases the GIL.")
        .def(
            "gradient",
            [](const Normal& a, const Collisions& c, const CollisionMesh& mesh, const py::object& V) {
                const FloatMatrix v = float_matrix(V, "NormalAdhesionPotential.gradient", "V");
                Eigen::VectorXd g;
                {
                    py::gil_scoped_release release;
                    g = a.gradient(c, mesh, v.map);
                }
                return to_numpy(std::move(g));
            },
            py::arg("collisions"), py::arg("mesh"), py::arg("V"),
            "Gradient (3n,) of the adhesion energy (the negated adhesion forces). Validates as __call__.")
        .def(
            "hessian",
            [](const Normal& a, const Collisions& c, const CollisionMesh& mesh, const py::object& V,
               ipc::PSDProjection projection) {
                const FloatMatrix v = float_matrix(V, "NormalAdhesionPotential.hessian", "V");
                Eigen::SparseMatrix<double> H;
                {
                    py::gil_scoped_release release;
                    H = a.hessian(c, mesh, v.map, projection);
                }
                return sparse_to_python(H);
            },
            py::arg("collisions"), py::arg("mesh"), py::arg("V"), py::arg("projection") = ipc::PSDProjection::none,
            (std::string("Hessian of the adhesion energy (indefinite in general: attraction is concave beyond "
                         "dhat_p), each stencil's block projected to PSD first unless projection is NONE.") +
             sparse_note)
                .c_str());

    using Tangential = ipc::TangentialAdhesionPotential;
    py::class_<Tangential>(m, "TangentialAdhesionPotential",
                           "Lagged tangential adhesion T(U) = sum_k mu_t lambda_a,k f0_a(|T_k^T sum_i w_ki U_i|) over "
                           "a contact set from tangential_adhesion_collisions, U the displacements over the step "
                           "(m): the bond resists sliding up to the force mu_t lambda_a at slip eps_a and breaks by "
                           "2 eps_a. (FrictionPotential with the tangential adhesion mollifier.) Joules.")
        .def(py::init<double>(), py::arg("eps_a"),
             "eps_a: slip (m, > 0) at which the tangential adhesion force peaks. Raises ValueError otherwise.")
        .def_property_readonly("eps", &Tangential::eps, "the slip threshold eps_a (m)")
        .def(
            "__call__",
            [](const Tangential& t, const ipc::FrictionCollisions& c, const CollisionMesh& mesh,
               const py::object& U) {
                const FloatMatrix u = float_matrix(U, "TangentialAdhesionPotential", "U");
                py::gil_scoped_release release;
                return t(c, mesh, u.map);
            },
            py::arg("contacts"), py::arg("mesh"), py::arg("U"),
            "Tangential adhesion energy (J) for displacements U ((n, dim) floats, m). Raises ValueError for bad "
            "displacements or out-of-range contacts.")
        .def(
            "gradient",
            [](const Tangential& t, const ipc::FrictionCollisions& c, const CollisionMesh& mesh,
               const py::object& U) {
                const FloatMatrix u = float_matrix(U, "TangentialAdhesionPotential.gradient", "U");
                Eigen::VectorXd g;
                {
                    py::gil_scoped_release release;
                    g = t.gradient(c, mesh, u.map);
                }
                return to_numpy(std::move(g));
            },
            py::arg("contacts"), py::arg("mesh"), py::arg("U"), "Gradient (dim n,) of the tangential adhesion energy.")
        .def(
            "hessian",
            [](const Tangential& t, const ipc::FrictionCollisions& c, const CollisionMesh& mesh, const py::object& U,
               ipc::PSDProjection projection) {
                const FloatMatrix u = float_matrix(U, "TangentialAdhesionPotential.hessian", "U");
                Eigen::SparseMatrix<double> H;
                {
                    py::gil_scoped_release release;
                    t.hessian(c, mesh, u.map, projection, H);
                }
                return sparse_to_python(H);
            },
            py::arg("contacts"), py::arg("mesh"), py::arg("U"), py::arg("projection") = ipc::PSDProjection::none,
            (std::string("Hessian of the tangential adhesion energy; indefinite where the bond weakens (slip in "
                         "[eps_a, 2 eps_a)), so pass a projection for a PSD one.") +
             sparse_note)
                .c_str());

    m.def(
        "tangential_adhesion_collisions",
        [](const Collisions& collisions, const CollisionMesh& mesh, const py::object& V, const Normal& normal,
           double mu_t) {
            const FloatMatrix v = float_matrix(V, "tangential_adhesion_collisions", "V");
            py::gil_scoped_release release;
            return ipc::tangential_adhesion_collisions(collisions, mesh, v.map, normal, mu_t);
        },
        py::arg("collisions"), py::arg("mesh"), py::arg("V"), py::arg("normal"), py::arg("mu_t"),
        "The lagged tangential adhesion contacts (a FrictionCollisions) of collisions (built with dhat >= "
        "normal.dhat_a) at the lag positions V ((n, 3), m): one contact per stencil with a non-zero adhesion "
        "force, normal force lambda_a = the stencil's adhesion force (N), coefficient mu_t >= 0. Evaluate it "
        "with TangentialAdhesionPotential. Raises ValueError for bad input, PenetrationError for a stencil at or "
        "inside its offset.");
}

} // namespace ipc_python
