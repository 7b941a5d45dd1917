// The inline one-ulp steps used for outward rounding of boxes agree with
// std::nextafter, including at zero, subnormals, the largest finite values,
// infinities and NaN.

#include <ipc/broad_phase/aabb.hpp>

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

namespace {

template <typename Float> std::vector<Float> special_values()
{
    using limits = std::numeric_limits<Float>;
    std::vector<Float> values = { Float(0),          -Float(0),         limits::denorm_min(), -limits::denorm_min(),
                                  limits::min(),     -limits::min(),    limits::max(),        -limits::max(),
                                  limits::infinity(), -limits::infinity(), Float(1),          Float(-1),
                                  Float(0.1),        Float(-1e-3),      Float(12345.678),     Float(-3e20) };
    std::mt19937 generator(7);
    std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
    std::uniform_int_distribution<int> exponent(-40, 40);
    for (int k = 0; k < 2000; ++k) {
        values.push_back(Float(std::ldexp(mantissa(generator), exponent(generator))));
    }
    return values;
}

template <typename Float> bool same_value(Float a, Float b)
{
    return (std::isnan(a) && std::isnan(b)) || (a == b && std::signbit(a) == std::signbit(b));
}

template <typename Float> void check_against_nextafter()
{
    constexpr Float infinity = std::numeric_limits<Float>::infinity();
    for (const Float x : special_values<Float>()) {
        CAPTURE(x);
        CHECK(same_value(ipc::detail::next_down(x), std::nextafter(x, -infinity)));
        CHECK(same_value(ipc::detail::next_up(x), std::nextafter(x, infinity)));
    }
    const Float nan = std::numeric_limits<Float>::quiet_NaN();
    CHECK(std::isnan(ipc::detail::next_down(nan)));
    CHECK(std::isnan(ipc::detail::next_up(nan)));
}

} // namespace

TEST_CASE("next_down and next_up match std::nextafter", "[broad_phase][aabb]")
{
    SECTION("double") { check_against_nextafter<double>(); }
    SECTION("float") { check_against_nextafter<float>(); }
}
