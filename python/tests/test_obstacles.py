"""Analytic and callback obstacles: signed distances against closed forms,
the obstacle barrier and friction potentials (central finite differences),
point-obstacle CCD and the obstacle step size against closed forms, Python
callables against the analytic sphere, and bad input."""

import math
import threading

import numpy as np
import pytest

import ipc
from conftest import central_difference, central_difference_jacobian


def dense(H):
    return H.toarray() if hasattr(H, "toarray") else H


def sphere_callbacks(center, radius, with_hessian=True, lipschitz=1.0):
    """A SignedDistanceObstacle computing a sphere's signed distance in Python."""
    center = np.asarray(center, float)

    def value(p):
        return float(np.linalg.norm(p - center) - radius)

    def gradient(p):
        return (p - center) / np.linalg.norm(p - center)

    def hessian(p):
        r = np.linalg.norm(p - center)
        n = (p - center) / r
        return (np.eye(3) - np.outer(n, n)) / r

    return ipc.SignedDistanceObstacle(value, gradient, hessian if with_hessian else None, lipschitz=lipschitz)


# A small triangle floating just above a sphere of radius 1 (gaps 0.02 to 0.06).
SPHERE = ipc.SphereObstacle(center=[0.0, 0.0, -1.0], radius=1.0)
TRI_V = np.array([[0.0, 0.0, 0.02], [0.1, 0.0, 0.05], [0.0, 0.1, 0.06]])
TRI_F = np.array([[0, 1, 2]])
DHAT = 0.1


def test_signed_distances_match_closed_forms(rng):
    plane = ipc.PlaneObstacle(point=[0, 0, 0.1], normal=[0, 0, 2.0])
    np.testing.assert_allclose(plane.normal, [0, 0, 1])
    P = rng.uniform(-2, 2, size=(20, 3))
    np.testing.assert_allclose(ipc.signed_distance(plane, P), P[:, 2] - 0.1, atol=1e-15)
    sphere = ipc.SphereObstacle([1.0, 2.0, 3.0], 0.5)
    np.testing.assert_allclose(ipc.signed_distance(sphere, P), np.linalg.norm(P - [1, 2, 3], axis=1) - 0.5)
    box = ipc.BoxObstacle(center=[0, 0, 0], half_extents=[1, 2, 3], rounding=0.1)
    assert ipc.signed_distance(box, [2.0, 0, 0]) == pytest.approx(1.0 - 0.1)
    assert ipc.signed_distance(box, [0.5, 0, 0]) == pytest.approx(-0.5 - 0.1)
    assert ipc.signed_distance(box, [2.0, 3.0, 0]) == pytest.approx(math.sqrt(2) - 0.1)
    capsule = ipc.CapsuleObstacle(a=[0, 0, 0], b=[0, 0, 1], radius=0.5)
    assert ipc.signed_distance(capsule, np.array([1.0, 0, 0.5])) == pytest.approx(0.5)
    assert ipc.signed_distance(capsule, [0, 0, 2.0]) == pytest.approx(0.5)
    assert ipc.signed_distance(capsule, [0, 3.0, -4.0]) == pytest.approx(4.5)
    # Gradients are the FD derivatives of the distances; Hessians those of the gradients.
    for shape, p in [(sphere, [1.3, 2.2, 3.4]), (box, [1.5, 2.5, 0.3]), (capsule, [0.4, 0.3, 0.7]),
                     (capsule, [0.4, 0.3, 1.7]), (plane, [0.3, 0.2, 0.5])]:
        p = np.array(p)
        g = ipc.signed_distance_gradient(shape, p)
        np.testing.assert_allclose(g, central_difference(lambda x: ipc.signed_distance(shape, x), p), atol=1e-8)
        assert np.linalg.norm(g) == pytest.approx(1.0)
        H = ipc.signed_distance_hessian(shape, p)
        np.testing.assert_allclose(H, central_difference_jacobian(lambda x: ipc.signed_distance_gradient(shape, x), p),
                                   atol=1e-7)
    # Vectorised over points.
    G = ipc.signed_distance_gradient(sphere, P)
    assert G.shape == (20, 3)
    np.testing.assert_allclose(G[3], ipc.signed_distance_gradient(sphere, P[3]))
    HH = ipc.signed_distance_hessian(box, P)
    assert HH.shape == (20, 3, 3)
    np.testing.assert_allclose(HH[5], ipc.signed_distance_hessian(box, P[5]))


