#pragma once
/// @file
/// One collision of a linear motion: a pair and the time of impact at which
/// it comes within its offset. collision_hits (mesh pairs) and
/// obstacle_collision_hits (vertices against static obstacles) return them.

#include <ipc/collisions/pair_id.hpp>

namespace ipc {

/// One collision of a motion: the pair and the CCD's time of impact, the
/// fraction of the step in [0, 1] at which it comes within its offset.
struct CollisionHit {
    /// The colliding pair.
    PairId pair;
    /// Time of impact as a fraction of the step, in [0, 1].
    double toi = 1.0;
};

} // namespace ipc
