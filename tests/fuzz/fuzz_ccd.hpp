#pragma once
// The body shared by the CCD fuzz targets (fuzz_ccd_additive.cpp,
// fuzz_ccd_inclusion.cpp, fuzz_ccd_root_finding.cpp).
//
// Input: one byte picks the query (point-point, point-edge, point-triangle,
// edge-edge), then four points at t = 0 and four at t = 1 (24 numbers, the
// query uses the first two, three or four of each), min_distance and tmax.
//
// Every query must terminate (libFuzzer's -timeout catches hangs). Checked
// invariants, all stated in the methods' documentation:
//  - the *_ccd_result shape never throws, and reports invalid_input for
//    NaN/inf coordinates, a NaN or negative min_distance and a tmax outside
//    [0, 1];
//  - otherwise toi lies in [0, tmax], equals tmax for no_hit and 0 for
//    initially_within_offset;
//  - the bool shape throws ipc::error exactly for invalid_input and otherwise
//    returns collides() and the same toi;
//  - for the methods without false negatives (additive, inclusion) and input
//    of moderate magnitude, the primitives are at least min_distance apart
//    (up to rounding of this check) at sampled times of [0, toi), and of
//    [0, tmax] when there is no hit.

#include "fuzz_input.hpp"

#include <ipc/ccd/ccd_result.hpp>
#include <ipc/core/error.hpp>
#include <ipc/distance/edge_edge.hpp>
#include <ipc/distance/point_edge.hpp>
#include <ipc/distance/point_point.hpp>
#include <ipc/distance/point_triangle.hpp>

#include <array>
#include <cmath>