def test_shape_helpers_and_properties():
    plane, sphere = ipc.PlaneObstacle(), ipc.SphereObstacle()
    box, capsule = ipc.BoxObstacle(), ipc.CapsuleObstacle()
    assert [ipc.obstacle_name(s) for s in (plane, sphere, box, capsule)] == ["plane", "sphere", "box", "capsule"]
    assert ipc.min_curvature_radius(plane) == math.inf and ipc.min_curvature_radius(sphere) == 1.0
    assert ipc.min_curvature_radius(box) == 0.0 and ipc.min_curvature_radius(capsule) == 1.0
    for s in (plane, sphere, box, capsule):
        ipc.check_obstacle(s)
    sphere.center, sphere.radius = [0, 0, 2.0], 0.5
    assert list(sphere.center) == [0, 0, 2] and sphere.radius == 0.5
    plane.point, plane.normal = [0, 0, 1.0], [3.0, 0, 0]
    assert list(plane.point) == [0, 0, 1] and list(plane.normal) == [1, 0, 0]
    box.center, box.half_extents, box.rounding = [1, 1, 1.0], [0.5, 0.5, 0.5], 0.25
    assert box.rounding == 0.25 and list(box.half_extents) == [0.5] * 3 and list(box.center) == [1] * 3
    capsule.a, capsule.b, capsule.radius = [0, 0, 0.0], [1, 0, 0.0], 0.2
    assert list(capsule.a) == [0, 0, 0] and list(capsule.b) == [1, 0, 0] and capsule.radius == 0.2
    assert "radius=0.2" in repr(capsule) and "SphereObstacle" in repr(sphere)
    assert "BoxObstacle" in repr(box) and "PlaneObstacle" in repr(plane)
    # Segment clearance is exact for a sphere.
    assert ipc.segment_clear_of_obstacle(sphere, [-1, 0, 3.0], [1, 0, 3.0], 0.49)
    assert not ipc.segment_clear_of_obstacle(sphere, [-1, 0, 3.0], [1, 0, 3.0], 0.51)
    # Inscribed meshes: every vertex on the surface.
    V, F = ipc.obstacle_mesh(sphere, resolution=16)
    assert F.dtype == np.int64 and F.shape[1] == 3 and F.max() < len(V)
    np.testing.assert_allclose(ipc.signed_distance(sphere, V), 0, atol=1e-12)
    V, F = ipc.obstacle_mesh(plane, extent=2.0)
    assert V.shape == (4, 3) and F.shape == (2, 3)


def test_obstacle_set_and_collisions():
    sdf = sphere_callbacks([0, 0, -1.0], 1.0)
    assert sdf.has_hessian and sdf.lipschitz == 1.0
    sdf.lipschitz = 2.0
    assert sdf.lipschitz == 2.0
    obstacles = ipc.ObstacleSet(shapes=[SPHERE, ipc.PlaneObstacle([0, 0, -5.0], [0, 0, 1.0])], functions=[sdf])
    obstacles.check()
    assert len(obstacles) == obstacles.size() == 3 and not obstacles.empty() and ipc.ObstacleSet().empty()
    assert obstacles.is_shape(1) and not obstacles.is_shape(2)
    assert [obstacles.name(k) for k in range(3)] == ["sphere", "plane", "function"]
    assert obstacles.lipschitz(0) == 1.0 and obstacles.lipschitz(2) == 2.0
    assert isinstance(obstacles.shapes[0], ipc.SphereObstacle) and len(obstacles.functions) == 1
    assert "functions=1" in repr(obstacles)
    mesh = ipc.CollisionMesh(TRI_V, None, TRI_F, np.full(3, 1e-3))
    contacts = ipc.ObstacleCollisions()
    assert contacts.empty()
    contacts.build(mesh, TRI_V, obstacles, DHAT, dmin=1e-3)
    # The plane is 5 m away: each vertex touches the sphere and the callable sphere.
    assert contacts.size() == len(contacts) == 6
    np.testing.assert_array_equal(contacts.vertex_obstacle, [[0, 0], [0, 2], [1, 0], [1, 2], [2, 0], [2, 2]])
    np.testing.assert_allclose(contacts.offsets(), 2e-3)
    assert contacts.dhat == DHAT and contacts.dmin == 1e-3 and len(contacts.obstacles) == 3
    assert "size=6" in repr(contacts)
    contacts.clear()
    assert contacts.empty() and contacts.dhat == 0


def barrier_scene(obstacle):
    mesh = ipc.CollisionMesh(TRI_V, None, TRI_F)
    obstacles = ipc.ObstacleSet(functions=[obstacle]) if isinstance(obstacle, ipc.SignedDistanceObstacle) \
        else ipc.ObstacleSet([obstacle])
    contacts = ipc.ObstacleCollisions()
    contacts.build(mesh, TRI_V, obstacles, DHAT)
    return mesh, contacts


