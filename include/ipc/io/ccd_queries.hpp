#pragma once
/// @file
/// Reader for the query files of the CCD benchmark of Wang et al. 2021
/// ("A Large Scale Benchmark and an Inclusion-Based Algorithm for Continuous
/// Collision Detection"). A file holds 8 rows per query; each row has 7
/// comma-separated integers: x numerator, x denominator, y num, y den, z num,
/// z den, ground truth (0 or 1). Rows are, per query,
///   edge-edge:   ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1
///   vertex-face: v_t0, f0_t0, f1_t0, f2_t0, v_t1, f0_t1, f1_t1, f2_t1
/// Numerators and denominators may be arbitrarily long decimal integers; each
/// rational is converted to the nearest double (ties to even) exactly, with a
/// small built-in big-integer division.

#include <ipc/core/error.hpp>

#include <Eigen/Core>

#include <array>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace ipc {

/// One CCD query: 8 vertex positions (see the file comment for their order)
/// and the ground truth (true: the primitives touch for some t in [0, 1]).
struct CCDQuery {
    /// The 8 vertex positions, rows of the file in order (t0 then t1).
    std::array<Eigen::Vector3d, 8> vertices;
    /// The benchmark's answer: true when the primitives touch for some t in [0, 1].
    bool ground_truth = false;
};

namespace detail::rational {

    /// Unsigned big integer, 32-bit limbs, least significant first, no
    /// leading zero limbs (zero is the empty vector).
    using BigUnsigned = std::vector<std::uint32_t>;

    inline void trim(BigUnsigned& x)
    {
        while (!x.empty() && x.back() == 0) {
            x.pop_back();
        }
    }

    /// Parses decimal digits (no sign); returns false on any other character.
    inline bool parse_decimal(std::string_view digits, BigUnsigned& out)
    {
        out.clear();
        if (digits.empty()) {
            return false;
        }
        for (const char ch : digits) {
            if (ch < '0' || ch > '9') {
                return false;
            }
            std::uint64_t carry = std::uint64_t(ch - '0');
            for (std::uint32_t& limb : out) {
                const std::uint64_t value = std::uint64_t(limb) * 10 + carry;
                limb = std::uint32_t(value);
                carry = value >> 32;
            }
            if (carry != 0) {
                out.push_back(std::uint32_t(carry));
            }
        }
        trim(out);
        return true;
    }

    inline long bit_length(const BigUnsigned& x)
    {
        if (x.empty()) {
            return 0;
        }
        long bits = long(x.size() - 1) * 32;
        for (std::uint32_t top = x.back(); top != 0; top >>= 1) {
            ++bits;
        }
        return bits;
    }

    inline BigUnsigned shifted_left(const BigUnsigned& x, long bits)
    {
        if (x.empty()) {
            return x;
        }
        const std::size_t limbs = std::size_t(bits / 32);
        const int rest = int(bits % 32);
        BigUnsigned out(x.size() + limbs + 1, 0);
        for (std::size_t i = 0; i < x.size(); ++i) {
            const std::uint64_t wide = std::uint64_t(x[i]) << rest;
            out[i + limbs] |= std::uint32_t(wide);
            out[i + limbs + 1] |= std::uint32_t(wide >> 32);
        }
        trim(out);
        return out;
    }

    inline int compare(const BigUnsigned& a, const BigUnsigned& b)
    {
        if (a.size() != b.size()) {
            return a.size() < b.size() ? -1 : 1;
        }
        for (std::size_t i = a.size(); i-- > 0;) {
            if (a[i] != b[i]) {
                return a[i] < b[i] ? -1 : 1;
            }
        }
        return 0;
    }

