#pragma once
// Timings of the strain-limit stencil kernels (isotropic and anisotropic):
// energy, gradient and PSD-projected Hessian per triangle, on random
// triangles prepared beforehand.

#include "timing.hpp"

#include <ipc/strain_limit/anisotropic_strain_limit.hpp>
#include <ipc/strain_limit/isotropic_strain_limit.hpp>
#include <ipc/strain_limit/strain_limit_feasibility.hpp>

#include <Eigen/Geometry>

#include <cstddef>
#include <random>
#include <vector>

namespace ipc::bench {

namespace strain_limit_detail {
    struct Triangle {
        Vector3<double> x0, x1, x2;
        TriangleRestShape<double> rest;
    };

    /// Random rest triangles deformed by F = R diag(sigma) V^T with sigma_1,
    /// sigma_2 drawn in [sigma_low, sigma_high] (sigma_1 >= sigma_2).
    inline std::vector<Triangle> make_triangles(
        std::size_t count, double sigma_low, double sigma_high, unsigned seed)
    {
        std::mt19937 rng(seed);
        std::uniform_real_distribution<double> unit(-1.0, 1.0);
        std::uniform_real_distribution<double> stretch(sigma_low, sigma_high);
        std::vector<Triangle> triangles;
        triangles.reserve(count);
        while (triangles.size() < count) {
            const Vector3<double> X0(unit(rng), unit(rng), unit(rng));
            const Vector3<double> X1(unit(rng), unit(rng), unit(rng));
            const Vector3<double> X2(unit(rng), unit(rng), unit(rng));
            if ((X1 - X0).cross(X2 - X0).norm() < 0.3) {
                continue;
            }
            Triangle t;
            t.rest = triangle_rest_shape(X0, X1, X2, Vector3<double>(1, 0, 0));
            double s1 = stretch(rng), s2 = stretch(rng);
            if (s1 < s2) {
                std::swap(s1, s2);
            }
            Eigen::Quaterniond q(unit(rng), unit(rng), unit(rng), unit(rng));
            q.normalize();
            const double angle = 3.14159265358979 * unit(rng);
            Matrix<double, 2, 2> V;
            V << std::cos(angle), -std::sin(angle), std::sin(angle), std::cos(angle);
            Matrix<double, 3, 2> sigma = Matrix<double, 3, 2>::Zero();
            sigma(0, 0) = s1;
            sigma(1, 1) = s2;
            const Matrix<double, 3, 2> edges
                = q.toRotationMatrix() * sigma * V.transpose() * t.rest.inverse_rest_matrix.inverse();
            t.x0 = Vector3<double>(unit(rng), unit(rng), unit(rng));
            t.x1 = t.x0 + edges.col(0);
            t.x2 = t.x0 + edges.col(1);
            triangles.push_back(t);
        }
        return triangles;
    }
} // namespace strain_limit_detail

/// Adds rows "strain_limit" / <kernel> to the table (ns per triangle).
inline void run_strain_limit_benchmarks(Table& table)
{
    using strain_limit_detail::Triangle;
    constexpr std::size_t count = 4096;
    constexpr int repeats = 5;
    const StrainLimitParameters<double> iso {};
    const double width = iso.limit - iso.threshold;
    // Both singular values above the threshold (every kernel does full work).
    const std::vector<Triangle> active = strain_limit_detail::make_triangles(
        count, iso.threshold + 0.05 * width, iso.threshold + 0.95 * width, 1);
    // Typical cloth: most triangles below the threshold (early exit).
    const std::vector<Triangle> relaxed
        = strain_limit_detail::make_triangles(count, 0.9, iso.threshold, 2);

    auto time = [&](const char* name, const std::vector<Triangle>& set, auto&& kernel) {
        table.add("strain_limit", name, best_ns_per_call(count, repeats, [&](std::size_t i) {
            const Triangle& t = set[i];
            do_not_optimize(kernel(t));
        }));
    };

    time("isotropic energy (active)", active, [&](const Triangle& t) {
        return isotropic_strain_limit_energy(t.x0, t.x1, t.x2, t.rest, iso);
    });
    time("isotropic gradient (active)", active, [&](const Triangle& t) {
        return isotropic_strain_limit_gradient(t.x0, t.x1, t.x2, t.rest, iso).sum();
    });
    time("isotropic hessian projected (active)", active, [&](const Triangle& t) {
        return isotropic_strain_limit_hessian(t.x0, t.x1, t.x2, t.rest, iso, PSDProjection::clamp)
            .sum();
    });
    time("isotropic hessian projected, dense 9x9 (active)", active, [&](const Triangle& t) {
        return project_to_psd(isotropic_strain_limit_hessian(t.x0, t.x1, t.x2, t.rest, iso))
            .sum();
    });
    time("isotropic hessian projected (below threshold)", relaxed, [&](const Triangle& t) {
        return isotropic_strain_limit_hessian(t.x0, t.x1, t.x2, t.rest, iso, PSDProjection::clamp)
            .sum();
    });
    time("largest singular value (feasibility)", active, [&](const Triangle& t) {
        return triangle_largest_singular_value(t.x0, t.x1, t.x2, t.rest.inverse_rest_matrix);
    });

    // Anisotropic: stretches of up to 5 % keep every Green-strain component
    // well inside the default limits (0.14, 0.14, 0.063).
    const AnisotropicStrainLimitParameters<double> aniso {};
    const std::vector<Triangle> strained = strain_limit_detail::make_triangles(count, 0.97, 1.05, 3);
    std::vector<Triangle> feasible;
    for (const Triangle& t : strained) {
        if (is_anisotropic_strain_feasible(t.x0, t.x1, t.x2, t.rest.inverse_rest_matrix, aniso)) {
            feasible.push_back(t);
        }
    }
    while (feasible.size() < count) {
        feasible.push_back(feasible[feasible.size() % 16]);
    }
    time("anisotropic energy", feasible, [&](const Triangle& t) {
        return anisotropic_strain_limit_energy(t.x0, t.x1, t.x2, t.rest, aniso);
    });
    time("anisotropic gradient", feasible, [&](const Triangle& t) {
        return anisotropic_strain_limit_gradient(t.x0, t.x1, t.x2, t.rest, aniso).sum();
    });
    time("anisotropic hessian projected", feasible, [&](const Triangle& t) {
        return anisotropic_strain_limit_hessian(t.x0, t.x1, t.x2, t.rest, aniso, PSDProjection::clamp)
            .sum();
    });
}

} // namespace ipc::bench
