// Continuous collision detection: statuses and results; the three methods
// are bound in ccd_additive.cpp, ccd_inclusion.cpp and ccd_root_finding.cpp
// (one query at a time and in batches, the GIL released, queries in parallel).

#include "common.hpp"

#include <ipc/ccd/ccd_result.hpp>

namespace ipc_python {

void bind_ccd(py::module_& m)
{
    py::enum_<ipc::CCDStatus>(m, "CCDStatus", "Which case a CCD query ended in.")
        .value("NO_HIT", ipc::CCDStatus::no_hit, "the primitives stay farther apart than min_distance up to tmax")
        .value("HIT", ipc::CCDStatus::hit, "they may come within min_distance; toi is a safe time before it")
        .value("INITIALLY_WITHIN_OFFSET", ipc::CCDStatus::initially_within_offset,
               "already at or inside min_distance at t = 0 (toi = 0)")
        .value("ITERATION_CAP", ipc::CCDStatus::iteration_cap,
               "stopped at the iteration bound; toi is conservative (safe)")
        .value("INVALID_INPUT", ipc::CCDStatus::invalid_input, "NaN or infinite coordinates, or impossible parameters");
    py::class_<ipc::CCDResult>(m, "CCDResult", "Result of one CCD query.")
        .def(py::init<>())
        .def_readwrite("status", &ipc::CCDResult::status, "CCDStatus of the query")
        .def_readwrite("toi", &ipc::CCDResult::toi,
                       "time of impact in [0, tmax]: the primitives stay at least min_distance apart on [0, toi]")
        .def_readwrite("iterations", &ipc::CCDResult::iterations, "iterations (or subdivisions) used")
        .def("collides", &ipc::CCDResult::collides, "True unless status is NO_HIT.")
        .def("__repr__", [](const ipc::CCDResult& r) {
            return ipc::detail::concat("CCDResult(status=", ipc::to_string(r.status), ", toi=", r.toi,
                                       ", iterations=", r.iterations, ")");
        });

    bind_additive_ccd(m);

    bind_inclusion_ccd(m);

    bind_root_finding_ccd(m);
}

} // namespace ipc_python
