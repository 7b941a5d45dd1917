// libFuzzer target: RootFindingCCD (include/ipc/ccd/root_finding_ccd.hpp);
// see fuzz_ccd.hpp for the input layout and the checked invariants. The
// method may miss contacts by design (see its file comment), so only the
// status, toi and exception invariants are checked, not soundness.

#include "fuzz_ccd.hpp"

#include <ipc/ccd/root_finding_ccd.hpp>

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    ipc_fuzz::ByteReader in(data, size);
    const ipc_fuzz::CCDInput q = ipc_fuzz::read_ccd_input(in);
    const ipc::RootFindingCCD method;
    ipc_fuzz::check_ccd_query(method, q, /*sound=*/false, /*toi_inclusive=*/false);
    return 0;
}
