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

/// The calling thread's digit counts for radix_sort_range (kept between
/// sorts).
inline std::vector<std::uint32_t>& radix_sort_counts()
{
    static thread_local std::vector<std::uint32_t> counts;
    return counts;
}

/// Frees the calling thread's sort buffer and digit counts.
inline void release_radix_sort_buffer()
{
    std::vector<std::uint64_t>().swap(radix_sort_buffer());
    std::vector<std::uint32_t>().swap(radix_sort_counts());
}

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

/// Sorts keys[0, n) ascending by their bit field [low, low + bits), stably,
/// on the calling thread, through buffer (room for n keys): one counting pass
/// for every digit, then one scatter pass per digit of at most 11 bits. For
/// ranges that fit in cache (the buckets of a partitioned sort); n < 2^32.
inline void radix_sort_range(std::uint64_t* keys, std::size_t n, int bits, int low, std::uint64_t* buffer)
{
    if (n < 2 || bits <= 0) {
        return;
    }
    constexpr int max_passes = 6;
    const int passes = std::min(max_passes, (bits + 10) / 11);
    const int digit_bits = (bits + passes - 1) / passes;
    const std::size_t radix = std::size_t(1) << digit_bits;
    const std::uint64_t mask = radix - 1;
    const std::uint64_t field = bits >= 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << bits) - 1;
    // Digit of a key in a pass (bits above the field, which the last digit
    // may reach, masked off).
    const auto digit = [&](std::uint64_t key, int pass) {
        return std::size_t((((key >> low) & field) >> (pass * digit_bits)) & mask);
    };
    std::vector<std::uint32_t>& counts = radix_sort_counts();
    counts.assign(std::size_t(passes) * radix, 0u);
    for (std::size_t i = 0; i < n; ++i) {
        for (int pass = 0; pass < passes; ++pass) {
            ++counts[std::size_t(pass) * radix + digit(keys[i], pass)];
        }
    }
    std::uint64_t* from = keys;
    std::uint64_t* to = buffer;
    for (int pass = 0; pass < passes; ++pass) {
        std::uint32_t* next = counts.data() + std::size_t(pass) * radix;
        if (next[digit(from[0], pass)] == n) {
            continue; // every key has the same digit: already in order
        }
        std::uint32_t offset = 0;
        for (std::size_t d = 0; d < radix; ++d) {
            const std::uint32_t here = next[d];
            next[d] = offset;
            offset += here;
        }
        for (std::size_t i = 0; i < n; ++i) {
            to[next[digit(from[i], pass)]++] = from[i];
        }
        std::swap(from, to);
    }
    if (from != keys) {
        std::copy(from, from + n, keys);
    }
}

} // namespace ipc::detail