@pytest.mark.parametrize("obstacle", [SPHERE, ipc.CapsuleObstacle([-1, 0, -1.0], [1, 0, -1.0], 1.0),
                                      ipc.BoxObstacle([0, 0, -1.0], [0.5, 0.5, 0.5], 0.5),
                                      ipc.PlaneObstacle([0, 0, -0.01], [0.1, 0.2, 1.0])])
def test_obstacle_barrier_finite_differences(obstacle):
    mesh, contacts = barrier_scene(obstacle)
    assert len(contacts) == 3
    B = ipc.BarrierPotential(DHAT, stiffness=10.0)
    energy = B(contacts, mesh, TRI_V)
    assert energy > 0
    g = B.gradient(contacts, mesh, TRI_V)
    fd = central_difference(lambda x: B(contacts, mesh, x), TRI_V, h=1e-7)
    np.testing.assert_allclose(g, fd, rtol=1e-5, atol=1e-6 * np.abs(g).max())
    H = dense(B.hessian(contacts, mesh, TRI_V))
    fdH = central_difference_jacobian(lambda x: B.gradient(contacts, mesh, x), TRI_V, h=1e-7)
    np.testing.assert_allclose(H, fdH, rtol=1e-4, atol=1e-5 * np.abs(H).max())
    Hp = dense(B.hessian(contacts, mesh, TRI_V, ipc.PSDProjection.CLAMP))
    assert np.linalg.eigvalsh(Hp).min() > -1e-9 * np.abs(Hp).max()


def test_callable_sphere_matches_the_analytic_sphere():
    sdf = sphere_callbacks(SPHERE.center, SPHERE.radius)
    B = ipc.BarrierPotential(DHAT, stiffness=3.0)
    mesh, analytic = barrier_scene(SPHERE)
    _, callable_ = barrier_scene(sdf)
    assert B(callable_, mesh, TRI_V) == pytest.approx(B(analytic, mesh, TRI_V), rel=1e-12)
    np.testing.assert_allclose(B.gradient(callable_, mesh, TRI_V), B.gradient(analytic, mesh, TRI_V), rtol=1e-10)
    np.testing.assert_allclose(dense(B.hessian(callable_, mesh, TRI_V)), dense(B.hessian(analytic, mesh, TRI_V)),
                               rtol=1e-9, atol=1e-9)
    P = TRI_V + 0.01
    np.testing.assert_allclose(ipc.signed_distance(sdf, P), ipc.signed_distance(SPHERE, P), rtol=1e-14)
    np.testing.assert_allclose(ipc.signed_distance_gradient(sdf, P[0]), ipc.signed_distance_gradient(SPHERE, P[0]))
    np.testing.assert_allclose(ipc.signed_distance_hessian(sdf, P), ipc.signed_distance_hessian(SPHERE, P))
    # Without a Hessian callable the barrier uses the Gauss-Newton term (zero Hessian of phi).
    gauss_newton = sphere_callbacks(SPHERE.center, SPHERE.radius, with_hessian=False)
    assert not gauss_newton.has_hessian
    np.testing.assert_array_equal(ipc.signed_distance_hessian(gauss_newton, P[0]), np.zeros((3, 3)))
    # Friction with a callable obstacle equals the analytic one.
    fa, fc = ipc.ObstacleFrictionCollisions(), ipc.ObstacleFrictionCollisions()
    fa.build(analytic, mesh, TRI_V, DHAT, 3.0, 0.4)
    fc.build(callable_, mesh, TRI_V, DHAT, 3.0, 0.4)
    np.testing.assert_allclose(fc.normal_forces(), fa.normal_forces(), rtol=1e-12)
    U = np.array([[1e-3, 2e-3, 0], [-1e-4, 0, 1e-4], [5e-5, 5e-5, 0]])
    D = ipc.FrictionPotential(1e-3)
    assert D(fc, mesh, U) == pytest.approx(D(fa, mesh, U), rel=1e-12)
    # CCD: the vertex 0.02 above the sphere moves straight toward its centre by 0.1.
    V1 = TRI_V - [0, 0, 0.1]
    exact = 0.9 * 0.02 / 0.1  # keeps 10 % of the gap
    for obstacle in (SPHERE, sdf):
        obstacles = ipc.ObstacleSet([obstacle]) if obstacle is SPHERE else ipc.ObstacleSet(functions=[obstacle])
        alpha = ipc.obstacle_collision_free_step_size(mesh, TRI_V, V1, obstacles)
        assert exact * (1 - 0.02) <= alpha <= exact * (1 + 1e-9)
        hit, toi = ipc.point_obstacle_ccd(obstacle, TRI_V[0], V1[0])
        assert hit and exact * (1 - 0.02) <= toi <= exact * (1 + 1e-9)
        hit, toi = ipc.point_obstacle_ccd(obstacles, 0, TRI_V[0], V1[0])
        assert hit and exact * (1 - 0.02) <= toi <= exact * (1 + 1e-9)


