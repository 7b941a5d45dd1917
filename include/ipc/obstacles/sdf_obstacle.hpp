#pragma once
/// @file
/// Analytic obstacles described by their signed distance: a half-space, a
/// sphere, an axis-aligned box with rounded edges and a capsule. All four are
/// convex, and every function below returns exact Euclidean quantities (up to
/// rounding), in metres.
///
/// Sign convention: the signed distance phi(p) is negative inside the
/// obstacle, zero on its surface and positive outside; its gradient is the
/// outward unit normal of the nearest surface point. Because the shapes are
/// convex, phi is a convex, 1-Lipschitz function of p.
///
/// Besides the signed distance and its gradient the header provides what a
/// contact solver needs around it: validation (check_obstacle), the smallest
/// radius of curvature of the surface (to size safety margins), a conservative
/// test that a straight segment stays at least a margin away
/// (segment_clear_of_obstacle), and an inscribed triangle mesh for drawing the
/// obstacle (obstacle_mesh; anything outside the signed-distance shape is also
/// outside the mesh).
///
/// Every function exists for each shape and for the variant SdfObstacle. The
/// hot functions (signed_distance, its gradient, segment_clear_of_obstacle)
/// do not validate their obstacle: call check_obstacle once when the obstacle
/// is created.
///
/// The Hessians of the signed distances are in sdf_hessian.hpp. The contact
/// pipeline against these obstacles (and against caller-defined signed
/// distances) is in obstacle_set.hpp, obstacle_collisions.hpp,
/// obstacle_barrier.hpp, obstacle_friction.hpp and obstacle_ccd.hpp.

#include <ipc/core/error.hpp>
#include <ipc/core/math.hpp>
#include <ipc/obstacles/detail/sdf_geometry.hpp>

#include <Eigen/Core>
#include <Eigen/Geometry> // cross products

#include <algorithm>
#include <cmath>
#include <limits>
#include <variant>

namespace ipc {

// ---------------------------------------------------------------------------
// Shapes

/// Half-space below a plane: points p with (p - point) . normal < 0 are
/// inside. The constructor normalises `normal`; functions also accept a
/// non-unit normal assigned afterwards (they divide by its length).
struct PlaneObstacle {
    Eigen::Vector3d point = Eigen::Vector3d::Zero();  ///< any point of the plane (m)
    Eigen::Vector3d normal = Eigen::Vector3d::UnitZ(); ///< outward unit normal

    /// The plane z = 0 with the half-space z < 0 inside.
    PlaneObstacle() = default;

    /// The plane through `point` with outward normal `normal` (normalised here;
    /// a zero or non-finite normal is kept as is for check_obstacle to report).
    PlaneObstacle(const Eigen::Vector3d& point_, const Eigen::Vector3d& normal_)
        : point(point_)
        , normal(normal_)
    {
        const double length = normal.norm();
        if (length > 0 && std::isfinite(length)) {
            normal /= length;
        }
    }
};

/// Ball of the given radius (m) around center.
struct SphereObstacle {
    Eigen::Vector3d center = Eigen::Vector3d::Zero(); ///< (m)
    double radius = 1;                                 ///< > 0 (m)
};

/// Box with rounded edges: the set of points within `rounding` of the
/// axis-aligned box [center - half_extents, center + half_extents]. rounding
/// may be 0 (a sharp box), and so may any half-extent (a rounded board when
/// rounding > 0).
struct BoxObstacle {
    Eigen::Vector3d center = Eigen::Vector3d::Zero();      ///< (m)
    Eigen::Vector3d half_extents = Eigen::Vector3d::Ones(); ///< >= 0 per axis (m)
    double rounding = 0;                                    ///< >= 0 (m)
};

/// Points within radius of the segment [a, b] (a == b gives a sphere).
struct CapsuleObstacle {
    Eigen::Vector3d a = Eigen::Vector3d::Zero();   ///< axis end (m)
    Eigen::Vector3d b = Eigen::Vector3d::UnitZ();  ///< other axis end (m)
    double radius = 1;                              ///< > 0 (m)
};

/// Any of the analytic obstacles.
using SdfObstacle = std::variant<PlaneObstacle, SphereObstacle, BoxObstacle, CapsuleObstacle>;

/// A triangle mesh: n x 3 vertex positions (m) and m x 3 zero-based vertex
/// indices, counter-clockwise seen from outside.
struct ObstacleMesh {
    /// Vertex positions, one row per vertex (m).
    Eigen::MatrixXd vertices;
    /// Triangles, one row of three vertex indices per face.
    Eigen::MatrixXi faces;
};

// ---------------------------------------------------------------------------
// Names

/// "plane".
inline const char* obstacle_name(const PlaneObstacle&) { return "plane"; }
/// "sphere".
inline const char* obstacle_name(const SphereObstacle&) { return "sphere"; }
/// "box".
inline const char* obstacle_name(const BoxObstacle&) { return "box"; }
/// "capsule".
inline const char* obstacle_name(const CapsuleObstacle&) { return "capsule"; }

// ---------------------------------------------------------------------------
// Validation

namespace detail::sdf {
    /// Throws unless v is finite.
    inline void require_finite_point(const Eigen::Vector3d& v, const char* shape, const char* what)
    {
        ipc::require(ipc::all_finite(v), shape, " obstacle: ", what, " must be finite, got (", v[0], ", ", v[1],
            ", ", v[2], ")");
    }

