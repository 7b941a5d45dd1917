#pragma once
// Shared helpers of the obstacle tests: random obstacles, reference signed
// distances written independently of the library (other formulas, golden-
// section minimisation, dense surface samples), and a one-dimensional convex
// minimiser.

#include <ipc/obstacles/sdf_obstacle.hpp>

#include <Eigen/Dense>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <vector>

namespace ipc::test {

constexpr double pi = 3.14159265358979323846;

/// Uniform number in [lo, hi].
inline double uniform(std::mt19937_64& rng, double lo, double hi)
{
    return std::uniform_real_distribution<double>(lo, hi)(rng);
}

/// Uniform point in the cube [-s, s]^3 around c.
inline Eigen::Vector3d random_point(std::mt19937_64& rng, const Eigen::Vector3d& c, double s)
{
    return c + Eigen::Vector3d(uniform(rng, -s, s), uniform(rng, -s, s), uniform(rng, -s, s));
}

/// Uniform random unit vector.
inline Eigen::Vector3d random_direction(std::mt19937_64& rng)
{
    std::normal_distribution<double> normal;
    Eigen::Vector3d v;
    do {
        v = Eigen::Vector3d(normal(rng), normal(rng), normal(rng));
    } while (v.norm() < 1e-3);
    return v.normalized();
}

/// Minimum of a convex function on [lo, hi] by golden-section search (long
/// enough to shrink the bracket to rounding), comparing with the ends too.
inline double convex_minimum(const std::function<double(double)>& f, double lo = 0, double hi = 1)
{
    const double inv_phi = (std::sqrt(5.0) - 1) / 2;
    double a = lo, b = hi;
    double x1 = b - inv_phi * (b - a), x2 = a + inv_phi * (b - a);
    double f1 = f(x1), f2 = f(x2);
    for (int k = 0; k < 90 && b - a > 1e-17; ++k) {
        if (f1 <= f2) {
            b = x2;
            x2 = x1;
            f2 = f1;
            x1 = b - inv_phi * (b - a);
            f1 = f(x1);
        } else {
            a = x1;
            x1 = x2;
            f1 = f2;
            x2 = a + inv_phi * (b - a);
            f2 = f(x2);
        }
    }
    return std::min({ f(lo), f(hi), f1, f2, f(0.5 * (a + b)) });
}

// ---------------------------------------------------------------------------
// Reference signed distances (formulas other than the library's)

/// Plane: the normal coordinate of p - point in an orthonormal frame
/// (u, v, n) found by a QR factorisation, solved as a linear system.
inline double reference_distance(const PlaneObstacle& plane, const Eigen::Vector3d& p)
{
    Eigen::Matrix3d M = Eigen::Matrix3d::Identity();
    M.col(0) = plane.normal;
    const Eigen::Matrix3d Q = Eigen::HouseholderQR<Eigen::Matrix3d>(M).householderQ();
    const Eigen::Vector3d n = Q.col(0) * (Q.col(0).dot(plane.normal) > 0 ? 1.0 : -1.0);
    Eigen::Matrix3d frame;
    frame << n, Q.col(1), Q.col(2);
    const Eigen::Vector3d coords = frame.partialPivLu().solve(p - plane.point);
    return coords[0];
}

inline double reference_distance(const SphereObstacle& sphere, const Eigen::Vector3d& p)
{
    const Eigen::Vector3d d = p - sphere.center;
    return std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) - sphere.radius;
}

/// Box: distance to the clamped point outside the sharp box, minus the
/// smallest distance to its six face planes inside, then minus the rounding.
inline double reference_distance(const BoxObstacle& box, const Eigen::Vector3d& p)
{
    const Eigen::Vector3d lo = box.center - box.half_extents, hi = box.center + box.half_extents;
    Eigen::Vector3d nearest;
    bool inside = true;
    for (int i = 0; i < 3; ++i) {
        nearest[i] = std::min(std::max(p[i], lo[i]), hi[i]);
        inside = inside && p[i] >= lo[i] && p[i] <= hi[i];
    }
    double sharp = (p - nearest).norm();
    if (inside) {
        sharp = std::numeric_limits<double>::infinity();
        for (int i = 0; i < 3; ++i) {
            sharp = std::min({ sharp, p[i] - lo[i], hi[i] - p[i] });
        }
        sharp = -sharp;
    }
    return sharp - box.rounding;
}

