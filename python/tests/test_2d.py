"""2D end to end: a square above a ground edge through Collisions, the
barrier and friction potentials (central finite differences), the step size
against its closed form, has_intersections and minimum_distance, and the 2D
point-point and point-edge CCD queries of every method."""

import numpy as np
import pytest

import ipc
from conftest import central_difference, central_difference_jacobian

DHAT = 0.1


def dense(H):
    return H.toarray() if hasattr(H, "toarray") else H


def square_above_ground(height, tilt=0.0):
    """Ground edge (-1, 0)-(1, 0) and a 0.2 m square whose lower corners are
    `height` (+/- tilt) above it."""
    V = np.array([[-1, 0], [1, 0], [-0.1, height - tilt], [0.1, height + tilt], [0.1, height + 0.2],
                  [-0.1, height + 0.2]], float)
    E = np.array([[0, 1], [2, 3], [3, 4], [4, 5], [5, 2]])
    return ipc.CollisionMesh(V, E), V


def test_square_barrier_and_friction_2d():
    mesh, V = square_above_ground(0.04, tilt=0.01)
    assert mesh.dim == 2 and mesh.num_faces == 0
    collisions = ipc.Collisions()
    collisions.build(mesh, V, DHAT)
    # The two lower corners against the ground edge (and the ground's ends are far).
    np.testing.assert_array_equal(collisions.edge_vertex, [[2, 0, 1], [3, 0, 1]])
    assert collisions.face_vertex.shape == (0, 4) and collisions.edge_edge.shape == (0, 4)
    B = ipc.BarrierPotential(DHAT, stiffness=100.0)
    expected = 100.0 * ipc.barrier(np.array([0.03, 0.05]) ** 2, DHAT**2).sum()
    assert B(collisions, mesh, V) == pytest.approx(expected, rel=1e-12)
    g = B.gradient(collisions, mesh, V)
    assert g.shape == (12,)
    np.testing.assert_allclose(g, central_difference(lambda x: B(collisions, mesh, x), V, h=1e-7), rtol=1e-6,
                               atol=1e-7 * np.abs(g).max())
    H = dense(B.hessian(collisions, mesh, V))
    assert H.shape == (12, 12)
    fd = central_difference_jacobian(lambda x: B.gradient(collisions, mesh, x), V, h=1e-7)
    np.testing.assert_allclose(H, fd, rtol=1e-5, atol=1e-6 * np.abs(H).max())
    Hp = dense(B.hessian(collisions, mesh, V, ipc.PSDProjection.CLAMP))
    assert np.linalg.eigvalsh(Hp).min() > -1e-9 * np.abs(Hp).max()
    # Friction in 2D: the slip is the x displacement relative to the ground.
    contacts = ipc.FrictionCollisions()
    contacts.build(collisions, mesh, V, DHAT, 100.0, 0.5)
    lam = contacts.normal_forces()
    assert len(contacts) == 2 and (lam > 0).all()
    D = ipc.FrictionPotential(1e-3)
    U = np.zeros((6, 2))
    U[2:, 0] = 0.01  # the square slides by 10 eps
    gD = D.gradient(contacts, mesh, U)
    assert gD.shape == (12,)
    # Sliding: each corner feels mu lambda against the motion, the ground the opposite.
    assert gD[4] == pytest.approx(0.5 * lam[0], rel=1e-12) and gD[6] == pytest.approx(0.5 * lam[1], rel=1e-12)
    assert gD[0] + gD[2] == pytest.approx(-0.5 * lam.sum(), rel=1e-12)
    U = np.array([[0, 0], [1e-4, 0], [4e-4, 1e-5], [1.5e-3, -2e-5], [0, 0], [0, 0]])
    gD = D.gradient(contacts, mesh, U)
    np.testing.assert_allclose(gD, central_difference(lambda u: D(contacts, mesh, u), U, h=1e-9), rtol=1e-5,
                               atol=1e-6 * np.abs(gD).max())
    HD = dense(D.hessian(contacts, mesh, U))
    fd = central_difference_jacobian(lambda u: D.gradient(contacts, mesh, u), U, h=1e-9)
    np.testing.assert_allclose(HD, fd, rtol=1e-4, atol=1e-5 * np.abs(HD).max())
    # Candidates in 2D.
    candidates = ipc.static_candidates(mesh, V, DHAT)
    assert candidates.edge_vertex.shape[1] == 2 and len(candidates.edge_vertex) >= 2


