#pragma once
// Benchmark section: barrier shapes, offset barrier, normal force, and the
// lagged friction kernels of every contact type, each timed over 10^6
// pre-generated random inputs.

#include "timing.hpp"

#include <ipc/barrier/clamped_log_barrier.hpp>
#include <ipc/barrier/cubic_barrier.hpp>
#include <ipc/barrier/normalized_log_barrier.hpp>
#include <ipc/barrier/offset_barrier.hpp>
#include <ipc/friction/friction_contact.hpp>
#include <ipc/friction/friction_energy.hpp>
#include <ipc/friction/normal_force.hpp>

#include <Eigen/Core>

#include <cstddef>
#include <random>
#include <string>
#include <vector>

namespace ipc::bench {

namespace detail {
    constexpr std::size_t barrier_friction_samples = 1000000;
    constexpr int barrier_friction_repeats = 3;

    inline Eigen::Vector3d random_unit_cube_point(std::mt19937_64& generator)
    {
        std::uniform_real_distribution<double> uniform(-1, 1);
        return Eigen::Vector3d(uniform(generator), uniform(generator), uniform(generator));
    }

    // Times energy, gradient and Hessian of one contact type. make_contact
    // builds a contact from the generator; displacements are scaled so the
    // slip spans the smoothed and the sliding regimes.
    template <int N, typename MakeContact>
    void time_friction_type(Table& table, const std::string& name, MakeContact&& make_contact)
    {
        constexpr std::size_t n = barrier_friction_samples;
        const double eps = 1e-3;
        std::mt19937_64 generator(1234 + N);
        std::uniform_real_distribution<double> scale(0.0, 2e-3);
        std::vector<FrictionContact<double, N>> contacts;
        std::vector<Eigen::Matrix<double, 3 * N, 1>> displacements(n);
        contacts.reserve(n);
        for (std::size_t i = 0; i < n; ++i) {
            contacts.push_back(make_contact(generator));
            for (int v = 0; v < N; ++v) {
                displacements[i].template segment<3>(3 * v)
                    = scale(generator) * random_unit_cube_point(generator);
            }
        }
        table.add("friction", name + " energy",
            best_ns_per_call(n, barrier_friction_repeats, [&](std::size_t i) {
                do_not_optimize(friction_energy(contacts[i], displacements[i], eps));
            }));
        table.add("friction", name + " gradient",
            best_ns_per_call(n, barrier_friction_repeats, [&](std::size_t i) {
                do_not_optimize(friction_gradient(contacts[i], displacements[i], eps));
            }));
        table.add("friction", name + " hessian",
            best_ns_per_call(n, barrier_friction_repeats, [&](std::size_t i) {
                do_not_optimize(friction_hessian(contacts[i], displacements[i], eps));
            }));
    }
} // namespace detail

/// Adds barrier and friction kernel timings (ns per call) to the table.
inline void run_barrier_friction_benchmarks(Table& table)
{
    constexpr std::size_t n = detail::barrier_friction_samples;
    constexpr int repeats = detail::barrier_friction_repeats;
    std::mt19937_64 generator(42);

    // Barrier arguments: squared distances spread over (0, x_hat), a fifth of
    // them beyond the threshold, as in an active set refreshed per iteration.
    const double dhat = 1e-3;
    const double x_hat = dhat * dhat;
    std::uniform_real_distribution<double> fraction(1e-6, 1.25);
    std::vector<double> x(n);
    for (double& value : x) {
        value = fraction(generator) * x_hat;
    }
    table.add("barrier", "log value", best_ns_per_call(n, repeats, [&](std::size_t i) {
        do_not_optimize(barrier(x[i], x_hat));
    }));
    table.add("barrier", "log first derivative", best_ns_per_call(n, repeats, [&](std::size_t i) {
        do_not_optimize(barrier_first_derivative(x[i], x_hat));
    }));
    table.add("barrier", "log second derivative", best_ns_per_call(n, repeats, [&](std::size_t i) {
        do_not_optimize(barrier_second_derivative(x[i], x_hat));
    }));
    table.add("barrier", "normalized log second derivative",
        best_ns_per_call(n, repeats, [&](std::size_t i) {
            do_not_optimize(NormalizedLogBarrier::second_derivative(x[i], x_hat));
        }));
    table.add("barrier", "cubic second derivative", best_ns_per_call(n, repeats, [&](std::size_t i) {
        do_not_optimize(CubicBarrier::second_derivative(x[i], x_hat));
    }));

    // Offset barrier: per-pair offsets and distances within (xi, xi + 1.25 dhat).
    std::uniform_real_distribution<double> offset(0.0, 2e-3);
    std::vector<double> xi(n), distance_squared(n);
    for (std::size_t i = 0; i < n; ++i) {
        xi[i] = offset(generator);
        const double d = xi[i] + fraction(generator) * dhat;
        distance_squared[i] = d * d;
    }
    table.add("barrier", "offset value", best_ns_per_call(n, repeats, [&](std::size_t i) {
        do_not_optimize(offset_barrier(distance_squared[i], xi[i], dhat));
    }));
    table.add("barrier", "offset first derivative", best_ns_per_call(n, repeats, [&](std::size_t i) {
        do_not_optimize(offset_barrier_first_derivative(distance_squared[i], xi[i], dhat));
    }));
    table.add("barrier", "offset second derivative", best_ns_per_call(n, repeats, [&](std::size_t i) {
        do_not_optimize(offset_barrier_second_derivative(distance_squared[i], xi[i], dhat));
    }));
    table.add("barrier", "normal force (validated)", best_ns_per_call(n, repeats, [&](std::size_t i) {
        do_not_optimize(normal_force_magnitude(distance_squared[i], xi[i], dhat, 1e4));
    }));
    x.clear();
    x.shrink_to_fit();
    xi.clear();
    xi.shrink_to_fit();
    distance_squared.clear();
    distance_squared.shrink_to_fit();

    // Friction, one contact type at a time (lag data built from random
    // positions; nearly degenerate draws do not occur at these sizes).
    detail::time_friction_type<2>(table, "point-point", [](std::mt19937_64& g) {
        return point_point_friction_contact(
            detail::random_unit_cube_point(g), detail::random_unit_cube_point(g), 2.0, 0.3);
    });
    detail::time_friction_type<3>(table, "point-edge", [](std::mt19937_64& g) {
        return point_edge_friction_contact(detail::random_unit_cube_point(g),
            detail::random_unit_cube_point(g), detail::random_unit_cube_point(g), 2.0, 0.3);
    });
    detail::time_friction_type<4>(table, "point-triangle", [](std::mt19937_64& g) {
        return point_triangle_friction_contact(detail::random_unit_cube_point(g),
            detail::random_unit_cube_point(g), detail::random_unit_cube_point(g),
            detail::random_unit_cube_point(g), 2.0, 0.3);
    });
    detail::time_friction_type<4>(table, "edge-edge", [](std::mt19937_64& g) {
        return edge_edge_friction_contact(detail::random_unit_cube_point(g),
            detail::random_unit_cube_point(g), detail::random_unit_cube_point(g),
            detail::random_unit_cube_point(g), 2.0, 0.3);
    });
}

} // namespace ipc::bench
