"""CollisionMesh, broad phase, constraint sets, step size, intersections and
the mesh-level potentials."""

import math

import numpy as np
import pytest
import scipy.sparse

import ipc
from conftest import central_difference, central_difference_jacobian

# A point 0.3 mm above the middle of a triangle (3D), plus a separate far edge.
V_PT = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0.25, 0.25, 3e-4]], dtype=float)
F_PT = np.array([[0, 1, 2]])


def two_triangles(gap):
    """Triangle A at z = 0 and a flipped, shifted triangle B at z = gap whose
    vertex 3 lies over A's interior: one point-triangle pair (3 over A)."""
    V = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0.2, 0.2, gap], [0.2, 2.2, gap + 1.0], [2.2, 0.2, gap + 1.0]])
    F = np.array([[0, 1, 2], [3, 4, 5]])
    return V, F


def test_collision_mesh_properties_and_int_dtypes():
    V, F = two_triangles(1e-3)
    m64 = ipc.CollisionMesh(V, None, F.astype(np.int64))
    m32 = ipc.CollisionMesh(V, np.empty((0, 2), np.int32), F.astype(np.int32))
    for m in (m64, m32):
        assert m.dim == 3 and m.num_vertices == 6 and m.num_faces == 2 and m.num_edges == 6
        np.testing.assert_array_equal(m.faces, F)
        np.testing.assert_array_equal(m.rest_positions, V)
        assert list(m.collision_vertices) == list(range(6))
        assert m.is_on_face(0) and not m.is_particle(0) and not m.has_thickness
    assert m64.can_collide_face_vertex(0, 3) and not m64.can_collide_face_vertex(0, 1)
    np.testing.assert_array_equal(m64.edges, m32.edges)
    thick = ipc.CollisionMesh(V, None, F, np.full(6, 1e-4))
    assert thick.has_thickness and thick.max_radius == 1e-4
    tet = ipc.CollisionMesh.from_tetrahedra(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1.0]]), [[0, 1, 2, 3]])
    assert tet.num_faces == 4 and tet.num_edges == 6
    built = ipc.CollisionMesh.build(V, faces=F, radius=2e-4, prescribed_vertices=[True] * 3 + [False] * 3)
    assert built.is_prescribed(0) and not built.is_prescribed(3) and built.vertex_radii[5] == 2e-4
    rod = ipc.CollisionMesh(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0.0]]), [[0, 1]])
    assert rod.is_rod_edge(0) and rod.is_particle(2)


def test_collision_mesh_bad_input():
    V, F = two_triangles(1e-3)
    with pytest.raises(ValueError, match="references vertex 9"):
        ipc.CollisionMesh(V, None, np.array([[0, 1, 9]]))
    with pytest.raises(ValueError, match="integer dtype"):
        ipc.CollisionMesh(V, None, F.astype(float))
    with pytest.raises(ValueError, match=r"\(k, 3\)"):
        ipc.CollisionMesh(V, None, F[:, :2])
    bad = V.copy()
    bad[2, 1] = np.nan
    with pytest.raises(ValueError, match="non-finite"):
        ipc.CollisionMesh(bad, None, F)
    with pytest.raises(ValueError, match="2 or 3 columns"):
        ipc.CollisionMesh(np.zeros((4, 4)), None, None)
    with pytest.raises(ipc.DegenerateGeometryError):
        ipc.CollisionMesh(np.array([[0, 0, 0], [1, 0, 0], [2, 0, 0.0]]), None, [[0, 1, 2]])
    with pytest.raises(ValueError, match="32-bit"):
        ipc.CollisionMesh(V, None, np.array([[0, 1, 2**40]]))
    m = ipc.CollisionMesh(V, None, F)
    with pytest.raises(ValueError, match="out of range"):
        m.is_on_face(6)
    with pytest.raises(ValueError, match="out of range"):
        m.can_collide_edge_edge(0, -1)
    with pytest.raises(ValueError, match="rows"):
        m.check_positions(V[:5])


