// The branch-free edge-edge region classifier (edge_edge_distance_type)
// picks the region of the candidate search behind the automatic distance on
// random, nearly parallel, touching and rescaled pairs; where two regions tie
// up to rounding it may pick the other one, whose formula then gives the same
// distance up to rounding.

#include "helpers.hpp"

#include <ipc/distance/edge_edge.hpp>

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

using ipc::test::point;

TEST_CASE("edge-edge region classifier agrees with the candidate search", "[distance][classify]")
{
    std::mt19937_64 rng(4242);
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    int regions[9] = {};
    int agree = 0;
    for (int k = 0; k < 20000; ++k) {
        const Eigen::VectorXd x = ipc::test::random_coordinates(rng, 12);
        Eigen::Vector3d a0 = point<3>(x, 0), a1 = point<3>(x, 1), b0 = point<3>(x, 2), b1 = point<3>(x, 3);
        const Eigen::Vector3d noise(uniform(rng), uniform(rng), uniform(rng));
        switch (k % 5) {
        case 1: b1 = b0 + uniform(rng) * (a1 - a0) + 1e-7 * noise; break;         // nearly parallel
        case 2: b0 = a0 + 0.5 * (a1 - a0) + 1e-10 * noise; break;                 // touching
        case 3: b0 = a1 + 1e-12 * noise; break;                                   // shared endpoint
        case 4: {                                                                 // rescaled
            const double scale = std::pow(10.0, 6 * uniform(rng));
            a0 *= scale, a1 *= scale, b0 *= scale, b1 *= scale;
            break;
        }
        default: break;
        }
        const auto fast = ipc::edge_edge_distance_type(a0, a1, b0, b1);
        const auto search = ipc::detail::classify_edge_edge<double>(a0, a1, b0, b1);
        const double size_squared = std::max({ a0.squaredNorm(), a1.squaredNorm(), b0.squaredNorm(), b1.squaredNorm() });
        INFO("configuration " << k);
        const double fast_value = ipc::edge_edge_distance_squared(a0, a1, b0, b1, fast);
        if (fast == search.type) {
            CHECK(fast_value == search.distance_squared);
            ++agree;
        } else {
            CHECK(std::abs(fast_value - search.distance_squared) <= 1e-14 * size_squared);
        }
        if (k % 5 == 0) { // generic pairs: no ties
            CHECK(fast == search.type);
        }
        ++regions[int(fast)];
    }
    CHECK(agree >= 19900);
    for (const int count : regions) {
        CHECK(count > 50); // every region was exercised
    }
}