    /// Throws unless x is finite and positive (or nonnegative when allow_zero).
    inline void require_length(double x, bool allow_zero, const char* shape, const char* what)
    {
        ipc::require(std::isfinite(x) && (allow_zero ? x >= 0 : x > 0), shape, " obstacle: ", what,
            allow_zero ? " must be finite and >= 0" : " must be finite and > 0", ", got ", x);
    }
} // namespace detail::sdf

/// Throws ipc::invalid_argument unless the point and normal are finite and the
/// normal is nonzero.
inline void check_obstacle(const PlaneObstacle& plane)
{
    detail::sdf::require_finite_point(plane.point, "plane", "point");
    detail::sdf::require_finite_point(plane.normal, "plane", "normal");
    const double length = plane.normal.norm();
    require(length > 0 && std::isfinite(length), "plane obstacle: normal must be nonzero, got (",
        plane.normal[0], ", ", plane.normal[1], ", ", plane.normal[2], ")");
}

/// Throws ipc::invalid_argument unless the centre is finite and the radius
/// finite and > 0.
inline void check_obstacle(const SphereObstacle& sphere)
{
    detail::sdf::require_finite_point(sphere.center, "sphere", "center");
    detail::sdf::require_length(sphere.radius, false, "sphere", "radius");
}

/// Throws ipc::invalid_argument unless the centre is finite and the
/// half-extents and rounding are finite and >= 0.
inline void check_obstacle(const BoxObstacle& box)
{
    detail::sdf::require_finite_point(box.center, "box", "center");
    detail::sdf::require_finite_point(box.half_extents, "box", "half_extents");
    for (int i = 0; i < 3; ++i) {
        require(box.half_extents[i] >= 0, "box obstacle: half_extents must be >= 0, got (",
            box.half_extents[0], ", ", box.half_extents[1], ", ", box.half_extents[2], ")");
    }
    detail::sdf::require_length(box.rounding, true, "box", "rounding");
}

/// Throws ipc::invalid_argument unless both axis ends are finite and the
/// radius finite and > 0 (a == b is allowed: a sphere).
inline void check_obstacle(const CapsuleObstacle& capsule)
{
    detail::sdf::require_finite_point(capsule.a, "capsule", "a");
    detail::sdf::require_finite_point(capsule.b, "capsule", "b");
    detail::sdf::require_length(capsule.radius, false, "capsule", "radius");
}

// ---------------------------------------------------------------------------
// Signed distance

namespace detail::sdf {
    /// The plane's normal divided by its length.
    inline Eigen::Vector3d unit_normal(const PlaneObstacle& plane)
    {
        return plane.normal / plane.normal.norm();
    }

    /// Unit direction of the capsule's axis (+z when a == b).
    inline Eigen::Vector3d capsule_axis(const CapsuleObstacle& capsule)
    {
        return safe_unit(capsule.b - capsule.a, Eigen::Vector3d::UnitZ());
    }

