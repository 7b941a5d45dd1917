// The polynomial root isolation behind RootFindingCCD, on degenerate cases.

#include <catch2/catch.hpp>

#include <ipc/ccd/root_finding_polynomial.hpp>

#include <array>

using ipc::detail::root_finding::linear;
using ipc::detail::root_finding::Polynomial;
using ipc::detail::root_finding::roots_in_interval;

namespace {

int roots_of(const Polynomial& p, std::array<double, 6>& roots, double lo = 0, double hi = 1)
{
    roots.fill(-1);
    return roots_in_interval(p, lo, hi, roots.data());
}

} // namespace

TEST_CASE("root isolation: cubic with three simple roots", "[ccd_comparison]")
{
    const Polynomial p = linear(-0.25, 1) * linear(-0.5, 1) * linear(-0.75, 1);
    std::array<double, 6> r;
    REQUIRE(roots_of(p, r) == 3);
    CHECK(r[0] == Approx(0.25).epsilon(0).margin(1e-15));
    CHECK(r[1] == Approx(0.5).epsilon(0).margin(1e-15));
    CHECK(r[2] == Approx(0.75).epsilon(0).margin(1e-15));
    // Only the ones inside the interval.
    REQUIRE(roots_of(p, r, 0.3, 0.7) == 1);
    CHECK(r[0] == Approx(0.5).epsilon(0).margin(1e-15));
    // Scaling by a tiny factor changes nothing (no division by the leading
    // coefficient anywhere).
    REQUIRE(roots_of(1e-200 * p, r) == 3);
    CHECK(r[2] == Approx(0.75).epsilon(0).margin(1e-15));
}

TEST_CASE("root isolation: degenerate leading coefficients", "[ccd_comparison]")
{
    std::array<double, 6> r;
    // A cubic whose leading coefficient is negligible behaves as its
    // quadratic part: (t - 0.2)(t - 0.9) + 1e-20 t^3.
    Polynomial p = linear(-0.2, 1) * linear(-0.9, 1);
    p.degree = 3;
    p.c[3] = 1e-20;
    REQUIRE(roots_of(p, r) == 2);
    CHECK(r[0] == Approx(0.2).epsilon(0).margin(1e-12));
    CHECK(r[1] == Approx(0.9).epsilon(0).margin(1e-12));
    // Exactly zero leading coefficients: a linear polynomial stored as a cubic.
    Polynomial q = linear(-0.3, 1);
    q.degree = 3;
    REQUIRE(roots_of(q, r) == 1);
    CHECK(r[0] == Approx(0.3).epsilon(0).margin(1e-15));
    // Constants: none, including the zero polynomial (no isolated roots).
    CHECK(roots_of(linear(2, 0), r) == 0);
    CHECK(roots_of(Polynomial(), r) == 0);
    // A linear root outside the interval.
    CHECK(roots_of(linear(-2, 1), r) == 0);
}

TEST_CASE("root isolation: double roots and roots at the ends", "[ccd_comparison]")
{
    std::array<double, 6> r;
    // (t - 0.5)^2 evaluates to exactly zero at 0.5: found.
    const Polynomial square = linear(-0.5, 1) * linear(-0.5, 1);
    REQUIRE(roots_of(square, r) == 1);
    CHECK(r[0] == 0.5);
    // Roots at both ends of the interval.
    const Polynomial ends = linear(0, 1) * linear(-1, 1);
    REQUIRE(roots_of(ends, r) == 2);
    CHECK(r[0] == 0);
    CHECK(r[1] == 1);
    // A degree-6 polynomial with six simple roots.
    Polynomial six = linear(1, 0);
    for (int k = 1; k <= 6; ++k) {
        six = six * linear(-k / 7.0, 1);
    }
    REQUIRE(roots_of(six, r) == 6);
    for (int k = 1; k <= 6; ++k) {
        CHECK(r[k - 1] == Approx(k / 7.0).epsilon(0).margin(1e-12));
    }
}
