// libFuzzer target: InclusionCCD (include/ipc/ccd/inclusion_ccd.hpp); see
// fuzz_ccd.hpp for the input layout and the checked invariants.
//
// The box budget is 50,000 instead of the default 10^6: degenerate queries
// (edges collapsing onto a point, sliding contact) use the whole budget, and
// 10^6 boxes take about 0.5 s per query at -O2 and several seconds under the
// sanitizers, which would make such inputs look like hangs and slow the
// search down. Reaching the budget is the same code path either way
// (CCDStatus::iteration_cap).

#include "fuzz_ccd.hpp"

#include <ipc/ccd/inclusion_ccd.hpp>

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    ipc_fuzz::ByteReader in(data, size);
    const ipc_fuzz::CCDInput q = ipc_fuzz::read_ccd_input(in);
    const ipc::InclusionCCD method(1e-6, 50000);
    ipc_fuzz::check_ccd_query(method, q, /*sound=*/true, /*toi_inclusive=*/false);
    return 0;
}