    inline Eigen::Vector3d nan_vector()
    {
        return Eigen::Vector3d::Constant(std::numeric_limits<double>::quiet_NaN());
    }
} // namespace detail::sdf

/// (p - point) . normal (m).
inline double signed_distance(const PlaneObstacle& plane, const Eigen::Vector3d& p)
{
    return (p - plane.point).dot(detail::sdf::unit_normal(plane));
}

/// |p - center| - radius (m).
inline double signed_distance(const SphereObstacle& sphere, const Eigen::Vector3d& p)
{
    return (p - sphere.center).norm() - sphere.radius;
}

/// Distance to the sharp box outside it, minus the distance to its nearest
/// face inside, minus the rounding (m). NaN when p is not finite.
inline double signed_distance(const BoxObstacle& box, const Eigen::Vector3d& p)
{
    if (!all_finite(p)) {
        return std::numeric_limits<double>::quiet_NaN();
    }
    return detail::sdf::sharp_box_signed_distance(p - box.center, box.half_extents) - box.rounding;
}

/// Distance from p to the segment [a, b] minus the radius (m).
inline double signed_distance(const CapsuleObstacle& capsule, const Eigen::Vector3d& p)
{
    return detail::sdf::point_segment_distance(p, capsule.a, capsule.b) - capsule.radius;
}

// ---------------------------------------------------------------------------
// Gradient of the signed distance

/// The unit normal (constant).
inline Eigen::Vector3d
signed_distance_gradient(const PlaneObstacle& plane, const Eigen::Vector3d& p)
{
    if (!all_finite(p)) {
        return detail::sdf::nan_vector();
    }
    return detail::sdf::unit_normal(plane);
}

/// (p - center) / |p - center|; +z at the centre (any unit vector is a
/// subgradient there). NaN when p is not finite.
inline Eigen::Vector3d
signed_distance_gradient(const SphereObstacle& sphere, const Eigen::Vector3d& p)
{
    return detail::sdf::safe_unit(p - sphere.center, Eigen::Vector3d::UnitZ());
}

/// Outside the sharp box: the direction from its nearest point to p. Inside
/// it: the outward normal of the nearest face (the first axis on ties, +e_i
/// when p sits on the mid-plane of axis i, e.g. at the centre). NaN when p is
/// not finite.
inline Eigen::Vector3d signed_distance_gradient(const BoxObstacle& box, const Eigen::Vector3d& p)
{
    if (!all_finite(p)) {
        return detail::sdf::nan_vector();
    }
    const Eigen::Vector3d u = p - box.center;
    const Eigen::Vector3d q = u.cwiseAbs() - box.half_extents;
    Eigen::Vector3d sign;
    for (int i = 0; i < 3; ++i) {
        sign[i] = u[i] < 0 ? -1.0 : 1.0;
    }
    Eigen::Index axis = 0;
    if (q.maxCoeff(&axis) > 0) {
        return detail::sdf::safe_unit(sign.cwiseProduct(q.cwiseMax(0.0)), sign[axis] * Eigen::Vector3d::Unit(axis));
    }
    return sign[axis] * Eigen::Vector3d::Unit(axis);
}

/// Direction from the nearest axis point to p; on the axis, a unit vector
/// perpendicular to it (any such vector is a subgradient there). NaN when p
/// is not finite.
inline Eigen::Vector3d
signed_distance_gradient(const CapsuleObstacle& capsule, const Eigen::Vector3d& p)
{
    const double t = detail::sdf::segment_closest_parameter(p, capsule.a, capsule.b);
    Eigen::Vector3d offset = p - (capsule.a + t * (capsule.b - capsule.a));
    if (t > 0 && t < 1) {
        // Beside the axis the offset is perpendicular to it; removing the
        // rounding left along the axis keeps points on (or next to) the axis
        // from getting a tilted direction.
        const Eigen::Vector3d w = detail::sdf::capsule_axis(capsule);
        offset -= offset.dot(w) * w;
    }
    if (offset.isZero(0)) {
        return detail::sdf::perpendicular_unit(detail::sdf::capsule_axis(capsule));
    }
    return detail::sdf::safe_unit(offset, Eigen::Vector3d::UnitZ());
}

// ---------------------------------------------------------------------------
// Curvature

/// +infinity: a plane is flat.
inline double min_curvature_radius(const PlaneObstacle&)
{
    return std::numeric_limits<double>::infinity();
}
/// The radius (m).
inline double min_curvature_radius(const SphereObstacle& sphere) { return sphere.radius; }
/// The rounding (m); 0 for a sharp box.
inline double min_curvature_radius(const BoxObstacle& box) { return box.rounding; }
/// The radius (m).
inline double min_curvature_radius(const CapsuleObstacle& capsule) { return capsule.radius; }

// ---------------------------------------------------------------------------
// Segment clearance

namespace detail::sdf {
    /// Absolute slack (m) granted to rounding in segment_clear_of_obstacle:
    /// 1e-12 times the magnitudes involved (coordinates, sizes, margin).
    inline double clearance_slack(
        const Eigen::Vector3d& p0, const Eigen::Vector3d& p1, double obstacle_scale, double margin)
    {
        const double m = std::isfinite(margin) ? std::abs(margin) : 0.0;
        return 1e-12 * (p0.cwiseAbs().maxCoeff() + p1.cwiseAbs().maxCoeff() + obstacle_scale + m);
    }

