#pragma once
/// @file
/// Parallel least-significant-digit radix sort of 64-bit keys on a bit field
/// (detail of the broad phase: Morton codes of the BVH, pair keys of the
/// candidates).

#include <ipc/core/parallel.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace ipc::detail {

/// Number of bits needed to write every value in [0, n).
inline int bits_for(std::size_t n)
{
    int bits = 0;
    while (bits < 63 && (std::size_t(1) << bits) < n) {
        ++bits;
    }
    return bits;
}

/// The calling thread's sort buffer, kept between sorts so that repeated
/// sorts of similar size reuse its memory (see release_radix_sort_buffer).
inline std::vector<std::uint64_t>& radix_sort_buffer()
{
    static thread_local std::vector<std::uint64_t> buffer;
    return buffer;
}

/// Frees the calling thread's sort buffer.
inline void release_radix_sort_buffer() { std::vector<std::uint64_t>().swap(radix_sort_buffer()); }

/// Sorts keys ascending by their bit field [low, low + bits), stably (keys
/// with equal fields keep their order), in parallel, at most 10 bits per
/// pass. With low = 0 and every key below 2^bits this is the plain ascending
/// sort. The result does not depend on the thread count.
inline void radix_sort_keys(std::vector<std::uint64_t>& keys, int bits, int low = 0)
{
    const std::size_t n = keys.size();
    if (n < 2 || bits <= 0) {
        return;
    }
    const std::uint64_t field = (bits >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << bits) - 1) << low;
    if (n < 512) {
        std::stable_sort(keys.begin(), keys.end(),
                         [field](std::uint64_t a, std::uint64_t b) { return (a & field) < (b & field); });
        return;
    }
    const int passes = (bits + 9) / 10;
    const int digit_bits = (bits + passes - 1) / passes;
    const std::size_t radix = std::size_t(1) << digit_bits;
    const std::uint64_t mask = radix - 1;
    const std::ptrdiff_t chunks
        = std::max<std::ptrdiff_t>(1, std::min<std::ptrdiff_t>(max_threads(), std::ptrdiff_t(n / 4096) + 1));
    std::vector<std::uint64_t>& buffer = radix_sort_buffer();
    buffer.resize(n);
    std::vector<std::size_t> counts(std::size_t(chunks) * radix);
    const auto chunk_begin = [&](std::ptrdiff_t c) { return n * std::size_t(c) / std::size_t(chunks); };
    for (int pass = 0; pass < passes; ++pass) {
        const int shift = low + pass * digit_bits;
        parallel_for(0, chunks, [&](std::ptrdiff_t c) {
            std::size_t* count = counts.data() + std::size_t(c) * radix;
            std::fill(count, count + radix, std::size_t(0));
            for (std::size_t i = chunk_begin(c), end = chunk_begin(c + 1); i < end; ++i) {
                ++count[(keys[i] >> shift) & mask];
            }
        });
        std::size_t offset = 0;
        for (std::size_t d = 0; d < radix; ++d) {
            for (std::ptrdiff_t c = 0; c < chunks; ++c) {
                std::size_t& count = counts[std::size_t(c) * radix + d];
                const std::size_t here = count;
                count = offset;
                offset += here;
            }
        }
        parallel_for(0, chunks, [&](std::ptrdiff_t c) {
            std::size_t* next = counts.data() + std::size_t(c) * radix;
            for (std::size_t i = chunk_begin(c), end = chunk_begin(c + 1); i < end; ++i) {
                const std::uint64_t key = keys[i];
                buffer[next[(key >> shift) & mask]++] = key;
            }
        });
        keys.swap(buffer);
    }
}

} // namespace ipc::detail
