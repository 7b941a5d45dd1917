#pragma once
/// @file
/// Keeps the memory a solver frees in the process, for its next allocations.
///
/// A Newton iteration allocates and frees the same large buffers every time:
/// the sparse Newton matrix and its sums (several MB each), CHOLMOD's
/// permuted copy and its factor. glibc's malloc serves such blocks with
/// fresh mmap'd pages and returns them to the system when freed, so every
/// iteration pays a page fault and the zeroing of each 4 KiB page again. On
/// the paper-size cloth on the sphere that was 280,000 page faults in four
/// steps and a fifth of the run time (benchmarks/README.md); on the
/// paper-size cloth stack, whose factor outgrows any mmap threshold, it was
/// a fifth of steps 4-6.

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace ipc::examples {

/// Asks glibc's malloc to serve every block from its heap instead of fresh
/// mappings (a threshold alone stops at 32 MiB, and the factor of a
/// paper-size cloth stack is larger), and not to give freed heap memory back
/// to the system, so a repeated allocation reuses pages already mapped. The
/// process keeps its peak memory until it exits. Call it once at start-up;
/// it does nothing with other C libraries. A setting made with
/// GLIBC_TUNABLES is replaced.
inline void keep_freed_memory()
{
#if defined(__GLIBC__)
    mallopt(M_MMAP_MAX, 0);
    mallopt(M_TRIM_THRESHOLD, 1 << 30);
#endif
}

} // namespace ipc::examples