    /// The minimum of phi along [p0, p1] clears the margin with the slack to spare.
    /// False for NaN anywhere.
    inline bool clears(double minimum, double margin, double slack)
    {
        return minimum >= margin + slack;
    }
} // namespace detail::sdf

/// True when every point of the segment p0 -> p1 is at signed distance >=
/// margin (m) from the plane: the smaller end value (phi is linear), less a
/// rounding slack of about 1e-12 relative. False when any input is NaN.
inline bool segment_clear_of_obstacle(
    const PlaneObstacle& plane, const Eigen::Vector3d& p0, const Eigen::Vector3d& p1, double margin)
{
    if (!all_finite(p0) || !all_finite(p1)) {
        return false;
    }
    const double minimum = std::min(signed_distance(plane, p0), signed_distance(plane, p1));
    return detail::sdf::clears(
        minimum, margin, detail::sdf::clearance_slack(p0, p1, plane.point.cwiseAbs().maxCoeff(), margin));
}

/// True when every point of the segment p0 -> p1 is at signed distance >=
/// margin (m) from the sphere: the distance from the centre to the segment,
/// less the radius, less a rounding slack of about 1e-12 relative.
inline bool segment_clear_of_obstacle(
    const SphereObstacle& sphere, const Eigen::Vector3d& p0, const Eigen::Vector3d& p1, double margin)
{
    if (!all_finite(p0) || !all_finite(p1)) {
        return false;
    }
    const double minimum = detail::sdf::point_segment_distance(sphere.center, p0, p1) - sphere.radius;
    return detail::sdf::clears(minimum, margin,
        detail::sdf::clearance_slack(p0, p1, sphere.center.cwiseAbs().maxCoeff() + sphere.radius, margin));
}

/// True when every point of the segment p0 -> p1 is at signed distance >=
/// margin (m) from the box: the exact minimum of phi along the segment
/// (see detail::sdf::segment_min_sharp_box_distance), less a rounding slack of
/// about 1e-12 relative.
inline bool segment_clear_of_obstacle(
    const BoxObstacle& box, const Eigen::Vector3d& p0, const Eigen::Vector3d& p1, double margin)
{
    if (!all_finite(p0) || !all_finite(p1)) {
        return false;
    }
    const double minimum = detail::sdf::segment_min_sharp_box_distance(
                               p0 - box.center, p1 - box.center, box.half_extents)
        - box.rounding;
    const double scale =
        box.center.cwiseAbs().maxCoeff() + box.half_extents.cwiseAbs().maxCoeff() + box.rounding;
    return detail::sdf::clears(minimum, margin, detail::sdf::clearance_slack(p0, p1, scale, margin));
}

/// True when every point of the segment p0 -> p1 is at signed distance >=
/// margin (m) from the capsule: the distance between the segment and the
/// axis, less the radius, less a rounding slack of about 1e-12 relative.
inline bool segment_clear_of_obstacle(
    const CapsuleObstacle& capsule, const Eigen::Vector3d& p0, const Eigen::Vector3d& p1, double margin)
{
    if (!all_finite(p0) || !all_finite(p1)) {
        return false;
    }
    const double minimum =
        detail::sdf::segment_segment_distance(p0, p1, capsule.a, capsule.b) - capsule.radius;
    const double scale =
        capsule.a.cwiseAbs().maxCoeff() + capsule.b.cwiseAbs().maxCoeff() + capsule.radius;
    return detail::sdf::clears(minimum, margin, detail::sdf::clearance_slack(p0, p1, scale, margin));
}

// ---------------------------------------------------------------------------
// Inscribed meshes

namespace detail::sdf {
    /// Checks the mesh resolution (segments around a circle).
    inline void require_resolution(int resolution)
    {
        ipc::require(resolution >= 8 && resolution <= 10000,
            "obstacle_mesh: resolution must be in [8, 10000], got ", resolution);
    }