    /// a -= b, requires a >= b.
    inline void subtract(BigUnsigned& a, const BigUnsigned& b)
    {
        std::int64_t borrow = 0;
        for (std::size_t i = 0; i < a.size(); ++i) {
            std::int64_t value = std::int64_t(a[i]) - borrow - (i < b.size() ? std::int64_t(b[i]) : 0);
            borrow = value < 0 ? 1 : 0;
            if (value < 0) {
                value += std::int64_t(1) << 32;
            }
            a[i] = std::uint32_t(value);
        }
        trim(a);
    }

    /// Nearest double to numerator / denominator (both non-zero magnitudes
    /// given, denominator > 0), ties to even; returns +inf past the double range.
    inline double nearest_quotient(const BigUnsigned& numerator, const BigUnsigned& denominator)
    {
        if (numerator.empty()) {
            return 0.0;
        }
        // Scale so that the integer quotient q = floor(A / B) has 55 or 56 bits.
        const long shift = 55 - (bit_length(numerator) - bit_length(denominator));
        BigUnsigned remainder = shift >= 0 ? shifted_left(numerator, shift) : numerator;
        const BigUnsigned divisor = shift >= 0 ? denominator : shifted_left(denominator, -shift);
        std::uint64_t quotient = 0;
        for (int bit = 56; bit >= 0; --bit) { // binary long division
            const BigUnsigned trial = shifted_left(divisor, bit);
            if (compare(remainder, trial) >= 0) {
                subtract(remainder, trial);
                quotient |= std::uint64_t(1) << bit;
            }
        }
        const bool sticky = !remainder.empty();
        // value = (quotient + fraction) * 2^-shift, fraction in [0, 1).
        int length = 0;
        for (std::uint64_t q = quotient; q != 0; q >>= 1) {
            ++length;
        }
        const long exponent = long(length) - 1 - shift; // of the leading bit
        // Significant bits kept: 53, fewer for subnormal results.
        long keep = 53;
        if (exponent < -1022) {
            keep = 53 - (-1022 - exponent);
        }
        if (exponent > 1023) {
            return std::numeric_limits<double>::infinity();
        }
        if (keep < 0) { // below half the smallest subnormal
            return 0.0;
        }
        const long drop = long(length) - keep; // low bits of quotient to round away, 2..56
        std::uint64_t mantissa = quotient >> drop;
        const std::uint64_t lost = quotient & ((std::uint64_t(1) << drop) - 1);
        const std::uint64_t half = std::uint64_t(1) << (drop - 1);
        if (lost > half || (lost == half && (sticky || (mantissa & 1) != 0))) {
            ++mantissa;
        }
        // mantissa * 2^(drop - shift), exact in double (mantissa <= 2^53).
        const double value = std::ldexp(double(mantissa), int(drop - shift));
        return value;
    }

} // namespace detail::rational

/// Nearest double (ties to even) to the rational numerator / denominator given
/// as decimal integers of any length (an optional leading '-' or '+').
/// @throws ipc::invalid_argument on a malformed integer, a zero denominator, or
///         a value outside the range of double.
inline double rational_to_double(std::string_view numerator, std::string_view denominator)
{
    bool negative = false;
    auto strip_sign = [&negative](std::string_view& text) {
        if (!text.empty() && (text.front() == '-' || text.front() == '+')) {
            negative ^= text.front() == '-';
            text.remove_prefix(1);
        }
    };
    std::string_view num = numerator, den = denominator;
    strip_sign(num);
    strip_sign(den);
    detail::rational::BigUnsigned a, b;
    require(detail::rational::parse_decimal(num, a), "rational_to_double: numerator '",
            std::string(numerator), "' is not an integer");
    require(detail::rational::parse_decimal(den, b), "rational_to_double: denominator '",
            std::string(denominator), "' is not an integer");
    require(!b.empty(), "rational_to_double: zero denominator in ", std::string(numerator), "/",
            std::string(denominator));
    double magnitude = 0;
    if (a.size() <= 2 && b.size() <= 2) { // fast path: both fit in 64 bits
        const std::uint64_t small_a = a.empty() ? 0 : (std::uint64_t(a.size() > 1 ? a[1] : 0) << 32) | a[0];
        const std::uint64_t small_b = (std::uint64_t(b.size() > 1 ? b[1] : 0) << 32) | b[0];
        if (small_a < (std::uint64_t(1) << 53) && (small_b & (small_b - 1)) == 0) {
            int power = 0;
            while ((std::uint64_t(1) << power) != small_b) {
                ++power;
            }
            magnitude = std::ldexp(double(small_a), -power); // one rounding at most
        } else {
            magnitude = detail::rational::nearest_quotient(a, b);
        }
    } else {
        magnitude = detail::rational::nearest_quotient(a, b);
    }
    require(std::isfinite(magnitude), "rational_to_double: ", std::string(numerator), "/",
            std::string(denominator), " is outside the range of double");
    return negative ? -magnitude : magnitude;
}