def test_callable_errors_propagate():
    calls = []

    def value(p):
        calls.append(threading.get_ident())
        if p[2] > 0.04:
            raise KeyError("boom")
        return float(p[2])

    sdf = ipc.SignedDistanceObstacle(value, lambda p: np.array([0, 0, 1.0]))
    mesh = ipc.CollisionMesh(TRI_V, None, TRI_F)
    with pytest.raises(KeyError, match="boom"):
        ipc.ObstacleCollisions().build(mesh, TRI_V, ipc.ObstacleSet(functions=[sdf]), DHAT)
    assert set(calls) == {threading.get_ident()}  # one thread: the caller's
    bad_return = ipc.SignedDistanceObstacle(lambda p: "far", lambda p: np.zeros(3))
    with pytest.raises(ValueError, match="must return a float"):
        ipc.signed_distance(bad_return, [0, 0, 1.0])
    bad_gradient = ipc.SignedDistanceObstacle(lambda p: 1.0, lambda p: np.zeros(2))
    with pytest.raises(ValueError, match="gradient callback"):
        ipc.signed_distance_gradient(bad_gradient, np.zeros((4, 3)))
    nan = ipc.SignedDistanceObstacle(lambda p: math.nan, lambda p: np.zeros(3))
    with pytest.raises(ValueError, match="NaN"):
        ipc.ObstacleCollisions().build(mesh, TRI_V, ipc.ObstacleSet(functions=[nan]), DHAT)


def test_plane_step_size_is_the_closed_form():
    # A triangle 0.5 m above the plane z = 0.1 falls by 1 m; offsets 0.05 m.
    plane = ipc.PlaneObstacle(point=[0, 0, 0.1], normal=[0, 0, 1.0])
    V0 = np.array([[0, 0, 0.5], [1, 0, 0.6], [0, 1, 0.7]])
    V1 = V0 - [0, 0, 1.0]
    mesh = ipc.CollisionMesh(V0, None, TRI_F, np.full(3, 0.02))
    obstacles = ipc.ObstacleSet([plane])
    # Vertex 0: phi0 = 0.4, xi = 0.02 + 0.03; it keeps 10 % of phi0 - xi.
    alpha = ipc.obstacle_collision_free_step_size(mesh, V0, V1, obstacles, min_distance=0.03)
    assert alpha == pytest.approx(0.9 * (0.4 - 0.05) / 1.0, rel=1e-12)
    alpha = ipc.obstacle_collision_free_step_size(mesh, V0, V1, obstacles, conservative_rescaling=0.5)
    assert alpha == pytest.approx(0.5 * (0.4 - 0.02), rel=1e-12)
    assert ipc.obstacle_collision_free_step_size(mesh, V0, V0 + [0, 0, 1.0], obstacles) == 1.0
    hit, toi = ipc.point_obstacle_ccd(plane, V0[0], V1[0], min_distance=0.05)
    assert hit and toi == pytest.approx(0.9 * 0.35, rel=1e-12)
    hit, toi = ipc.point_obstacle_ccd(plane, V0[0], V1[0], tmax=0.2)
    assert not hit and toi == 0.2
    with pytest.raises(ipc.PenetrationError):
        ipc.obstacle_collision_free_step_size(mesh, V0 - [0, 0, 0.45], V1, obstacles)


