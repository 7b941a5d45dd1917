#pragma once
// Where the optional test data lives. Read at run time, so that the test
// sources compile the same way wherever the data is (and a compiler cache
// hits across checkouts).

#include <cstdlib>
#include <string>

namespace ipc::test {

/// The folder of the CCD benchmark's sample queries (Wang et al. 2021
/// format): the IPC_CCD_QUERIES environment variable, which CTest sets from
/// the CMake cache variable of the same name; empty when neither is set.
inline std::string ccd_queries_folder()
{
    const char* folder = std::getenv("IPC_CCD_QUERIES");
    return folder == nullptr ? std::string() : std::string(folder);
}

} // namespace ipc::test