def test_candidates_and_broad_phases():
    V, F = two_triangles(1e-3)
    mesh = ipc.CollisionMesh(V, None, F)
    reference = ipc.static_candidates(mesh, V, 2e-3, ipc.BroadPhaseMethod.BRUTE_FORCE)
    for method in ["bvh", "sweep_and_prune", "spatial_hash", ipc.BroadPhaseMethod.BVH]:
        assert ipc.static_candidates(mesh, V, 2e-3, method) == reference
    assert [3, 0] in reference.face_vertex.tolist() or [0, 3] in reference.face_vertex.tolist()
    swept = ipc.swept_candidates(mesh, V, V, 2e-3)
    assert len(swept) >= 1
    c = ipc.Candidates(face_vertex=np.array([[0, 3]]))
    assert len(c) == 1 and c.face_vertex.tolist() == [[0, 3]]
    with pytest.raises(ValueError, match="unknown method"):
        ipc.static_candidates(mesh, V, 1e-3, "octree")
    with pytest.raises(ValueError):
        ipc.static_candidates(mesh, V[:, :2], 1e-3)


def test_two_triangle_contact_energy_against_direct_formula():
    gap, dhat, kappa = 1e-3, 2e-3, 10.0
    V, F = two_triangles(gap)
    mesh = ipc.CollisionMesh(V, None, F)
    collisions = ipc.Collisions()
    collisions.build(mesh, V, dhat)
    assert collisions.face_vertex.tolist() == [[3, 0, 1, 2]] and len(collisions) == 1
    assert collisions.dhat == dhat and collisions.offsets().tolist() == [0.0]
    B = ipc.BarrierPotential(dhat, kappa)
    expected = -kappa * (gap**2 - dhat**2) ** 2 * math.log(gap**2 / dhat**2)
    assert B(collisions, mesh, V) == pytest.approx(expected, rel=1e-12)
    # With candidates given explicitly: the same set.
    c2 = ipc.Collisions()
    c2.build(ipc.Candidates(face_vertex=[[0, 3]]), mesh, V, dhat)
    assert c2.face_vertex.tolist() == collisions.face_vertex.tolist()
    # Gradient only on z of the point and the triangle.
    g = B.gradient(collisions, mesh, V)
    assert g.shape == (18,)
    db = kappa * ipc.barrier_first_derivative(gap**2, dhat**2) * 2 * gap
    assert g[3 * 3 + 2] == pytest.approx(db, rel=1e-10)
    assert g[: 3 * 3].reshape(3, 3)[:, 2].sum() == pytest.approx(-db, rel=1e-10)


def test_barrier_potential_finite_differences():
    # Small scene: a tilted triangle over a triangle, several active pairs.
    V = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0],
                  [0.2, 0.2, 8e-4], [0.9, 0.1, 1.5e-3], [0.1, 0.8, 1.2e-3]], dtype=float)
    F = np.array([[0, 1, 2], [3, 5, 4]])
    dhat = 2e-3
    mesh = ipc.CollisionMesh(V, None, F)
    collisions = ipc.Collisions()
    collisions.build(mesh, V, dhat)
    assert len(collisions) >= 2
    B = ipc.BarrierPotential(dhat, 1.0)
    g = B.gradient(collisions, mesh, V)
    H = B.hessian(collisions, mesh, V)
    assert isinstance(H, scipy.sparse.csr_matrix) and H.shape == (18, 18)
    h = 1e-8
    np.testing.assert_allclose(g, central_difference(lambda y: B(collisions, mesh, y), V, h), rtol=1e-5,
                               atol=1e-6 * np.abs(g).max())
    Hfd = central_difference_jacobian(lambda y: B.gradient(collisions, mesh, y), V, h)
    np.testing.assert_allclose(H.toarray(), Hfd, rtol=1e-4, atol=1e-5 * np.abs(Hfd).max())
    Hp = B.hessian(collisions, mesh, V, ipc.PSDProjection.CLAMP).toarray()
    assert np.linalg.eigvalsh(0.5 * (Hp + Hp.T)).min() > -1e-8 * np.abs(Hp).max()
    with pytest.raises(ValueError, match="dhat"):
        ipc.BarrierPotential(1e-3)(collisions, mesh, V)
    with pytest.raises(ValueError, match="non-finite"):
        bad = V.copy()
        bad[0, 0] = np.inf
        B(collisions, mesh, bad)
    with pytest.raises(ipc.PenetrationError):
        inside = V.copy()
        inside[3, 2] = 0.0
        B(collisions, mesh, inside)


