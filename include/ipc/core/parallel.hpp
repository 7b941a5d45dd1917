#pragma once
/// @file
/// parallel_for: OpenMP when the build enables it, a plain loop otherwise.

#include <ipc/config.hpp>

#include <algorithm>
#include <cstddef>

#if IPC_HAS_OPENMP
#include <omp.h>
#endif

namespace ipc {

/// Number of threads parallel_for uses (1 without OpenMP).
inline int max_threads()
{
#if IPC_HAS_OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

/// Index of the calling thread inside parallel_for, in [0, max_threads()).
inline int thread_index()
{
#if IPC_HAS_OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}

/// Calls body(i) for i in [begin, end), in parallel with a static schedule
/// (so work split is deterministic). body must be safe to run concurrently
/// for distinct i; results must not depend on the order of the calls. A
/// range of at most one item runs on the calling thread, without starting a
/// parallel region (whose threads would only wait, and on a loaded machine
/// can cost far more than the item).
template <typename Body> void parallel_for(std::ptrdiff_t begin, std::ptrdiff_t end, Body&& body)
{
#if IPC_HAS_OPENMP
#pragma omp parallel for schedule(static) if (end - begin > 1)
    for (std::ptrdiff_t i = begin; i < end; ++i) {
        body(i);
    }
#else
    for (std::ptrdiff_t i = begin; i < end; ++i) {
        body(i);
    }
#endif
}

namespace detail {

    /// Number of parallel work units for n items (does not change results).
    inline std::ptrdiff_t work_blocks(std::ptrdiff_t n)
    {
        const std::ptrdiff_t blocks = std::min<std::ptrdiff_t>(n / 256 + 1, 8 * std::ptrdiff_t(max_threads()));
        return std::max<std::ptrdiff_t>(1, blocks);
    }

} // namespace detail

} // namespace ipc