/// Capsule: golden-section minimum of |p - x(t)| along the axis, minus the radius.
inline double reference_distance(const CapsuleObstacle& capsule, const Eigen::Vector3d& p)
{
    return convex_minimum([&](double t) { return (p - (capsule.a + t * (capsule.b - capsule.a))).norm(); })
        - capsule.radius;
}

inline double reference_distance(const SdfObstacle& obstacle, const Eigen::Vector3d& p)
{
    return std::visit([&](const auto& shape) { return reference_distance(shape, p); }, obstacle);
}

/// A length scale of the obstacle (for relative tolerances): its size plus
/// the magnitude of its position.
inline double obstacle_scale(const SdfObstacle& obstacle)
{
    struct {
        double operator()(const PlaneObstacle& s) const { return 1 + s.point.norm(); }
        double operator()(const SphereObstacle& s) const { return s.radius + s.center.norm(); }
        double operator()(const BoxObstacle& s) const
        {
            return s.half_extents.norm() + s.rounding + s.center.norm();
        }
        double operator()(const CapsuleObstacle& s) const
        {
            return s.radius + s.a.norm() + s.b.norm();
        }
    } visitor;
    return std::visit(visitor, obstacle);
}

/// A point well inside or near the obstacle, to centre random samples on.
inline Eigen::Vector3d obstacle_centre(const SdfObstacle& obstacle)
{
    struct {
        Eigen::Vector3d operator()(const PlaneObstacle& s) const { return s.point; }
        Eigen::Vector3d operator()(const SphereObstacle& s) const { return s.center; }
        Eigen::Vector3d operator()(const BoxObstacle& s) const { return s.center; }
        Eigen::Vector3d operator()(const CapsuleObstacle& s) const { return 0.5 * (s.a + s.b); }
    } visitor;
    return std::visit(visitor, obstacle);
}

/// Half-size of a cube around obstacle_centre holding the obstacle (a
/// representative size for the plane).
inline double obstacle_reach(const SdfObstacle& obstacle)
{
    struct {
        double operator()(const PlaneObstacle&) const { return 1; }
        double operator()(const SphereObstacle& s) const { return s.radius; }
        double operator()(const BoxObstacle& s) const { return s.half_extents.maxCoeff() + s.rounding; }
        double operator()(const CapsuleObstacle& s) const { return 0.5 * (s.b - s.a).norm() + s.radius; }
    } visitor;
    return std::visit(visitor, obstacle);
}

// ---------------------------------------------------------------------------
// Test obstacles

/// A fixed list covering every shape and its special cases: a tilted plane
/// given with a non-unit normal, spheres, sharp and rounded boxes (one with a
/// zero half-extent, one with all zero: a sphere), capsules (tilted, along an
/// axis, and with a == b).
inline std::vector<SdfObstacle> test_obstacles()
{
    return {
        PlaneObstacle { Eigen::Vector3d(0.3, -0.2, 0.5), Eigen::Vector3d(1, 2, -0.5) },
        PlaneObstacle { Eigen::Vector3d(0, -0.31, 0), Eigen::Vector3d(0, 1, 0) },
        SphereObstacle { Eigen::Vector3d(0.1, 0.2, -0.3), 0.7 },
        SphereObstacle { Eigen::Vector3d(5, -3, 2), 0.05 },
        BoxObstacle { Eigen::Vector3d(0.2, -0.1, 0.3), Eigen::Vector3d(0.5, 0.3, 0.8), 0 },
        BoxObstacle { Eigen::Vector3d(-0.4, 0.1, 0), Eigen::Vector3d(0.6, 0.2, 0.35), 0.15 },
        BoxObstacle { Eigen::Vector3d(0, -0.02, 0), Eigen::Vector3d(0.18, 0, 0.18), 0.02 },
        BoxObstacle { Eigen::Vector3d(1, 1, 1), Eigen::Vector3d(0, 0, 0), 0.4 },
        CapsuleObstacle { Eigen::Vector3d(-0.3, 0.1, 0.2), Eigen::Vector3d(0.5, -0.4, 0.6), 0.25 },
        CapsuleObstacle { Eigen::Vector3d(0, 0, -1), Eigen::Vector3d(0, 0, 1), 0.1 },
        CapsuleObstacle { Eigen::Vector3d(0.2, 0.3, 0.4), Eigen::Vector3d(0.2, 0.3, 0.4), 0.3 },
    };
}

