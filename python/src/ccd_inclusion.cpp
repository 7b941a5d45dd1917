// CCD bindings of one method (see ccd_bind.hpp).

#include "ccd_bind.hpp"

#include <ipc/ccd/inclusion_ccd.hpp>

namespace ipc_python {

void bind_inclusion_ccd(py::module_& m)
{
    using ccd_binding::bind_method;
    py::class_<ipc::InclusionCCD> inclusion(
        m, "InclusionCCD",
        "Conservative interval-inclusion CCD (Tight-Inclusion style); min_distance is measured in the infinity "
        "norm. Queries are 3D; point-point and point-edge also take 2D points (queried in the "
        "plane z = 0).");
    inclusion
        .def(py::init([](double tolerance, long max_iterations) {
                 ipc::require(tolerance > 0, "InclusionCCD: tolerance must be positive, got ", tolerance);
                 ipc::require(max_iterations > 0, "InclusionCCD: max_iterations must be positive, got ",
                              max_iterations);
                 return ipc::InclusionCCD(tolerance, max_iterations);
             }),
             py::arg("tolerance") = 1e-6, py::arg("max_iterations") = 1000000,
             "tolerance > 0: boxes are settled at this fraction of the step; max_iterations > 0: boxes examined "
             "per query.")
        .def_readwrite("tolerance", &ipc::InclusionCCD::tolerance, "settling tolerance (fraction of the step)")
        .def_readwrite("max_iterations", &ipc::InclusionCCD::max_iterations, "boxes examined per query");
    bind_method<ipc::InclusionCCD>(inclusion, "InclusionCCD");
}

} // namespace ipc_python
