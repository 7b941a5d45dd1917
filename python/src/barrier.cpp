// Barriers: the clamped log barrier, offset (thickness) barriers and the
// adaptive barrier stiffness.

#include "common.hpp"

#include <ipc/barrier/adaptive_stiffness.hpp>
#include <ipc/barrier/clamped_log_barrier.hpp>
#include <ipc/barrier/offset_barrier.hpp>

namespace ipc_python {

void bind_barrier(py::module_& m)
{
    const char* const raw = " Raw kernel: no validation (NaN in gives NaN out). Accepts floats or NumPy arrays "
                            "(broadcast element-wise).";

    m.def("barrier", py::vectorize([](double x, double x_hat) { return ipc::barrier(x, x_hat); }), py::arg("x"),
          py::arg("x_hat"),
          (std::string("Clamped log barrier b(x, x_hat) = -(x - x_hat)^2 ln(x / x_hat) for 0 < x < x_hat, 0 for "
                       "x >= x_hat. x is a squared distance minus the squared offset (m^2), x_hat > 0 the squared "
                       "activation distance (m^2); returns m^4.") +
           raw)
              .c_str());
    m.def("barrier_first_derivative",
          py::vectorize([](double x, double x_hat) { return ipc::barrier_first_derivative(x, x_hat); }),
          py::arg("x"), py::arg("x_hat"),
          (std::string("db/dx of the clamped log barrier (m^2).") + raw).c_str());
    m.def("barrier_second_derivative",
          py::vectorize([](double x, double x_hat) { return ipc::barrier_second_derivative(x, x_hat); }),
          py::arg("x"), py::arg("x_hat"),
          (std::string("d2b/dx2 of the clamped log barrier (dimensionless).") + raw).c_str());
    m.def(
        "checked_barrier", [](double x, double x_hat) { return ipc::checked_barrier(x, x_hat); }, py::arg("x"),
        py::arg("x_hat"),
        "Clamped log barrier after validation: raises InvalidArgumentError (ValueError) for non-finite x or "
        "x_hat <= 0 and PenetrationError (ValueError) for x <= 0.");

    m.def("offset_barrier_threshold",
          py::vectorize([](double xi, double dhat) { return ipc::offset_barrier_threshold(xi, dhat); }),
          py::arg("xi"), py::arg("dhat"),
          (std::string("Squared activation threshold x_hat = 2 xi dhat + dhat^2 (m^2) for offset xi (m) and "
                       "activation distance dhat (m).") +
           raw)
              .c_str());
    m.def("offset_barrier_argument",
          py::vectorize([](double d2, double xi) { return ipc::offset_barrier_argument(d2, xi); }),
          py::arg("distance_squared"), py::arg("xi"),
          (std::string("Barrier argument x = d^2 - xi^2 (m^2) from the squared distance (m^2) and offset xi (m).") +
           raw)
              .c_str());
    m.def("offset_barrier_active",
          py::vectorize([](double d2, double xi, double dhat) { return ipc::offset_barrier_active(d2, xi, dhat); }),
          py::arg("distance_squared"), py::arg("xi"), py::arg("dhat"),
          (std::string("True when d < xi + dhat (tested without a square root).") + raw).c_str());
    m.def("offset_gap", py::vectorize([](double d2, double xi) { return ipc::offset_gap(d2, xi); }),
          py::arg("distance_squared"), py::arg("xi"),
          (std::string("Gap d - xi (m) between the offset surfaces, accurate for tiny gaps; negative inside the "
                       "offset.") +
           raw)
              .c_str());
    m.def("offset_barrier",
          py::vectorize([](double d2, double xi, double dhat) { return ipc::offset_barrier(d2, xi, dhat); }),
          py::arg("distance_squared"), py::arg("xi"), py::arg("dhat"),
          (std::string("Offset barrier b(d^2 - xi^2, 2 xi dhat + dhat^2) of the clamped log barrier, from the "
                       "squared distance (m^2), offset xi (m) and activation distance dhat (m); 0 for d >= xi + "
                       "dhat, +inf for d <= xi.") +
           raw)
              .c_str());
    m.def("offset_barrier_first_derivative", py::vectorize([](double d2, double xi, double dhat) {
              return ipc::offset_barrier_first_derivative(d2, xi, dhat);
          }),
          py::arg("distance_squared"), py::arg("xi"), py::arg("dhat"),
          (std::string("d b / d(d^2) of the offset barrier (m^2).") + raw).c_str());
    m.def("offset_barrier_second_derivative", py::vectorize([](double d2, double xi, double dhat) {
              return ipc::offset_barrier_second_derivative(d2, xi, dhat);
          }),
          py::arg("distance_squared"), py::arg("xi"), py::arg("dhat"),
          (std::string("d2 b / d(d^2)^2 of the offset barrier (dimensionless).") + raw).c_str());
    m.def("offset_barrier_distance_derivative", py::vectorize([](double d, double xi, double dhat) {
              return ipc::offset_barrier_distance_derivative(d, xi, dhat);
          }),
          py::arg("distance"), py::arg("xi"), py::arg("dhat"),
          (std::string("d b / dd of the offset barrier with respect to the unsquared distance d (m): "
                       "2 d b'(d^2 - xi^2).") +
           raw)
              .c_str());
    m.def("offset_barrier_distance_second_derivative", py::vectorize([](double d, double xi, double dhat) {
              return ipc::offset_barrier_distance_second_derivative(d, xi, dhat);
          }),
          py::arg("distance"), py::arg("xi"), py::arg("dhat"),
          (std::string("d2 b / dd2 of the offset barrier with respect to d (m): 4 d^2 b'' + 2 b'.") + raw).c_str());
    m.def(
        "checked_offset_barrier",
        [](double d2, double xi, double dhat) { return ipc::checked_offset_barrier(d2, xi, dhat); },
        py::arg("distance_squared"), py::arg("xi"), py::arg("dhat"),
        "Offset barrier after validation: raises InvalidArgumentError (ValueError) for non-finite input, a "
        "negative squared distance or xi, or dhat <= 0, and PenetrationError (ValueError) when d <= xi.");
    m.def(
        "pair_offset", [](double ra, double rb) { return ipc::pair_offset(ra, rb); }, py::arg("radius_a"),
        py::arg("radius_b"),
        "Offset xi = radius_a + radius_b (m) of a pair of primitives; raises ValueError for a negative or "
        "non-finite radius.");

    // ----------------------------------------------------- adaptive stiffness
    py::class_<ipc::AdaptiveStiffnessParameters>(m, "AdaptiveStiffnessParameters",
                                                 "Constants of the adaptive barrier-stiffness rule (IPC section "
                                                 "4.3); the defaults are the IPC reference implementation's.")
        .def(py::init<>(), "The default constants.")
        .def_readwrite("min_stiffness_scale", &ipc::AdaptiveStiffnessParameters::min_stiffness_scale,
                       "kappa_min makes the barrier stiffness at the reference gap this multiple of the average "
                       "nodal mass (1e11).")
        .def_readwrite("max_to_min_ratio", &ipc::AdaptiveStiffnessParameters::max_to_min_ratio,
                       "kappa_max / kappa_min (100).")
        .def_readwrite("reference_gap_scale", &ipc::AdaptiveStiffnessParameters::reference_gap_scale,
                       "Reference gap for kappa_min as a fraction of the bounding-box diagonal (1e-8).")
        .def_readwrite("small_gap_scale", &ipc::AdaptiveStiffnessParameters::small_gap_scale,
                       "Gap below which a still-shrinking minimum gap doubles kappa, as a fraction of the "
                       "bounding-box diagonal (1e-9).");
    using Bounds = ipc::BarrierStiffnessBounds<double>;
    py::class_<Bounds>(m, "BarrierStiffnessBounds", "Lower and upper bound (min, max) of the barrier stiffness.")
        .def(py::init([](double lo, double hi) { return Bounds { lo, hi }; }), py::arg("min"), py::arg("max"),
             "Bounds [min, max] on kappa.")
        .def_readwrite("min", &Bounds::min, "kappa_min")
        .def_readwrite("max", &Bounds::max, "kappa_max")
        .def("__repr__", [](const Bounds& b) {
            return ipc::detail::concat("BarrierStiffnessBounds(min=", b.min, ", max=", b.max, ")");
        });
    m.def(
        "barrier_stiffness_bounds",
        [](double bbox_diagonal, double average_mass, double dhat, double xi,
           const ipc::AdaptiveStiffnessParameters& parameters) {
            return ipc::barrier_stiffness_bounds(bbox_diagonal, average_mass, dhat, xi, parameters);
        },
        py::arg("bbox_diagonal"), py::arg("average_mass"), py::arg("dhat"), py::arg("xi") = 0.0,
        py::arg("parameters") = ipc::AdaptiveStiffnessParameters(),
        "Bounds on the barrier stiffness kappa (BarrierStiffnessBounds). bbox_diagonal: scene bounding-box "
        "diagonal at rest (m, > 0); average_mass: average nodal mass (kg, > 0); dhat: activation distance (m, > 0); "
        "xi: largest pair offset (m, >= 0). Raises ValueError on bad values.");
    m.def(
        "initial_barrier_stiffness",
        [](const Bounds& bounds, const py::object& grad_energy, const py::object& grad_barrier) {
            const char* who = "initial_barrier_stiffness";
            const Eigen::VectorXd ge = float_vector(grad_energy, who, "grad_energy");
            const Eigen::VectorXd gb = float_vector(grad_barrier, who, "grad_barrier");
            return ipc::initial_barrier_stiffness(bounds, ge, gb);
        },
        py::arg("bounds"), py::arg("grad_energy"), py::arg("grad_barrier"),
        "Initial kappa of a time step: clamp(-(grad_barrier . grad_energy) / |grad_barrier|^2, min, max), "
        "kappa_min when grad_barrier is zero. grad_energy: gradient of the incremental potential without contact; "
        "grad_barrier: gradient of the unscaled barrier sum (kappa = 1); 1-D arrays of equal size. Raises "
        "ValueError for mismatched sizes or non-finite entries.");
    m.def(
        "update_barrier_stiffness",
        [](double kappa, double kappa_max, double previous_min_gap, double current_min_gap, double bbox_diagonal,
           const ipc::AdaptiveStiffnessParameters& parameters) {
            return ipc::update_barrier_stiffness(kappa, kappa_max, previous_min_gap, current_min_gap, bbox_diagonal,
                                                 parameters);
        },
        py::arg("kappa"), py::arg("kappa_max"), py::arg("previous_min_gap"), py::arg("current_min_gap"),
        py::arg("bbox_diagonal"), py::arg("parameters") = ipc::AdaptiveStiffnessParameters(),
        "Stiffness after a Newton iteration: 2 kappa (capped at kappa_max) when the smallest gap (m) was below "
        "small_gap_scale * bbox_diagonal before and after the iteration and shrank; otherwise kappa. Raises "
        "ValueError on bad values.");
}

} // namespace ipc_python