/// Points spread around the obstacle: uniform in a cube 1.6 times its reach,
/// close to its surface (inside and outside), near the box's edges and
/// corners and the capsule's cap seams, and at the special points where the
/// nearest surface point is not unique.
inline std::vector<Eigen::Vector3d> test_points(const SdfObstacle& obstacle, std::mt19937_64& rng, int count)
{
    const Eigen::Vector3d c = obstacle_centre(obstacle);
    const double reach = obstacle_reach(obstacle);
    std::vector<Eigen::Vector3d> points;
    for (int k = 0; k < count; ++k) {
        points.push_back(random_point(rng, c, 1.6 * reach));
    }
    if (const auto* box = std::get_if<BoxObstacle>(&obstacle)) {
        const Eigen::Vector3d& h = box->half_extents;
        for (int k = 0; k < count; ++k) {
            // Near a corner (one point in four) or an edge of the inner box,
            // offset by up to a few roundings.
            Eigen::Vector3d u;
            for (int i = 0; i < 3; ++i) {
                u[i] = (uniform(rng, -1, 1) < 0 ? -1.0 : 1.0) * h[i];
            }
            if (k % 4 != 3) {
                u[k % 3] = uniform(rng, -h[k % 3], h[k % 3]);
            }
            const double r = std::max(box->rounding, 0.05 * reach);
            points.push_back(box->center + u + uniform(rng, 0, 2.5) * r * random_direction(rng));
        }
        points.push_back(box->center);
        points.push_back(box->center + Eigen::Vector3d(0.5 * h[0], 0, 0));
        points.push_back(box->center + h);
        points.push_back(box->center - Eigen::Vector3d(h[0], 0, 0));
        points.push_back(box->center + Eigen::Vector3d(h[0], h[1], 0));
        // On the medial axis: equally far from two faces.
        const double m = std::min(h[0], h[1]);
        points.push_back(box->center + Eigen::Vector3d(h[0] - 0.5 * m, h[1] - 0.5 * m, 0));
    } else if (const auto* capsule = std::get_if<CapsuleObstacle>(&obstacle)) {
        const Eigen::Vector3d w = ipc::detail::sdf::safe_unit(capsule->b - capsule->a, Eigen::Vector3d::UnitZ());
        for (int k = 0; k < count; ++k) {
            // Near the seams between the cylinder and the caps, and on the caps.
            const Eigen::Vector3d end = k % 2 ? capsule->a : capsule->b;
            Eigen::Vector3d side = random_direction(rng);
            side -= side.dot(w) * w;
            side = ipc::detail::sdf::safe_unit(side, Eigen::Vector3d::UnitX());
            const double along = (k % 2 ? -1.0 : 1.0) * uniform(rng, -0.3, 1.0) * capsule->radius;
            points.push_back(end + capsule->radius * side + along * w
                + uniform(rng, 0, 0.3) * capsule->radius * random_direction(rng));
        }
        points.push_back(capsule->a);
        points.push_back(capsule->b);
        points.push_back(0.5 * (capsule->a + capsule->b));
    } else if (const auto* sphere = std::get_if<SphereObstacle>(&obstacle)) {
        points.push_back(sphere->center);
        for (int k = 0; k < count; ++k) {
            points.push_back(sphere->center
                + sphere->radius * (1 + uniform(rng, -0.1, 0.1)) * random_direction(rng));
        }
    } else if (const auto* plane = std::get_if<PlaneObstacle>(&obstacle)) {
        const Eigen::Vector3d n = plane->normal.normalized();
        for (int k = 0; k < count; ++k) {
            points.push_back(random_point(rng, plane->point, 1) + uniform(rng, -1e-3, 1e-3) * n);
        }
    }
    return points;
}

// ---------------------------------------------------------------------------
// Dense surface samples