namespace ipc_fuzz {

enum class Query { point_point, point_edge, point_triangle, edge_edge };

constexpr int num_points(Query q) { return q == Query::point_point ? 2 : q == Query::point_edge ? 3 : 4; }

struct CCDInput {
    Query query = Query::point_point;
    std::array<Eigen::Vector3d, 4> x0, x1;
    double min_distance = 0;
    double tmax = 1;
};

inline CCDInput read_ccd_input(ByteReader& in)
{
    CCDInput q;
    q.query = Query(in.u8() % 4);
    for (auto& p : q.x0) {
        p = in.point<3>();
    }
    for (auto& p : q.x1) {
        p = in.point<3>();
    }
    q.min_distance = in.small_distance();
    q.tmax = in.unit_interval();
    return q;
}

/// Squared distance between the query's primitives at time t.
inline double distance_squared_at(const CCDInput& q, double t)
{
    std::array<Eigen::Vector3d, 4> x;
    for (int i = 0; i < 4; ++i) {
        x[i] = q.x0[i] + t * (q.x1[i] - q.x0[i]);
    }
    switch (q.query) {
    case Query::point_point: return ipc::point_point_distance_squared(x[0], x[1]);
    case Query::point_edge: return ipc::point_edge_distance_squared(x[0], x[1], x[2]);
    case Query::point_triangle: return ipc::point_triangle_distance_squared(x[0], x[1], x[2], x[3]);
    default: return ipc::edge_edge_distance_squared(x[0], x[1], x[2], x[3]);
    }
}

/// The invariants of the file comment for one query of one method.
/// `sound`: the method promises no false negatives; `toi_inclusive`: the
/// primitives are apart at toi itself as well (additive), not only before.
/// True for a min_distance or tmax that every CCD method rejects.
inline bool bad_parameters(double min_distance, double tmax)
{
    return std::isnan(min_distance) || min_distance < 0 || std::isnan(tmax) || tmax < 0 || tmax > 1;
}

/// The status contract of ccd_result.hpp: invalid_input when expected, and
/// otherwise toi in [0, tmax], tmax for no_hit, 0 for a start within the
/// offset, and a non-negative iteration count.
inline void check_status(const ipc::CCDResult& r, bool invalid_expected, double tmax)
{
    if (invalid_expected) {
        FUZZ_CHECK(r.status == ipc::CCDStatus::invalid_input);
    }
    if (r.status != ipc::CCDStatus::invalid_input) {
        FUZZ_CHECK(r.toi >= 0 && r.toi <= tmax);
        if (r.status == ipc::CCDStatus::no_hit) {
            FUZZ_CHECK(r.toi == tmax);
        }
        if (r.status == ipc::CCDStatus::initially_within_offset) {
            FUZZ_CHECK(r.toi == 0);
        }
        FUZZ_CHECK(r.iterations >= 0);
    }
}

template <typename Method>
void check_ccd_query(const Method& method, const CCDInput& q, bool sound, bool toi_inclusive)
{
    const auto& a = q.x0;
    const auto& b = q.x1;
    const double md = q.min_distance, tmax = q.tmax;
    const int n = num_points(q.query);

    ipc::CCDResult r;
    try {
        switch (q.query) {
        case Query::point_point: r = method.point_point_ccd_result(a[0], a[1], b[0], b[1], md, tmax); break;
        case Query::point_edge:
            r = method.point_edge_ccd_result(a[0], a[1], a[2], b[0], b[1], b[2], md, tmax);
            break;
        case Query::point_triangle:
            r = method.point_triangle_ccd_result(a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3], md, tmax);
            break;
        case Query::edge_edge:
            r = method.edge_edge_ccd_result(a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3], md, tmax);
            break;
        }
    } catch (const ipc::error&) {
        FUZZ_CHECK(!"the _result shape threw ipc::error");
    }

    bool finite = true;
    for (int i = 0; i < n; ++i) {
        finite = finite && all_finite(a[i]) && all_finite(b[i]);
    }
    check_status(r, !finite || bad_parameters(md, tmax), tmax);

    // The drop-in shape.
    double toi = -1;
    bool hit = false;
    bool threw = false;
    try {
        switch (q.query) {
        case Query::point_point: hit = method.point_point_ccd(a[0], a[1], b[0], b[1], toi, md, tmax); break;
        case Query::point_edge: hit = method.point_edge_ccd(a[0], a[1], a[2], b[0], b[1], b[2], toi, md, tmax); break;
        case Query::point_triangle:
            hit = method.point_triangle_ccd(a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3], toi, md, tmax);
            break;
        case Query::edge_edge:
            hit = method.edge_edge_ccd(a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3], toi, md, tmax);
            break;
        }
    } catch (const ipc::error&) {
        threw = true;
    }
    FUZZ_CHECK(threw == (r.status == ipc::CCDStatus::invalid_input));
    if (!threw) {
        FUZZ_CHECK(hit == r.collides());
        FUZZ_CHECK(toi == r.toi);
    }

    // No contact before toi (sound methods, moderate input).
    if (!sound || r.status == ipc::CCDStatus::invalid_input
        || r.status == ipc::CCDStatus::initially_within_offset) {
        return;
    }
    bool tame = moderate(md, 1e-50, 1e50);
    double scale = md;
    for (int i = 0; i < n; ++i) {
        tame = tame && all_moderate(1e-50, 1e50, a[i], b[i]);
        scale = std::max({ scale, max_abs(a[i]), max_abs(b[i]) });
    }
    if (!tame) {
        return;
    }
    const double tol = 1e-9 * scale * scale;
    const double bound = md * md - tol;
    constexpr int samples = 16;
    for (int k = 0; k < samples; ++k) {
        const double t = r.toi * double(k) / samples;
        if (t < r.toi || toi_inclusive) {
            FUZZ_CHECK(distance_squared_at(q, t) >= bound);
        }
    }
    if (toi_inclusive) {
        FUZZ_CHECK(distance_squared_at(q, r.toi) >= bound);
    }
    if (r.status == ipc::CCDStatus::no_hit) {
        for (int k = 0; k <= samples; ++k) {
            FUZZ_CHECK(distance_squared_at(q, tmax * double(k) / samples) >= bound);
        }
    }
}

} // namespace ipc_fuzz
