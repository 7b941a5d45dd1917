#pragma once
/// @file
/// Lumped (diagonal) masses per element kind. Each function returns the mass
/// (kg) given to EACH vertex of the element.

#include <ipc/core/error.hpp>

#include <cmath>

namespace ipc::examples {
/// The circle constant.
inline constexpr double pi = 3.14159265358979323846;
} // namespace ipc::examples

namespace ipc::examples {

/// Mass per vertex of a tetrahedron: density (kg/m^3) x rest volume (m^3) / 4.
inline double tet_vertex_mass(double density, double volume) { return density * volume / 4; }

/// Mass per vertex of a shell triangle: density x area (m^2) x thickness (m) / 3.
inline double triangle_vertex_mass(double density, double area, double thickness)
{
    return density * area * thickness / 3;
}

/// Mass per vertex of a rod segment: density x pi r^2 x length (m) / 2.
inline double rod_segment_vertex_mass(double density, double radius, double length)
{
    return density * pi * radius * radius * length / 2;
}

/// Mass of a particle (a ball of radius r, metres): density x 4/3 pi r^3.
inline double particle_mass(double density, double radius)
{
    require(radius > 0, "particle radius ", radius, " must be positive");
    return density * 4.0 / 3.0 * pi * radius * radius * radius;
}

} // namespace ipc::examples
