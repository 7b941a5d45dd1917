// CCD bindings of one method (see ccd_bind.hpp).

#include "ccd_bind.hpp"

#include <ipc/ccd/additive_ccd.hpp>

namespace ipc_python {

void bind_additive_ccd(py::module_& m)
{
    using ccd_binding::bind_method;
    py::class_<ipc::AdditiveCCD> additive(
        m, "AdditiveCCD",
        "Additive CCD with offsets (C-IPC): conservative advancement, toi independent of tmax. Positions in "
        "metres, times normalised to [0, 1]. Queries are 3D; point-point and point-edge also in 2D "
        "(native 2D kernels).");
    additive
        .def(py::init<long, double>(), py::arg("max_iterations") = ipc::AdditiveCCD::default_max_iterations,
             py::arg("conservative_rescaling") = ipc::AdditiveCCD::default_conservative_rescaling,
             "max_iterations > 0: iteration cap per query; conservative_rescaling s in (0, 1). Raises ValueError "
             "otherwise.")
        .def_property_readonly("max_iterations", &ipc::AdditiveCCD::max_iterations, "iteration cap per query")
        .def_property_readonly("conservative_rescaling", &ipc::AdditiveCCD::conservative_rescaling,
                               "the conservative rescaling s");
    bind_method<ipc::AdditiveCCD, true>(additive, "AdditiveCCD");
}

} // namespace ipc_python
