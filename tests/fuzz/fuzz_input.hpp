#pragma once
// Shared input decoding and checks for the libFuzzer targets of tests/fuzz/.
//
// Every target reads its numbers from the raw input through ByteReader, which
// mixes three encodings chosen by a tag byte, so that the fuzzer reaches both
// ordinary geometry and the floating-point edge cases:
//   - a raw 8-byte IEEE double (NaN, inf, huge, tiny and denormal values as
//     the bytes give them);
//   - an entry of a table of special values (zeros, infinities, NaN, the
//     extremes of double, machine epsilon);
//   - a 16-bit integer times a power-of-two scale: coordinates on a grid,
//     where coincident points, collinear and coplanar configurations and
//     exactly parallel edges are common.
// Reading past the end of the input gives zeros, so every input is valid.
//
// A violated invariant calls fuzz_check_failed, which prints what failed and
// traps (libFuzzer reports it as a crash and saves the input).

#include <Eigen/Core>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>

namespace ipc_fuzz {

[[noreturn]] inline void fuzz_check_failed(const char* what, const char* file, int line)
{
    std::fprintf(stderr, "fuzz invariant violated at %s:%d: %s\n", file, line, what);
    std::fflush(stderr);
    __builtin_trap();
}

#define FUZZ_CHECK(condition)                                                                      \
    do {                                                                                           \
        if (!(condition)) {                                                                        \
            ::ipc_fuzz::fuzz_check_failed(#condition, __FILE__, __LINE__);                         \
        }                                                                                          \
    } while (false)

class ByteReader {
public:
    ByteReader(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) { }

    bool empty() const { return pos_ >= size_; }

    std::uint8_t u8()
    {
        return pos_ < size_ ? data_[pos_++] : std::uint8_t(0);
    }

    std::uint16_t u16()
    {
        const std::uint16_t lo = u8();
        return std::uint16_t(lo | (std::uint16_t(u8()) << 8));
    }

    double raw_double()
    {
        std::uint8_t bytes[8] = {};
        for (std::uint8_t& b : bytes) {
            b = u8();
        }
        double x;
        std::memcpy(&x, bytes, sizeof x);
        return x;
    }

    /// A number in one of the three encodings of the file comment.
    double real()
    {
        const std::uint8_t tag = u8();
        switch (tag & 7) {
        case 0:
            return raw_double();
        case 1: {
            static const double specials[] = {
                0.0,
                -0.0,
                std::numeric_limits<double>::quiet_NaN(),
                std::numeric_limits<double>::infinity(),
                -std::numeric_limits<double>::infinity(),
                std::numeric_limits<double>::max(),
                -std::numeric_limits<double>::max(),
                std::numeric_limits<double>::min(),
                std::numeric_limits<double>::denorm_min(),
                std::numeric_limits<double>::epsilon(),
                1e-300,
                1e300,
                1e154,
                1e-154,
                1.0,
                -1.0,
            };
            return specials[(tag >> 3) & 15];
        }
        default: {
            // Grid value: int16 times 2^-6, 2^-20, 2^0 or 2^10.
            static const double scales[] = { 1.0 / 64, 1.0 / (1 << 20), 1.0, 1024.0 };
            const auto k = std::int16_t(u16());
            return double(k) * scales[(tag >> 3) & 3];
        }
        }
    }

    /// A parameter that is usually in [0, 1] (tmax, a fraction) but is
    /// sometimes any real().
    double unit_interval()
    {
        const std::uint8_t b = u8();
        if (b < 224) {
            return b < 112 ? 1.0 : double(b - 112) / 111.0;
        }
        return real();
    }

    /// A distance that is usually small and non-negative (0 half the time),
    /// sometimes any real().
    double small_distance()
    {
        const std::uint8_t b = u8();
        if (b < 128) {
            return 0.0;
        }
        if (b < 224) {
            return double(u16()) / 65536.0 * double(1u << (b & 7)) / 64.0;
        }
        return real();
    }

    template <int N> Eigen::Matrix<double, N, 1> point()
    {
        Eigen::Matrix<double, N, 1> p;
        for (int i = 0; i < N; ++i) {
            p[i] = real();
        }
        return p;
    }

private:
    const std::uint8_t* data_;
    std::size_t size_;
    std::size_t pos_ = 0;
};

/// True when x is zero or finite with magnitude in [lo, hi]: squares and
/// fourth powers of such values and of their differences stay clear of
/// overflow and of the denormal range.
inline bool moderate(double x, double lo = 1e-50, double hi = 1e50)
{
    const double a = std::abs(x);
    return a == 0.0 || (a >= lo && a <= hi);
}

template <typename... Points> inline bool all_moderate(double lo, double hi, const Points&... points)
{
    bool ok = true;
    const auto visit = [&](const auto& p) {
        for (Eigen::Index i = 0; i < p.size(); ++i) {
            ok = ok && moderate(p[i], lo, hi);
        }
    };
    (visit(points), ...);
    return ok;
}

template <typename... Points> inline double max_abs(const Points&... points)
{
    double m = 0.0;
    const auto visit = [&](const auto& p) { m = std::max(m, double(p.cwiseAbs().maxCoeff())); };
    (visit(points), ...);
    return m;
}

template <typename Derived> inline bool all_finite(const Eigen::MatrixBase<Derived>& m)
{
    for (Eigen::Index j = 0; j < m.cols(); ++j) {
        for (Eigen::Index i = 0; i < m.rows(); ++i) {
            if (!std::isfinite(double(m(i, j)))) {
                return false;
            }
        }
    }
    return true;
}

} // namespace ipc_fuzz
