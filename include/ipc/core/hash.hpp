#pragma once
/// @file
/// Keys and hashing for the library's hash maps of index pairs (mesh edges,
/// group pairs, grid cells).

#include <cstddef>
#include <cstdint>
#include <utility>

namespace ipc::detail {

/// Hash of a 64-bit key with all bits mixed (std::hash of an integer is the
/// identity in common standard libraries, which clusters packed keys in a
/// power-of-two table).
struct MixedHash {
    std::size_t operator()(std::uint64_t x) const
    {
        x ^= x >> 30;
        x *= 0xbf58476d1ce4e5b9ull;
        x ^= x >> 27;
        x *= 0x94d049bb133111ebull;
        x ^= x >> 31;
        return std::size_t(x);
    }
};

/// One 64-bit key for the unordered pair {a, b} of non-negative 32-bit ids.
inline std::uint64_t unordered_pair_key(int a, int b)
{
    if (a > b) {
        std::swap(a, b);
    }
    return (std::uint64_t(std::uint32_t(a)) << 32) | std::uint64_t(std::uint32_t(b));
}

} // namespace ipc::detail