def test_step_size_intersections_and_minimum_distance():
    V, F = two_triangles(1e-2)
    mesh = ipc.CollisionMesh(V, None, F)
    V1 = V.copy()
    V1[3:, 2] -= 0.03  # triangle B moves 3 cm down: vertex 3 crosses A at t = 1/3
    assert not ipc.has_intersections(mesh, V)
    assert ipc.has_intersections(mesh, V1)
    assert ipc.minimum_distance(mesh, V) == pytest.approx(1e-2, rel=1e-12)
    for ccd in (None, ipc.AdditiveCCD(), ipc.InclusionCCD(), ipc.RootFindingCCD()):
        alpha = ipc.collision_free_step_size(mesh, V, V1, ccd=ccd)
        assert 0.25 < alpha <= 1 / 3
        assert not ipc.has_intersections(mesh, V + alpha * (V1 - V))
    candidates = ipc.swept_candidates(mesh, V, V1)
    assert ipc.collision_free_step_size(candidates, mesh, V, V1) == ipc.collision_free_step_size(mesh, V, V1)
    assert ipc.collision_free_step_size(mesh, V, V) == 1.0
    assert ipc.step_start_state(mesh, V).valid()
    state = ipc.step_start_state(mesh, V, 0.02)
    assert state.status == ipc.StepStartStatus.WITHIN_OFFSET and state.message
    with pytest.raises(ipc.PenetrationError):
        ipc.check_step_start(mesh, V, 0.02)
    with pytest.raises(ValueError, match="columns"):
        ipc.collision_free_step_size(mesh, V, V1[:, :2])
    with pytest.raises(ValueError, match="ccd must be"):
        ipc.collision_free_step_size(mesh, V, V1, ccd="additive")
    with pytest.raises(ValueError, match="non-finite"):
        ipc.has_intersections(mesh, np.full_like(V, np.nan))


def two_triangle_contacts(gap, dhat, kappa, mu):
    """two_triangles(gap) with its contact set and lagged friction contacts."""
    V, F = two_triangles(gap)
    mesh = ipc.CollisionMesh(V, None, F)
    collisions = ipc.Collisions()
    collisions.build(mesh, V, dhat)
    contacts = ipc.FrictionCollisions()
    contacts.build(collisions, mesh, V, dhat, kappa, mu)
    return V, mesh, collisions, contacts