def test_step_size_2d_closed_form():
    mesh, V0 = square_above_ground(0.05)
    V1 = V0.copy()
    V1[2:, 1] -= 0.1  # the square falls by 0.1 m: it would cross the ground at t = 0.5
    for ccd in (None, ipc.AdditiveCCD()):
        alpha = ipc.collision_free_step_size(mesh, V0, V1, ccd=ccd)
        # Additive CCD keeps 10 % of the gap (exact for a translation).
        assert alpha == pytest.approx(0.9 * 0.05 / 0.1, rel=1e-6) and alpha <= 0.45
    alpha = ipc.collision_free_step_size(mesh, V0, V1, min_distance=0.01)
    assert alpha == pytest.approx(0.9 * 0.04 / 0.1, rel=1e-6)
    for ccd in (ipc.RootFindingCCD(), ipc.InclusionCCD()):
        assert 0.3 < ipc.collision_free_step_size(mesh, V0, V1, ccd=ccd) < 0.5
    candidates = ipc.swept_candidates(mesh, V0, V1)
    assert ipc.collision_free_step_size(candidates, mesh, V0, V1) == pytest.approx(0.45, rel=1e-6)
    assert ipc.collision_free_step_size(mesh, V0, V0 + [0.0, 0.5]) == 1.0


def test_intersections_and_distance_2d():
    mesh, V = square_above_ground(0.05)
    assert not ipc.has_intersections(mesh, V)
    assert ipc.minimum_distance(mesh, V) == pytest.approx(0.05)
    assert ipc.step_start_state(mesh, V).valid()
    crossing = V.copy()
    crossing[2:, 1] -= 0.1  # the square's sides cross the ground
    assert ipc.has_intersections(mesh, crossing)
    # Distances are unsigned: the corners 5 cm below the edge are 5 cm away from it.
    assert ipc.minimum_distance(mesh, crossing) == pytest.approx(0.05)
    with pytest.raises(ValueError, match="columns"):
        ipc.has_intersections(mesh, np.zeros((6, 3)))
    with pytest.raises(ValueError, match="faces"):
        ipc.CollisionMesh(V, None, [[0, 1, 2]])
    collisions = ipc.Collisions()
    with pytest.raises(ValueError, match="columns"):
        collisions.build(mesh, np.zeros((6, 3)), DHAT)


@pytest.mark.parametrize("ccd", [ipc.AdditiveCCD(), ipc.InclusionCCD(), ipc.RootFindingCCD()])
def test_ccd_queries_2d(ccd):
    # A point 1 m above an edge falls by 2 m: exact impact at t = 0.5.
    p0, p1 = np.array([0.0, 1.0]), np.array([0.0, -1.0])
    e0, e1 = np.array([-1.0, 0.0]), np.array([1.0, 0.0])
    hit, toi = ccd.point_edge_ccd(p0, e0, e1, p1, e0, e1)
    assert hit and 0.3 < toi <= 0.5
    z = lambda a: np.append(a, 0.0)  # noqa: E731
    hit3, toi3 = ccd.point_edge_ccd(z(p0), z(e0), z(e1), z(p1), z(e0), z(e1))
    assert hit3 and toi == pytest.approx(toi3, rel=1e-9)
    result = ccd.point_edge_ccd_result(p0, e0, e1, p1, e0, e1, min_distance=0.1)
    assert result.status == ipc.CCDStatus.HIT and result.toi < toi
    # Point-point: two points approaching head-on, contact at t = 0.5.
    q0, q1 = np.array([1.0, 0.0]), np.array([-1.0, 0.0])
    hit, toi_pp = ccd.point_point_ccd(p0, q0, p1, q1)
    assert hit and 0.3 < toi_pp <= 0.5 + 1e-9
    # A miss in 2D.
    assert not ccd.point_edge_ccd(p0, e0, e1, p0 + [0, 0.5], e0, e1)[0]
    # Batches of 2D queries equal the single ones.
    x_t0 = np.array([[p0, e0, e1], [p0 + [0.3, 0], e0, e1]])
    x_t1 = np.array([[p1, e0, e1], [p1 + [0.3, 0.5], e0, e1]])
    toi_b, status, _ = ccd.point_edge_ccd_batch(x_t0, x_t1)
    assert toi_b[0] == toi and status[0] == int(ipc.CCDStatus.HIT)
    assert toi_b[1] == ccd.point_edge_ccd_result(*x_t0[1], *x_t1[1]).toi
    toi_pp_b, _, _ = ccd.point_point_ccd_batch(np.array([[p0, q0]]), np.array([[p1, q1]]))
    assert toi_pp_b[0] == toi_pp
    with pytest.raises(ValueError, match="2 entries"):
        ccd.point_edge_ccd(p0, e0, z(e1), p1, e0, e1)
    with pytest.raises(ValueError, match="shape"):
        ccd.point_triangle_ccd_batch(np.zeros((1, 4, 2)), np.zeros((1, 4, 2)))
    with pytest.raises(ValueError, match="coordinates per point"):
        ccd.point_edge_ccd_batch(x_t0, np.zeros((2, 3, 3)))
