// libFuzzer target: AdditiveCCD (include/ipc/ccd/additive_ccd.hpp); see
// fuzz_ccd.hpp for the input layout and the checked invariants. After the
// common input, one byte adds: a 2D query on the first two coordinates (bit
// 0), the same query through the float free functions (bit 1), and an
// AdditiveCCD with max_iterations and conservative rescaling from the input
// (bit 2; the constructor may reject them with ipc::error).

#include "fuzz_ccd.hpp"

#include <ipc/ccd/additive_ccd.hpp>
#include <ipc/distance/point_edge.hpp>
#include <ipc/distance/point_point.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace {

using ipc_fuzz::CCDInput;
using ipc_fuzz::Query;

using ipc_fuzz::bad_parameters;
using ipc_fuzz::check_status;

// Point-point or point-edge in 2D (the first two coordinates of each point).
void check_2d(const ipc::AdditiveCCD& ccd, const CCDInput& q)
{
    using V2 = Eigen::Vector2d;
    const bool edge = q.query != Query::point_point;
    const int n = edge ? 3 : 2;
    std::array<V2, 3> a, b;
    bool finite = true, tame = ipc_fuzz::moderate(q.min_distance);
    double scale = q.min_distance;
    for (int i = 0; i < 3; ++i) {
        a[i] = q.x0[i].head<2>();
        b[i] = q.x1[i].head<2>();
        if (i < n) {
            finite = finite && ipc_fuzz::all_finite(a[i]) && ipc_fuzz::all_finite(b[i]);
            tame = tame && ipc_fuzz::all_moderate(1e-50, 1e50, a[i], b[i]);
            scale = std::max({ scale, ipc_fuzz::max_abs(a[i]), ipc_fuzz::max_abs(b[i]) });
        }
    }
    const double md = q.min_distance, tmax = q.tmax;
    ipc::CCDResult r;
    double toi = -1;
    bool hit = false, threw = false;
    if (edge) {
        r = ccd.point_edge_ccd_result(a[0], a[1], a[2], b[0], b[1], b[2], md, tmax);
        try {
            hit = ccd.point_edge_ccd(a[0], a[1], a[2], b[0], b[1], b[2], toi, md, tmax);
        } catch (const ipc::error&) {
            threw = true;
        }
    } else {
        r = ccd.point_point_ccd_result(a[0], a[1], b[0], b[1], md, tmax);
        try {
            hit = ccd.point_point_ccd(a[0], a[1], b[0], b[1], toi, md, tmax);
        } catch (const ipc::error&) {
            threw = true;
        }
    }
    check_status(r, !finite || bad_parameters(md, tmax), tmax);
    FUZZ_CHECK(threw == (r.status == ipc::CCDStatus::invalid_input));
    if (!threw) {
        FUZZ_CHECK(hit == r.collides() && toi == r.toi);
    }
    if (!tame || r.status == ipc::CCDStatus::invalid_input
        || r.status == ipc::CCDStatus::initially_within_offset) {
        return;
    }
    const auto d2 = [&](double t) {
        std::array<V2, 3> x;
        for (int i = 0; i < 3; ++i) {
            x[i] = a[i] + t * (b[i] - a[i]);
        }
        return edge ? ipc::point_edge_distance_squared(x[0], x[1], x[2])
                    : ipc::point_point_distance_squared(x[0], x[1]);
    };
    const double bound = md * md - 1e-9 * scale * scale;
    const double end = r.status == ipc::CCDStatus::no_hit ? tmax : r.toi;
    for (int k = 0; k <= 16; ++k) {
        FUZZ_CHECK(d2(end * k / 16.0) >= bound);
    }
}

// The same query in float through the free functions (status invariants only).
void check_float(const ipc::AdditiveCCD& ccd, const CCDInput& q)
{
    using V3 = Eigen::Vector3f;
    std::array<V3, 4> a, b;
    bool finite = true;
    for (int i = 0; i < 4; ++i) {
        a[i] = q.x0[i].cast<float>();
        b[i] = q.x1[i].cast<float>();
        if (i < ipc_fuzz::num_points(q.query)) {
            finite = finite && ipc_fuzz::all_finite(a[i]) && ipc_fuzz::all_finite(b[i]);
        }
    }
    const float md = float(q.min_distance), tmax = float(q.tmax);
    ipc::CCDResult r;
    try {
        switch (q.query) {
        case Query::point_point: r = ipc::additive_point_point_ccd<float, 3>(a[0], a[1], b[0], b[1], md, tmax, ccd); break;
        case Query::point_edge:
            r = ipc::additive_point_edge_ccd<float, 3>(a[0], a[1], a[2], b[0], b[1], b[2], md, tmax, ccd);
            break;
        case Query::point_triangle:
            r = ipc::additive_point_triangle_ccd<float>(a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3], md, tmax, ccd);
            break;
        case Query::edge_edge:
            r = ipc::additive_edge_edge_ccd<float>(a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3], md, tmax, ccd);
            break;
        }
    } catch (const ipc::error&) {
        FUZZ_CHECK(!"the additive free functions threw ipc::error");
    }
    check_status(r, !finite || bad_parameters(md, tmax), double(tmax));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    ipc_fuzz::ByteReader in(data, size);
    const CCDInput q = ipc_fuzz::read_ccd_input(in);
    const std::uint8_t extra = in.u8();
    // At most 5,000 iterations a query instead of the default 10^6.
    // Queries whose gap closes as slowly as the motion allows (a triangle
    // collapsing onto the point at t = 1, say: seed slow_collapse) take tens
    // of thousands of iterations: 0.1 s in Release, but more than the
    // fuzzer's 10 s timeout under ASan and UBSan for the shapes checked.
    // Reaching the cap is part of the checked contract (iteration_cap with a
    // safe toi).
    ipc::AdditiveCCD ccd(5'000);
    if (extra & 4) {
        const long max_iterations = std::min(long(in.u16()) - 16, 5'000L); // same cap
        const double rescaling = in.unit_interval();
        try {
            ccd = ipc::AdditiveCCD(max_iterations, rescaling);
        } catch (const ipc::error&) {
            FUZZ_CHECK(max_iterations <= 0 || !(rescaling > 0 && rescaling < 1));
            return 0;
        }
    }
    ipc_fuzz::check_ccd_query(ccd, q, /*sound=*/true, /*toi_inclusive=*/true);
    if (extra & 1) {
        check_2d(ccd, q);
    }
    if (extra & 2) {
        check_float(ccd, q);
    }
    return 0;
}