def test_friction():
    gap, dhat, kappa, mu = 1e-3, 2e-3, 10.0, 0.5
    V, mesh, collisions, contacts = two_triangle_contacts(gap, dhat, kappa, mu)
    assert len(contacts) == 1
    expected_force = kappa * 2 * gap * abs(ipc.barrier_first_derivative(gap**2, dhat**2))
    assert contacts.normal_forces()[0] == pytest.approx(expected_force, rel=1e-10)
    D = ipc.FrictionPotential(1e-4)
    U = np.zeros_like(V)
    assert D(contacts, mesh, U) == pytest.approx(mu * expected_force * 1e-4 / 3, rel=1e-10)  # f0(0) = eps / 3
    U[3:, 0] = 1e-3  # triangle B slides 1 mm along x: past eps, D = mu lambda f0(|u|) = mu lambda |u|
    assert D(contacts, mesh, U) == pytest.approx(mu * expected_force * 1e-3, rel=1e-8)
    U[3:, 0] = 3e-5  # inside the static zone: check derivatives
    g = D.gradient(contacts, mesh, U)
    np.testing.assert_allclose(g, central_difference(lambda u: D(contacts, mesh, u), U, 1e-9), rtol=1e-5,
                               atol=1e-7 * np.abs(g).max())
    H = D.hessian(contacts, mesh, U)
    Hfd = central_difference_jacobian(lambda u: D.gradient(contacts, mesh, u), U, 1e-9)
    np.testing.assert_allclose(H.toarray(), Hfd, rtol=1e-4, atol=1e-6 * np.abs(Hfd).max())
    # Sliding 1 mm along x: the exact Hessian has no curvature along the
    # slip, the majorizer has mu lambda / |u| there, as both have across it.
    U[3:, 0] = 1e-3
    M = ipc.FrictionPotential(1e-4, hessian_form=ipc.FrictionHessianForm.MAJORIZER)
    assert M.hessian_form == ipc.FrictionHessianForm.MAJORIZER
    assert D.hessian_form == ipc.FrictionHessianForm.EXACT
    H_exact, H_major = D.hessian(contacts, mesh, U).toarray(), M.hessian(contacts, mesh, U).toarray()
    x_of_b = 3 * 3  # the x coordinate of triangle B's first vertex
    assert abs(H_exact[x_of_b, x_of_b]) < 1e-9 * np.abs(H_exact).max()
    assert H_major[x_of_b, x_of_b] == pytest.approx(mu * expected_force / 1e-3, rel=1e-8)
    y_of_b = x_of_b + 1
    assert H_major[y_of_b, y_of_b] == pytest.approx(H_exact[y_of_b, y_of_b], rel=1e-12)
    assert H_exact[y_of_b, y_of_b] == pytest.approx(mu * expected_force / 1e-3, rel=1e-8)
    with pytest.raises(ValueError, match="mu"):
        contacts.build(collisions, mesh, V, dhat, kappa, -1.0)
    with pytest.raises(ValueError, match="eps"):
        ipc.FrictionPotential(0.0)


def test_strain_limit_potential():
    X = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0.0]])
    F = np.array([[0, 1, 2]], dtype=np.int32)
    params = ipc.StrainLimitParameters(limit=1.1, threshold=1.0, thickness=1e-3, stiffness=1e3)
    S = ipc.StrainLimitPotential(X, F, params)
    assert S.num_triangles == 1
    assert S(X) == 0.0 and S.is_feasible(X)
    stretched = X * np.array([1.05, 1.0, 1.0])
    assert S(stretched) > 0 and S.is_feasible(stretched)
    g = S.gradient(stretched)
    np.testing.assert_allclose(g, central_difference(S, stretched, 1e-7), rtol=1e-5, atol=1e-8 * np.abs(g).max())
    H = S.hessian(stretched)
    Hfd = central_difference_jacobian(S.gradient, stretched, 1e-7)
    np.testing.assert_allclose(H.toarray(), Hfd, rtol=1e-4, atol=1e-6 * np.abs(Hfd).max())
    too_far = X * np.array([1.2, 1.0, 1.0])
    assert not S.is_feasible(too_far)
    with pytest.raises(ValueError):
        S(too_far)
    with pytest.raises(ValueError, match="threshold"):
        ipc.StrainLimitParameters(limit=0.9, threshold=1.0)
    with pytest.raises(ValueError, match="references vertex"):
        ipc.StrainLimitPotential(X, np.array([[0, 1, 3]]))