    /// Segments per 45 degrees of arc for a resolution (segments per circle).
    inline int segments_per_octant(int resolution) { return std::max(1, (resolution + 4) / 8); }

    /// Maps the rows of a local mesh to origin + R * local, R = [e0 e1 e2].
    inline void place(Eigen::MatrixXd& V, const Eigen::Vector3d& origin, const Eigen::Matrix3d& R)
    {
        for (Eigen::Index v = 0; v < V.rows(); ++v) {
            V.row(v) = (origin + R * V.row(v).transpose()).transpose();
        }
    }
} // namespace detail::sdf

/// An open square board of half-size `extent` (m), centred on the plane's
/// point, in the plane, oriented along the normal: 4 vertices, 2 triangles.
/// The resolution is checked but otherwise unused. Throws
/// ipc::invalid_argument for an invalid plane, resolution or extent.
inline ObstacleMesh obstacle_mesh(const PlaneObstacle& plane, int resolution = 24, double extent = 1.0)
{
    check_obstacle(plane);
    detail::sdf::require_resolution(resolution);
    detail::sdf::require_length(extent, false, "plane", "board extent");
    const Eigen::Vector3d n = detail::sdf::unit_normal(plane);
    const Eigen::Vector3d u = detail::sdf::perpendicular_unit(n);
    const Eigen::Vector3d v = n.cross(u);
    ObstacleMesh mesh;
    mesh.vertices.resize(4, 3);
    mesh.vertices.row(0) = (plane.point - extent * u - extent * v).transpose();
    mesh.vertices.row(1) = (plane.point + extent * u - extent * v).transpose();
    mesh.vertices.row(2) = (plane.point + extent * u + extent * v).transpose();
    mesh.vertices.row(3) = (plane.point - extent * u + extent * v).transpose();
    mesh.faces.resize(2, 3);
    mesh.faces << 0, 1, 2, 0, 2, 3;
    return mesh;
}

/// Closed, outward-oriented mesh with every vertex on the sphere (a gnomonic
/// cube-sphere: about `resolution` segments around each great circle through
/// two opposite face centres, 0.75 resolution^2 triangles). `extent` is
/// unused. Throws ipc::invalid_argument for an invalid sphere or resolution.
inline ObstacleMesh obstacle_mesh(const SphereObstacle& sphere, int resolution = 24, double /*extent*/ = 1.0)
{
    check_obstacle(sphere);
    detail::sdf::require_resolution(resolution);
    ObstacleMesh mesh;
    detail::sdf::rounded_box_mesh(Eigen::Vector3d::Zero(), sphere.radius,
        detail::sdf::segments_per_octant(resolution), mesh.vertices, mesh.faces);
    detail::sdf::place(mesh.vertices, sphere.center, Eigen::Matrix3d::Identity());
    return mesh;
}

/// Closed, outward-oriented mesh with every vertex on the rounded box: flat
/// faces as one rectangle each, quarter-cylinder edges and sphere-octant
/// corners with about resolution / 4 segments per quarter circle. A sharp box
/// (rounding 0) gives its 8 corners and 12 triangles (with repeated positions
/// where a half-extent is 0). `extent` is unused. Throws ipc::invalid_argument
/// for an invalid box or resolution.
inline ObstacleMesh obstacle_mesh(const BoxObstacle& box, int resolution = 24, double /*extent*/ = 1.0)
{
    check_obstacle(box);
    detail::sdf::require_resolution(resolution);
    ObstacleMesh mesh;
    detail::sdf::rounded_box_mesh(box.half_extents, box.rounding, detail::sdf::segments_per_octant(resolution),
        mesh.vertices, mesh.faces);
    detail::sdf::place(mesh.vertices, box.center, Eigen::Matrix3d::Identity());
    return mesh;
}

/// Closed, outward-oriented mesh with every vertex on the capsule: a cylinder
/// band between two hemispherical caps, about `resolution` segments around
/// the axis. `extent` is unused. Throws ipc::invalid_argument for an invalid
/// capsule or resolution.
inline ObstacleMesh
obstacle_mesh(const CapsuleObstacle& capsule, int resolution = 24, double /*extent*/ = 1.0)
{
    check_obstacle(capsule);
    detail::sdf::require_resolution(resolution);
    // Local frame: z along the axis, origin at its midpoint; R = [u v w] is a rotation.
    const Eigen::Vector3d w = detail::sdf::capsule_axis(capsule);
    const Eigen::Vector3d u = detail::sdf::perpendicular_unit(w);
    Eigen::Matrix3d R;
    R.col(0) = u;
    R.col(1) = w.cross(u);
    R.col(2) = w;
    const double half_length = 0.5 * (capsule.b - capsule.a).norm();
    ObstacleMesh mesh;
    detail::sdf::rounded_box_mesh(Eigen::Vector3d(0, 0, half_length), capsule.radius,
        detail::sdf::segments_per_octant(resolution), mesh.vertices, mesh.faces);
    detail::sdf::place(mesh.vertices, 0.5 * (capsule.a + capsule.b), R);
    return mesh;
}

// ---------------------------------------------------------------------------
// The variant

/// "plane", "sphere", "box" or "capsule".
inline const char* obstacle_name(const SdfObstacle& obstacle)
{
    return std::visit([](const auto& shape) { return obstacle_name(shape); }, obstacle);
}

/// Throws ipc::invalid_argument naming the problem: non-finite values, a zero
/// normal, a radius <= 0, negative half-extents or rounding.
inline void check_obstacle(const SdfObstacle& obstacle)
{
    std::visit([](const auto& shape) { check_obstacle(shape); }, obstacle);
}

/// Signed distance (m) from p to the obstacle's surface: negative inside,
/// positive outside; the exact Euclidean distance for every shape.
inline double signed_distance(const SdfObstacle& obstacle, const Eigen::Vector3d& p)
{
    return std::visit([&](const auto& shape) { return signed_distance(shape, p); }, obstacle);
}

/// Unit gradient of the signed distance at p: the outward normal of the
/// nearest surface point. Where that point is not unique (the centre of a
/// sphere, the axis of a capsule, the medial axis inside a box) some valid
/// unit subgradient (phi is convex), never NaN for finite p.
inline Eigen::Vector3d signed_distance_gradient(const SdfObstacle& obstacle, const Eigen::Vector3d& p)
{
    return std::visit(
        [&](const auto& shape) { return signed_distance_gradient(shape, p); }, obstacle);
}

/// The smallest radius of curvature of the surface (m): the sphere's or
/// capsule's radius, the box's rounding (0 when sharp), +infinity for a plane.
/// A triangle with edges at most L whose vertices are all at signed distance
/// >= m stays outside a convex body whose surface has curvature radius >= R
/// everywhere if m >= sqrt(R^2 + L^2/3) - R.
inline double min_curvature_radius(const SdfObstacle& obstacle)
{
    return std::visit([](const auto& shape) { return min_curvature_radius(shape); }, obstacle);
}

/// Conservative test that every point of the straight segment p0 -> p1 is at
/// signed distance >= margin (m): the exact minimum of phi along the segment
/// (for every shape) must exceed margin by a rounding slack of about 1e-12
/// times the coordinates' magnitude. Never true when some point of the
/// segment is below the margin; false when an input is NaN.
inline bool segment_clear_of_obstacle(
    const SdfObstacle& obstacle, const Eigen::Vector3d& p0, const Eigen::Vector3d& p1, double margin)
{
    return std::visit(
        [&](const auto& shape) { return segment_clear_of_obstacle(shape, p0, p1, margin); }, obstacle);
}

/// A triangle mesh inscribed in the obstacle: every vertex lies on its
/// surface and, the shapes being convex, every triangle inside the closed
/// obstacle, so anything outside the signed-distance shape is also outside
/// the mesh. Closed and outward oriented except for the plane, which gives an
/// open square board of half-size `extent` (m) centred on its point.
/// `resolution` is the approximate number of segments around a circle, in
/// [8, 10000]. Throws ipc::invalid_argument for an invalid obstacle,
/// resolution or (for a plane) extent.
inline ObstacleMesh obstacle_mesh(const SdfObstacle& obstacle, int resolution = 24, double extent = 1.0)
{
    return std::visit(
        [&](const auto& shape) { return obstacle_mesh(shape, resolution, extent); }, obstacle);
}

} // namespace ipc
