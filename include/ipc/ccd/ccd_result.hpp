#pragma once
/// @file
/// What a continuous collision detection (CCD) query reports.
///
/// Meaning shared by every CCD method of the library (AdditiveCCD,
/// InclusionCCD, RootFindingCCD), for queries over [0, tmax]:
///  - tmax must lie in [0, 1]; a negative, NaN or larger tmax is invalid
///    input (invalid_input; the bool shapes throw ipc::invalid_argument
///    naming tmax).
///  - A start already within min_distance (distance at t = 0 at most
///    min_distance, by the method's own distance test) reports
///    initially_within_offset with toi = 0, whatever tmax is.
///  - tmax = 0 asks about t = 0 only: initially_within_offset with toi = 0
///    when the start is within min_distance, otherwise no_hit with toi = 0.
///    It never reports hit.
///  - A start clear of min_distance by a tiny gap (e.g. 1e-12 of the
///    primitives' size, at the level of the method's rounding or tolerance
///    margin) may still report toi = 0, with status hit or
///    initially_within_offset: the methods are conservative, never
///    optimistic, near contact. Each method's header says how wide that
///    margin is.

#include <cstdint>

namespace ipc {

/// Which case a CCD query ended in.
enum class CCDStatus : std::uint8_t {
    no_hit,                  ///< the primitives stay farther apart than min_distance up to tmax
    hit,                     ///< they may come within min_distance; toi is a safe time before it
    initially_within_offset, ///< already at or inside min_distance at t = 0 (toi = 0), any tmax
    iteration_cap,           ///< stopped at the iteration bound; toi is conservative (safe)
    invalid_input,           ///< NaN or infinite coordinates, or impossible parameters
};

/// Printable name of a status ("no_hit", "hit", ...).
constexpr const char* to_string(CCDStatus status)
{
    switch (status) {
    case CCDStatus::no_hit:
        return "no_hit";
    case CCDStatus::hit:
        return "hit";
    case CCDStatus::initially_within_offset:
        return "initially_within_offset";
    case CCDStatus::iteration_cap:
        return "iteration_cap";
    case CCDStatus::invalid_input:
        return "invalid_input";
    }
    return "unknown";
}

/// Result of one CCD query.
struct CCDResult {
    /// What happened: no_hit, hit, initially_within_offset, iteration_cap or invalid_input.
    CCDStatus status = CCDStatus::no_hit;
    /// Time of impact in [0, tmax]: the primitives are guaranteed to stay at
    /// least min_distance apart (up to the method's conservative margin) on
    /// [0, toi]. Equals tmax when status is no_hit.
    double toi = 1;
    /// Iterations (or subdivisions) the method used.
    long iterations = 0;

    /// True when a collision before tmax cannot be ruled out: every status
    /// except no_hit. (invalid_input counts as a possible collision so that a
    /// caller treating the result as a step bound stays safe.)
    constexpr bool collides() const { return status != CCDStatus::no_hit; }
};

} // namespace ipc