def test_collision_filter():
    # Two triangles (groups 0 and 1) where B's vertex 3 comes down through A.
    V, F = two_triangles(1e-3)
    dhat, kappa = 2e-3, 10.0
    mesh = ipc.CollisionMesh(V, None, F)
    assert not mesh.has_collision_filter and mesh.num_collision_groups == 0
    mesh.set_collision_groups(np.array([0, 0, 0, 1, 1, 1]))
    assert mesh.num_collision_groups == 2 and mesh.collision_groups.tolist() == [0, 0, 0, 1, 1, 1]
    assert not mesh.has_collision_filter  # groups alone rule nothing out
    B = ipc.BarrierPotential(dhat, kappa)

    def energy():
        c = ipc.Collisions()
        c.build(mesh, V, dhat)
        return len(c), B(c, mesh, V)

    count, unscaled = energy()
    assert count == 1 and unscaled > 0
    # A stiffness scale multiplies the pair's barrier.
    mesh.set_stiffness_scale(0, 1, 2.5)
    assert mesh.has_collision_filter and mesh.stiffness_scale(1, 0) == 2.5
    assert energy()[1] == pytest.approx(2.5 * unscaled, rel=1e-14)
    # Disabled: no pair, no CCD stop, no intersection reported.
    V1 = V.copy()
    V1[3:, 2] -= 0.03
    assert ipc.collision_free_step_size(mesh, V, V1) < 1
    assert ipc.has_intersections(mesh, V1)
    mesh.disable_collisions(1, 0)
    assert not mesh.groups_can_collide(0, 1)
    assert energy() == (0, 0.0)
    assert ipc.collision_free_step_size(mesh, V, V1) == 1.0
    assert not ipc.has_intersections(mesh, V1)
    mesh.enable_collisions(0, 1)
    assert mesh.groups_can_collide(0, 1) and mesh.stiffness_scale(0, 1) == 2.5
    mesh.clear_collision_filter()
    assert energy()[1] == pytest.approx(unscaled, rel=1e-14)
    # Bad input.
    with pytest.raises(ValueError, match="set_collision_groups"):
        mesh.set_collision_groups(np.array([0, 0, 0, -1, 1, 1]))
    with pytest.raises(ValueError):
        mesh.set_collision_groups(np.array([0, 1]))
    mesh.set_collision_groups(np.array([0, 0, 0, 1, 1, 1]))
    for bad in (0.0, -1.0, math.nan, math.inf):
        with pytest.raises(ValueError):
            mesh.set_stiffness_scale(0, 1, bad)
    with pytest.raises(ValueError):
        mesh.disable_collisions(0, 2)


def test_vertex_map_and_triangles():
    """The potentials' terms in the rows of a larger mesh (S g, S H S^T with
    the selection matrix S) and the Hessian's triangles."""
    gap, dhat, kappa, mu = 1e-3, 2e-3, 10.0, 0.5
    V, mesh, collisions, contacts = two_triangle_contacts(gap, dhat, kappa, mu)
    full_vertex, n_full = np.array([7, 0, 3, 5, 1, 8]), 9
    vertex_map = ipc.VertexMap(full_vertex, n_full)
    assert vertex_map.num_vertices == 6 and vertex_map.num_full_vertices == 9
    S = np.zeros((3 * n_full, 3 * len(V)))
    for v, f in enumerate(full_vertex):
        S[3 * f:3 * f + 3, 3 * v:3 * v + 3] = np.eye(3)
    U = np.zeros_like(V)
    U[3:, 0] = 3e-5
    B, D = ipc.BarrierPotential(dhat, kappa), ipc.FrictionPotential(1e-4)
    for gradient, hessian in [(lambda **k: B.gradient(collisions, mesh, V, **k),
                               lambda **k: B.hessian(collisions, mesh, V, **k)),
                              (lambda **k: D.gradient(contacts, mesh, U, **k),
                               lambda **k: D.hessian(contacts, mesh, U, **k))]:
        g, H = gradient(), hessian().toarray()
        assert np.abs(H).max() > 0
        np.testing.assert_allclose(gradient(vertex_map=vertex_map), S @ g, rtol=0, atol=1e-13 * np.abs(g).max())
        mapped = hessian(vertex_map=vertex_map).toarray()
        np.testing.assert_allclose(mapped, S @ H @ S.T, rtol=0, atol=1e-13 * np.abs(H).max())
        np.testing.assert_array_equal(hessian(triangle=ipc.SparseTriangle.UPPER).toarray(), np.triu(H))
        np.testing.assert_array_equal(hessian(triangle=ipc.SparseTriangle.LOWER).toarray(), np.tril(H))
        np.testing.assert_array_equal(hessian(vertex_map=vertex_map, triangle=ipc.SparseTriangle.LOWER).toarray(),
                                      np.tril(mapped))
    with pytest.raises(ValueError, match="maps to vertex 9"):
        ipc.VertexMap([0, 9], 9)
    with pytest.raises(ValueError, match="covers 2 vertices"):
        B.gradient(collisions, mesh, V, vertex_map=ipc.VertexMap([0, 1], 3))
