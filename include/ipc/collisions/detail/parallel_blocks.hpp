#pragma once
/// @file
/// Internal parallel helpers of the mesh-level functions: exception-safe
/// parallel loops (OpenMP regions must not throw) and fixed-size blocks whose
/// results concatenate in serial order whatever the thread count.

#include <ipc/core/parallel.hpp>

#include <algorithm>
#include <cstddef>
#include <exception>
#include <vector>

namespace ipc::detail {

/// parallel_for that survives exceptions: an exception thrown by body(i) is
/// caught and, after the loop, the one from the lowest index is rethrown.
/// Ranges shorter than min_parallel run serially (no parallel region).
template <typename Body>
void guarded_parallel_for(std::ptrdiff_t begin, std::ptrdiff_t end, const Body& body, std::ptrdiff_t min_parallel = 2)
{
    if (end - begin < min_parallel) {
        for (std::ptrdiff_t i = begin; i < end; ++i) {
            body(i);
        }
        return;
    }
    std::vector<std::exception_ptr> errors(static_cast<std::size_t>(std::max(1, max_threads())));
    std::vector<std::ptrdiff_t> error_index(errors.size(), end);
    parallel_for(begin, end, [&](std::ptrdiff_t i) {
        try {
            body(i);
        } catch (...) {
            const std::size_t t = std::size_t(thread_index());
            if (i < error_index[t]) {
                error_index[t] = i;
                errors[t] = std::current_exception();
            }
        }
    });
    std::size_t first = errors.size();
    for (std::size_t t = 0; t < errors.size(); ++t) {
        if (errors[t] && (first == errors.size() || error_index[t] < error_index[first])) {
            first = t;
        }
    }
    if (first < errors.size()) {
        std::rethrow_exception(errors[first]);
    }
}

/// Items per block of process_in_blocks.
inline constexpr std::size_t parallel_block_size = 4096;

/// Runs process(i, blocks[b]) for i in [0, n), split into contiguous blocks of
/// parallel_block_size items processed in parallel (each block serially, in
/// increasing i). Returns the per-block outputs in block order, so their
/// concatenation equals a serial run whatever the thread count. Exceptions
/// are rethrown as by guarded_parallel_for.
template <typename Block, typename Process>
std::vector<Block> process_in_blocks(std::size_t n, const Process& process)
{
    const std::size_t num_blocks = (n + parallel_block_size - 1) / parallel_block_size;
    std::vector<Block> blocks(num_blocks);
    guarded_parallel_for(0, std::ptrdiff_t(num_blocks), [&](std::ptrdiff_t b) {
        const std::size_t begin = std::size_t(b) * parallel_block_size;
        const std::size_t end = std::min(n, begin + parallel_block_size);
        for (std::size_t i = begin; i < end; ++i) {
            process(i, blocks[std::size_t(b)]);
        }
    });
    return blocks;
}

} // namespace ipc::detail