/// Points on the obstacle's surface, none farther than about `spacing` from
/// any surface point (within the cube of half-size 2 around the point for a
/// plane), built from each shape's definition: sharp-box face grids pushed
/// out by the rounding, quarter-cylinder arcs along its edges and sphere
/// directions at its corners; capsule cylinder rings and hemisphere
/// directions; sphere directions.
inline std::vector<Eigen::Vector3d> surface_samples(const SdfObstacle& obstacle, double spacing)
{
    std::vector<Eigen::Vector3d> samples;
    // Fibonacci directions with about `spacing / radius` between neighbours.
    const auto directions = [](double radius, double step) {
        const int n = std::max(50, int(4 * pi * radius * radius / (step * step) * 1.2));
        std::vector<Eigen::Vector3d> dirs;
        const double golden = pi * (3 - std::sqrt(5.0));
        for (int i = 0; i < n; ++i) {
            const double z = 1 - (2 * i + 1.0) / n;
            const double rho = std::sqrt(std::max(0.0, 1 - z * z));
            dirs.emplace_back(rho * std::cos(golden * i), rho * std::sin(golden * i), z);
        }
        return dirs;
    };
    const auto steps = [&](double length) { return std::max(1, int(std::ceil(length / spacing))); };

    if (const auto* sphere = std::get_if<SphereObstacle>(&obstacle)) {
        for (const Eigen::Vector3d& d : directions(sphere->radius, spacing)) {
            samples.push_back(sphere->center + sphere->radius * d);
        }
    } else if (const auto* plane = std::get_if<PlaneObstacle>(&obstacle)) {
        const Eigen::Vector3d n = plane->normal.normalized();
        const Eigen::Vector3d u = n.unitOrthogonal(), v = n.cross(u);
        const int k = steps(4);
        for (int i = 0; i <= k; ++i) {
            for (int j = 0; j <= k; ++j) {
                samples.push_back(plane->point + (-2 + 4.0 * i / k) * u + (-2 + 4.0 * j / k) * v);
            }
        }
    } else if (const auto* capsule = std::get_if<CapsuleObstacle>(&obstacle)) {
        const double r = capsule->radius;
        const Eigen::Vector3d axis = capsule->b - capsule->a;
        const Eigen::Vector3d w = axis.norm() > 0 ? axis.normalized() : Eigen::Vector3d::UnitZ();
        const Eigen::Vector3d u = w.unitOrthogonal(), v = w.cross(u);
        const int along = steps(axis.norm()), around = steps(2 * pi * r);
        for (int i = 0; i <= along; ++i) {
            for (int j = 0; j < around; ++j) {
                const double angle = 2 * pi * j / around;
                samples.push_back(capsule->a + (double(i) / along) * axis
                    + r * (std::cos(angle) * u + std::sin(angle) * v));
            }
        }
        for (const Eigen::Vector3d& d : directions(r, spacing)) {
            samples.push_back((d.dot(w) < 0 ? capsule->a : capsule->b) + r * d);
        }
    } else if (const auto* box = std::get_if<BoxObstacle>(&obstacle)) {
        const Eigen::Vector3d& h = box->half_extents;
        const double r = box->rounding;
        const Eigen::Vector3d lo = box->center - h;
        for (int a = 0; a < 3; ++a) {
            const int b = (a + 1) % 3, c = (a + 2) % 3;
            // Faces normal to a.
            const int nb = steps(2 * h[b]), nc = steps(2 * h[c]);
            for (int side = 0; side < 2; ++side) {
                for (int i = 0; i <= nb; ++i) {
                    for (int j = 0; j <= nc; ++j) {
                        Eigen::Vector3d x = lo;
                        x[a] += side * 2 * h[a];
                        x[b] += 2 * h[b] * i / nb;
                        x[c] += 2 * h[c] * j / nc;
                        x[a] += (side ? r : -r);
                        samples.push_back(x);
                    }
                }
            }
            // Edges along a: quarter arcs in the (b, c) plane.
            if (r > 0) {
                const int na = steps(2 * h[a]), arc = steps(0.5 * pi * r);
                for (int sb = 0; sb < 2; ++sb) {
                    for (int sc = 0; sc < 2; ++sc) {
                        for (int i = 0; i <= na; ++i) {
                            for (int j = 0; j <= arc; ++j) {
                                const double angle = 0.5 * pi * j / arc;
                                Eigen::Vector3d x = lo;
                                x[a] += 2 * h[a] * i / na;
                                x[b] += sb * 2 * h[b] + (sb ? 1 : -1) * r * std::cos(angle);
                                x[c] += sc * 2 * h[c] + (sc ? 1 : -1) * r * std::sin(angle);
                                samples.push_back(x);
                            }
                        }
                    }
                }
            }
        }
        // Corners: sphere octants.
        if (r > 0) {
            for (const Eigen::Vector3d& d : directions(r, spacing)) {
                Eigen::Vector3d x = box->center + r * d;
                for (int i = 0; i < 3; ++i) {
                    x[i] += d[i] < 0 ? -h[i] : h[i];
                }
                samples.push_back(x);
            }
        }
    }
    return samples;
}

} // namespace ipc::test