/// Reads every query of one benchmark file (8 rows per query, see the file
/// comment). Blank lines and trailing whitespace are ignored.
/// @throws ipc::error when the file cannot be opened; ipc::invalid_argument on
///         a malformed line (message names the file and line), a row count that
///         is not a multiple of 8, or rows of one query disagreeing on the
///         ground truth.
inline std::vector<CCDQuery> read_ccd_queries(const std::string& path)
{
    std::ifstream file(path);
    if (!file) {
        throw error("read_ccd_queries: cannot open '" + path + "'");
    }
    std::vector<CCDQuery> queries;
    CCDQuery current;
    int row = 0;
    long line_number = 0;
    std::string line;
    while (std::getline(file, line)) {
        ++line_number;
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) {
            line.pop_back();
        }
        if (line.empty()) {
            continue;
        }
        std::array<std::string_view, 7> fields;
        std::size_t count = 0, begin = 0;
        const std::string_view text(line);
        while (true) {
            const std::size_t comma = text.find(',', begin);
            std::string_view field = text.substr(begin, comma == std::string_view::npos ? std::string_view::npos : comma - begin);
            while (!field.empty() && (field.front() == ' ' || field.front() == '\t')) {
                field.remove_prefix(1);
            }
            while (!field.empty() && (field.back() == ' ' || field.back() == '\t')) {
                field.remove_suffix(1);
            }
            if (count < fields.size()) {
                fields[count] = field;
            }
            ++count;
            if (comma == std::string_view::npos) {
                break;
            }
            begin = comma + 1;
        }
        const std::string where = path + ":" + std::to_string(line_number) + ": ";
        if (count != 7) {
            throw invalid_argument(
                "read_ccd_queries: " + where + "expected 7 comma-separated integers, found "
                + std::to_string(count));
        }
        Eigen::Vector3d& vertex = current.vertices[std::size_t(row)];
        for (int k = 0; k < 3; ++k) {
            try {
                vertex[k] = rational_to_double(fields[std::size_t(2 * k)], fields[std::size_t(2 * k + 1)]);
            } catch (const invalid_argument& e) {
                throw invalid_argument("read_ccd_queries: " + where + e.what());
            }
        }
        if (fields[6] != "0" && fields[6] != "1") {
            throw invalid_argument(
                "read_ccd_queries: " + where + "ground truth must be 0 or 1, found '"
                + std::string(fields[6]) + "'");
        }
        const bool truth = fields[6] == "1";
        if (row == 0) {
            current.ground_truth = truth;
        } else if (truth != current.ground_truth) {
            throw invalid_argument(
                "read_ccd_queries: " + where + "ground truth differs from the query's first row");
        }
        if (++row == 8) {
            queries.push_back(current);
            row = 0;
        }
    }
    if (row != 0) {
        throw invalid_argument(
            "read_ccd_queries: " + path + ": " + std::to_string(row)
            + " trailing rows; the row count must be a multiple of 8");
    }
    return queries;
}

} // namespace ipc