def test_obstacle_friction_finite_differences():
    mesh, contacts = barrier_scene(SPHERE)
    friction = ipc.ObstacleFrictionCollisions()
    assert friction.empty()
    friction.build(contacts, mesh, TRI_V, DHAT, 10.0, 0.5)
    assert friction.size() == len(friction) == 3 and "size=3" in repr(friction)
    np.testing.assert_array_equal(friction.vertex_obstacle, [[0, 0], [1, 0], [2, 0]])
    assert (friction.normal_forces() > 0).all()
    D = ipc.FrictionPotential(1e-3)
    # Slips below, near and above eps.
    U = np.array([[2e-4, -1e-4, 0], [1.2e-3, 3e-4, 1e-4], [-3e-3, 2e-3, 0]])
    g = D.gradient(friction, mesh, U)
    np.testing.assert_allclose(g, central_difference(lambda u: D(friction, mesh, u), U, h=1e-9), rtol=1e-5,
                               atol=1e-7 * np.abs(g).max())
    H = dense(D.hessian(friction, mesh, U))
    fd = central_difference_jacobian(lambda u: D.gradient(friction, mesh, u), U, h=1e-9)
    np.testing.assert_allclose(H, fd, rtol=1e-4, atol=1e-5 * np.abs(H).max())
    Hp = dense(D.hessian(friction, mesh, U, ipc.PSDProjection.CLAMP))
    np.testing.assert_allclose(Hp, H, atol=1e-9 * np.abs(H).max())
    friction.clear()
    assert friction.empty() and D(friction, mesh, U) == 0


def test_obstacle_bad_input():
    with pytest.raises(ValueError, match="radius"):
        ipc.SphereObstacle([0, 0, 0.0], -1.0)
    with pytest.raises(ValueError, match="center"):
        ipc.SphereObstacle([0, math.nan, 0.0], 1.0)
    with pytest.raises(ValueError, match="normal"):
        ipc.PlaneObstacle([0, 0, 0.0], [0, 0, 0.0])
    with pytest.raises(ValueError, match="half_extents"):
        ipc.BoxObstacle(half_extents=[1, -1, 1.0])
    with pytest.raises(ValueError, match="3 entries"):
        ipc.CapsuleObstacle(a=[0, 0.0])
    sphere = ipc.SphereObstacle()
    with pytest.raises(ValueError, match="radius"):
        sphere.radius = 0.0
    assert sphere.radius == 1.0  # unchanged
    with pytest.raises(ValueError, match=r"\(n, 3\)|3 columns"):
        ipc.signed_distance(sphere, np.zeros((4, 2)))
    with pytest.raises(ValueError, match="obstacle must be"):
        ipc.signed_distance("sphere", [0, 0, 0.0])
    with pytest.raises(ValueError, match="SignedDistanceObstacle objects go in functions"):
        ipc.ObstacleSet([sphere_callbacks([0, 0, 0], 1.0)])
    with pytest.raises(ValueError, match="lipschitz"):
        ipc.SignedDistanceObstacle(lambda p: 0.0, lambda p: p, lipschitz=0.5)
    with pytest.raises(ValueError, match="callable"):
        ipc.SignedDistanceObstacle(1.0, lambda p: p)
    with pytest.raises(ValueError, match="resolution"):
        ipc.obstacle_mesh(sphere, resolution=2)
    with pytest.raises(ValueError, match="out of range"):
        ipc.ObstacleSet([sphere]).name(1)
    with pytest.raises(ValueError, match="out of range"):
        ipc.point_obstacle_ccd(ipc.ObstacleSet([sphere]), 3, [0, 0, 2.0], [0, 0, 1.5])
    with pytest.raises(ValueError, match="conservative_rescaling"):
        ipc.point_obstacle_ccd(sphere, [0, 0, 2.0], [0, 0, 1.5], conservative_rescaling=1.5)
    with pytest.raises(ValueError, match="p_t1"):
        ipc.point_obstacle_ccd(sphere, [0, 0, 2.0], [0, math.inf, 1.5])
    mesh, contacts = barrier_scene(SPHERE)
    B = ipc.BarrierPotential(DHAT)
    with pytest.raises(ValueError, match="dhat"):
        ipc.BarrierPotential(2 * DHAT)(contacts, mesh, TRI_V)
    with pytest.raises(ipc.PenetrationError):
        B(contacts, mesh, TRI_V - [0, 0, 0.03])
    bad = TRI_V.copy()
    bad[1, 1] = math.nan
    with pytest.raises(ValueError, match="non-finite"):
        B.gradient(contacts, mesh, bad)
    with pytest.raises(ValueError, match="mu"):
        ipc.ObstacleFrictionCollisions().build(contacts, mesh, TRI_V, DHAT, 1.0, -0.1)
    mesh2d = ipc.CollisionMesh(np.array([[0, 0.0], [1, 0]]), [[0, 1]])
    with pytest.raises(ValueError, match="3D"):
        ipc.ObstacleCollisions().build(mesh2d, mesh2d.rest_positions, ipc.ObstacleSet([sphere]), DHAT)
    with pytest.raises(ValueError, match="dhat"):
        ipc.ObstacleCollisions().build(mesh, TRI_V, ipc.ObstacleSet([sphere]), -1.0)
