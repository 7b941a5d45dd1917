#pragma once
/// @file
/// Small fixed-capacity polynomials in one variable (degree at most 6) and a
/// floating-point root isolator, used by RootFindingCCD. Internal: everything
/// here lives in ipc::detail::root_finding.

#include <algorithm>
#include <array>
#include <cmath>

namespace ipc::detail::root_finding {

/// p(t) = sum_k c[k] t^k with k <= degree <= 6 (coefficients above `degree`
/// are zero; c[degree] itself may be zero).
struct Polynomial {
    std::array<double, 7> c {};
    int degree = 0;
};

/// a + b t.
inline Polynomial linear(double a, double b)
{
    Polynomial p;
    p.c[0] = a;
    p.c[1] = b;
    p.degree = 1;
    return p;
}

inline Polynomial operator+(const Polynomial& a, const Polynomial& b)
{
    Polynomial r;
    r.degree = std::max(a.degree, b.degree);
    for (int k = 0; k <= r.degree; ++k) {
        r.c[k] = a.c[k] + b.c[k];
    }
    return r;
}

inline Polynomial operator-(const Polynomial& a, const Polynomial& b)
{
    Polynomial r;
    r.degree = std::max(a.degree, b.degree);
    for (int k = 0; k <= r.degree; ++k) {
        r.c[k] = a.c[k] - b.c[k];
    }
    return r;
}

/// Product; the caller keeps a.degree + b.degree <= 6.
inline Polynomial operator*(const Polynomial& a, const Polynomial& b)
{
    Polynomial r;
    r.degree = std::min(a.degree + b.degree, 6);
    for (int i = 0; i <= a.degree; ++i) {
        for (int j = 0; j <= b.degree && i + j <= 6; ++j) {
            r.c[i + j] += a.c[i] * b.c[j];
        }
    }
    return r;
}

inline Polynomial operator*(double s, const Polynomial& a)
{
    Polynomial r = a;
    for (int k = 0; k <= r.degree; ++k) {
        r.c[k] *= s;
    }
    return r;
}

/// Horner evaluation.
inline double evaluate(const Polynomial& p, double t)
{
    double value = p.c[p.degree];
    for (int k = p.degree - 1; k >= 0; --k) {
        value = value * t + p.c[k];
    }
    return value;
}

/// Largest absolute coefficient.
inline double largest_coefficient(const Polynomial& p)
{
    double m = 0;
    for (int k = 0; k <= p.degree; ++k) {
        m = std::max(m, std::abs(p.c[k]));
    }
    return m;
}

/// Index of the highest non-zero coefficient, -1 for the zero polynomial.
inline int effective_degree(const Polynomial& p)
{
    int d = p.degree;
    while (d >= 0 && p.c[d] == 0) {
        --d;
    }
    return d;
}

/// Bisection on [a, b] where p(a) and p(b) have opposite signs (fa = p(a)).
/// Returns the lower end of the final bracket.
inline double bisect(const Polynomial& p, double a, double b, double fa)
{
    for (int i = 0; i < 200; ++i) {
        const double mid = a + 0.5 * (b - a);
        if (!(mid > a && mid < b)) {
            break;
        }
        const double fm = evaluate(p, mid);
        if (fm == 0) {
            return mid;
        }
        if ((fm < 0) == (fa < 0)) {
            a = mid;
            fa = fm;
        } else {
            b = mid;
        }
    }
    return a;
}

/// Real roots of p in [lo, hi] in ascending order, written to `roots`
/// (capacity 6); returns their number. Monotone pieces are isolated by the
/// roots of p' (recursively) and each sign change is refined by bisection,
/// so small or zero leading coefficients (lower effective degree) need no
/// special case. The zero polynomial has no isolated roots (returns 0); roots
/// of even multiplicity are found only where p evaluates to exactly zero.
inline int roots_in_interval(const Polynomial& p, double lo, double hi, double* roots)
{
    const int degree = effective_degree(p);
    if (degree <= 0 || !(lo <= hi)) {
        return 0;
    }
    int count = 0;
    if (degree == 1) {
        const double r = -p.c[0] / p.c[1];
        if (r >= lo && r <= hi) {
            roots[count++] = r;
        }
        return count;
    }
    Polynomial derivative;
    derivative.degree = degree - 1;
    for (int k = 1; k <= degree; ++k) {
        derivative.c[k - 1] = k * p.c[k];
    }
    std::array<double, 8> knots {};
    int num_knots = 0;
    knots[num_knots++] = lo;
    num_knots += roots_in_interval(derivative, lo, hi, knots.data() + 1);
    knots[num_knots++] = hi;

    double fa = evaluate(p, knots[0]);
    for (int i = 0; i + 1 < num_knots && count < 6; ++i) {
        const double a = knots[i], b = knots[i + 1];
        const double fb = evaluate(p, b);
        if (fa == 0) {
            if (count == 0 || roots[count - 1] < a) {
                roots[count++] = a;
            }
        } else if (fb != 0 && (fa < 0) != (fb < 0) && a < b) {
            roots[count++] = bisect(p, a, b, fa);
        }
        fa = fb;
    }
    if (fa == 0 && count < 6 && (count == 0 || roots[count - 1] < hi)) {
        roots[count++] = hi;
    }
    return count;
}

} // namespace ipc::detail::root_finding
