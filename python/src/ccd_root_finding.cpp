// CCD bindings of one method (see ccd_bind.hpp).

#include "ccd_bind.hpp"

#include <ipc/ccd/root_finding_ccd.hpp>

namespace ipc_python {

void bind_root_finding_ccd(py::module_& m)
{
    using ccd_binding::bind_method;
    py::class_<ipc::RootFindingCCD> root(
        m, "RootFindingCCD",
        "Floating-point root-finding CCD with IPC's conservative rescaling (fast, not guaranteed near "
        "degeneracies). Queries are 3D; point-point and point-edge also take 2D points (queried in "
        "the plane z = 0).");
    root.def(py::init([](double rescaling, double tolerance) {
                 ipc::require(rescaling > 0 && rescaling <= 1,
                              "RootFindingCCD: conservative_rescaling must lie in (0, 1], got ", rescaling);
                 ipc::require(tolerance >= 0, "RootFindingCCD: zero_tolerance must be non-negative, got ", tolerance);
                 return ipc::RootFindingCCD(rescaling, tolerance);
             }),
             py::arg("conservative_rescaling") = 0.8, py::arg("zero_tolerance") = 1e-9,
             "conservative_rescaling in (0, 1]: reported toi is this fraction of the contact time; zero_tolerance "
             ">= 0: relative acceptance tolerance.")
        .def_readwrite("conservative_rescaling", &ipc::RootFindingCCD::conservative_rescaling,
                       "fraction of the contact time reported")
        .def_readwrite("zero_tolerance", &ipc::RootFindingCCD::zero_tolerance, "relative acceptance tolerance");
    bind_method<ipc::RootFindingCCD>(root, "RootFindingCCD");
}

} // namespace ipc_python
