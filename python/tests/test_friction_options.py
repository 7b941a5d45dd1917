"""Friction options (static/kinetic coefficients, per-vertex coefficients and
their blend, anisotropic friction), adhesion (normal and tangential) and the
barrier shapes: closed forms, central finite differences and bad input."""

import math

import numpy as np
import pytest

import ipc
from conftest import central_difference, central_difference_jacobian

EPS = 1e-3  # friction slip threshold (m)


def dense(H):
    return H.toarray() if hasattr(H, "toarray") else H


def ground_and_triangle():
    """A ground square (two triangles, z = 0) and a small triangle 2 to 4 mm
    above it: face-vertex contacts plus an edge-edge one over the diagonal."""
    V = np.array([[-1, -1, 0], [1, -1, 0], [1, 1, 0], [-1, 1, 0],
                  [0.15, 0.1, 2e-3], [0.35, 0.12, 3e-3], [0.12, 0.3, 4e-3]], float)
    F = np.array([[0, 1, 2], [0, 2, 3], [4, 5, 6]])
    mesh = ipc.CollisionMesh(V, None, F)
    collisions = ipc.Collisions()
    collisions.build(mesh, V, 5e-3)
    return mesh, V, collisions


def particle_above_triangle(height=2e-3):
    """One ground triangle and a free particle above its interior: a single
    face-vertex contact."""
    V = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0.25, 0.25, height]], float)
    mesh = ipc.CollisionMesh(V, None, [[0, 1, 2]])
    collisions = ipc.Collisions()
    collisions.build(mesh, V, 5e-3)
    assert len(collisions.face_vertex) == 1 and len(collisions) == 1
    return mesh, V, collisions


def slips():
    """Displacements of the upper triangle: one vertex sticking, one in the
    static-to-kinetic transition, one sliding (ground fixed)."""
    U = np.zeros((7, 3))
    U[4] = [4e-4, 2e-4, 0]
    U[5] = [-1.2e-3, 0.6e-3, 1e-5]
    U[6] = [2e-3, 2.5e-3, 0]
    return U


def check_friction_derivatives(D, contacts, mesh, U, projection=ipc.PSDProjection.NONE):
    g = D.gradient(contacts, mesh, U)
    fd = central_difference(lambda u: D(contacts, mesh, u), U, h=1e-9)
    np.testing.assert_allclose(g, fd, rtol=1e-5, atol=1e-6 * np.abs(g).max())
    H = dense(D.hessian(contacts, mesh, U))
    fdH = central_difference_jacobian(lambda u: D.gradient(contacts, mesh, u), U, h=1e-9)
    np.testing.assert_allclose(H, fdH, rtol=1e-4, atol=1e-5 * np.abs(H).max())
    return g, H


def test_static_kinetic_friction():
    mesh, V, collisions = ground_and_triangle()
    assert len(collisions.edge_edge) >= 1 and len(collisions.face_vertex) == 3
    contacts = ipc.FrictionCollisions()
    contacts.build(collisions, mesh, V, 5e-3, 1.0, mu_s=0.6, mu_k=0.3, transition=1.0)
    np.testing.assert_allclose(contacts.friction_coefficients(), 0.3)
    np.testing.assert_allclose(contacts.static_friction_coefficients(), 0.6)
    D = ipc.FrictionPotential(EPS)
    _, H = check_friction_derivatives(D, contacts, mesh, slips())
    # Indefinite in the transition; the projection makes it PSD.
    Hp = dense(D.hessian(contacts, mesh, slips(), ipc.PSDProjection.CLAMP))
    assert np.linalg.eigvalsh(Hp).min() > -1e-9 * np.abs(H).max()
    # mu_s == mu_k is the single-coefficient build exactly.
    same, scalar = ipc.FrictionCollisions(), ipc.FrictionCollisions()
    same.build(collisions, mesh, V, 5e-3, 1.0, 0.4, 0.4)
    scalar.build(collisions, mesh, V, 5e-3, 1.0, 0.4)
    assert D(same, mesh, slips()) == D(scalar, mesh, slips())


def test_static_and_kinetic_forces_of_one_contact():
    mesh, V, collisions = particle_above_triangle()
    contacts = ipc.FrictionCollisions()
    contacts.build(collisions, mesh, V, 5e-3, 1.0, 0.6, 0.3, transition=1.0)
    lam = contacts.normal_forces()[0]
    D = ipc.FrictionPotential(EPS)
    U = np.zeros((4, 3))
    U[3] = [0.5 * EPS, 0, 0]  # sticking: mu_s lambda f1(y), f1(eps / 2) = 3/4
    assert np.linalg.norm(D.gradient(contacts, mesh, U)[9:]) == pytest.approx(0.6 * lam * 0.75, rel=1e-12)
    U[3] = [0, 5 * EPS, 0]  # sliding beyond (1 + transition) eps: mu_k lambda
    assert np.linalg.norm(D.gradient(contacts, mesh, U)[9:]) == pytest.approx(0.3 * lam, rel=1e-12)


def test_anisotropic_friction():
    mesh, V, collisions = particle_above_triangle()
    contacts = ipc.FrictionCollisions()
    contacts.build(collisions, mesh, V, 5e-3, 1.0, 0.4)
    contacts.make_anisotropic([2.0, 0, 0], 1.0, 0.5)
    lam = contacts.normal_forces()[0]
    D = ipc.FrictionPotential(EPS)
    U = np.zeros((4, 3))
    U[3] = [10 * EPS, 0, 0]  # sliding along the material direction: mu * 1
    assert np.linalg.norm(D.gradient(contacts, mesh, U)[9:]) == pytest.approx(0.4 * lam, rel=1e-12)
    U[3] = [0, 10 * EPS, 0]  # across it: mu * 0.5
    assert np.linalg.norm(D.gradient(contacts, mesh, U)[9:]) == pytest.approx(0.2 * lam, rel=1e-12)
    # FD checks on the multi-contact scene.
    mesh, V, collisions = ground_and_triangle()
    contacts = ipc.FrictionCollisions()
    contacts.build(collisions, mesh, V, 5e-3, 1.0, 0.4)
    contacts.make_anisotropic([1.0, 1.0, 0.2], 1.0, 0.3)
    check_friction_derivatives(D, contacts, mesh, slips())


def test_per_vertex_friction():
    mesh, V, collisions = ground_and_triangle()
    D = ipc.FrictionPotential(EPS)
    U = slips()
    uniform, scalar = ipc.FrictionCollisions(), ipc.FrictionCollisions()
    uniform.build(collisions, mesh, V, 5e-3, 1.0, np.full(7, 0.35))
    scalar.build(collisions, mesh, V, 5e-3, 1.0, 0.35)
    assert D(uniform, mesh, U) == D(scalar, mesh, U)
    np.testing.assert_array_equal(uniform.friction_coefficients(), scalar.friction_coefficients())
    np.testing.assert_array_equal(D.gradient(uniform, mesh, U), D.gradient(scalar, mesh, U))
    varying = ipc.FrictionCollisions()
    mu = np.linspace(0.1, 0.7, 7)
    varying.build(collisions, mesh, V, 5e-3, 1.0, mu, ipc.FrictionBlend.MEAN)
    assert (varying.friction_coefficients() > 0.1).all() and (varying.friction_coefficients() < 0.7).all()
    check_friction_derivatives(D, varying, mesh, U)
    both = ipc.FrictionCollisions()
    both.build(collisions, mesh, V, 5e-3, 1.0, mu + 0.2, mu, ipc.FrictionBlend.GEOMETRIC_MEAN, transition=0.5)
    assert (both.static_friction_coefficients() > both.friction_coefficients()).all()
    check_friction_derivatives(D, both, mesh, U)
    # The blend of one point-triangle contact: point 0.1, triangle 0.4.
    mesh, V, collisions = particle_above_triangle()
    mu = np.array([0.4, 0.4, 0.4, 0.1])
    for blend, expected in [(ipc.FrictionBlend.GEOMETRIC_MEAN, 0.2), (ipc.FrictionBlend.MEAN, 0.25),
                            (ipc.FrictionBlend.MIN, 0.1), (ipc.FrictionBlend.MAX, 0.4)]:
        contacts = ipc.FrictionCollisions()
        contacts.build(collisions, mesh, V, 5e-3, 1.0, mu, blend)
        assert contacts.friction_coefficients()[0] == pytest.approx(expected, rel=1e-12)
        assert ipc.blend_friction_coefficients(0.1, 0.4, blend) == pytest.approx(expected, rel=1e-12)


def test_friction_options_bad_input():
    mesh, V, collisions = particle_above_triangle()
    contacts = ipc.FrictionCollisions()
    with pytest.raises(ValueError, match="one entry per mesh vertex"):
        contacts.build(collisions, mesh, V, 5e-3, 1.0, np.full(3, 0.3))
    with pytest.raises(ValueError, match=r"mu\[2\] = -0.1"):
        contacts.build(collisions, mesh, V, 5e-3, 1.0, np.array([0.3, 0.3, -0.1, 0.3]))
    with pytest.raises(ValueError, match="per-vertex mu_k"):
        contacts.build(collisions, mesh, V, 5e-3, 1.0, np.full(4, 0.3), np.array([0.3, math.nan, 0.3, 0.3]))
    with pytest.raises(ValueError, match="transition"):
        contacts.build(collisions, mesh, V, 5e-3, 1.0, 0.5, 0.3, transition=0.0)
    with pytest.raises(ValueError, match="mu_s"):
        contacts.build(collisions, mesh, V, 5e-3, 1.0, -0.5, 0.3)
    contacts.build(collisions, mesh, V, 5e-3, 1.0, 0.5)
    with pytest.raises(ValueError, match="non-zero"):
        contacts.make_anisotropic([0, 0, 0.0], 1.0, 0.5)
    with pytest.raises(ValueError, match="scale_b"):
        contacts.make_anisotropic([1, 0, 0.0], 1.0, -0.5)
    with pytest.raises(ValueError, match="3 entries"):
        contacts.make_anisotropic([1, 0], 1.0, 0.5)
    with pytest.raises(ValueError, match="mu_2"):
        ipc.blend_friction_coefficients(0.1, math.nan)


# ----------------------------------------------------------------- adhesion

DHAT_P, DHAT_A, Y = 1e-3, 3e-3, 2.0


def two_particles(gaps):
    V = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0.2, 0.2, gaps[0]], [0.5, 0.2, gaps[1]]], float)
    mesh = ipc.CollisionMesh(V, None, [[0, 1, 2]])
    collisions = ipc.Collisions()
    collisions.build(mesh, V, 4e-3)
    return mesh, V, collisions


def test_normal_adhesion_profile():
    s = np.array([0.0, 0.5e-3, 1e-3, 2e-3, 3e-3, 4e-3])
    A = ipc.normal_adhesion_potential(s, DHAT_P, DHAT_A, Y)
    assert A[0] == pytest.approx(-Y * DHAT_A / 2) and A[-2] == 0 and A[-1] == 0
    assert A[3] == pytest.approx(-Y * (DHAT_A - 2e-3) ** 2 / (2 * (DHAT_A - DHAT_P)))
    np.testing.assert_allclose(ipc.normal_adhesion_force(s, DHAT_P, DHAT_A, Y), [0, 1, 2, 1, 0, 0])
    for x in (0.4e-3, 1.7e-3):
        assert ipc.normal_adhesion_force(x, DHAT_P, DHAT_A, Y) == pytest.approx(
            (ipc.normal_adhesion_potential(x + 1e-9, DHAT_P, DHAT_A, Y)
             - ipc.normal_adhesion_potential(x - 1e-9, DHAT_P, DHAT_A, Y)) / 2e-9, rel=1e-6)
    np.testing.assert_allclose(ipc.normal_adhesion_force_derivative(np.array([0.5e-3, 2e-3, 5e-3]), DHAT_P, DHAT_A, Y),
                               [Y / DHAT_P, -Y / (DHAT_A - DHAT_P), 0])


def test_normal_adhesion_potential():
    A = ipc.NormalAdhesionPotential(DHAT_P, DHAT_A, Y)
    assert (A.dhat_p, A.dhat_a, A.Y) == (DHAT_P, DHAT_A, Y)
    mesh, V, collisions = two_particles([0.6e-3, 2e-3])
    assert len(collisions) == 2
    expected = ipc.normal_adhesion_potential(np.array([0.6e-3, 2e-3]), DHAT_P, DHAT_A, Y).sum()
    assert A(collisions, mesh, V) == pytest.approx(expected, rel=1e-12)
    g = A.gradient(collisions, mesh, V)
    np.testing.assert_allclose(g, central_difference(lambda x: A(collisions, mesh, x), V, h=1e-8), rtol=1e-5,
                               atol=1e-6 * np.abs(g).max())
    H = dense(A.hessian(collisions, mesh, V))
    fd = central_difference_jacobian(lambda x: A.gradient(collisions, mesh, x), V, h=1e-8)
    np.testing.assert_allclose(H, fd, rtol=1e-4, atol=1e-5 * np.abs(H).max())
    Hp = dense(A.hessian(collisions, mesh, V, ipc.PSDProjection.CLAMP))
    assert np.linalg.eigvalsh(Hp).min() > -1e-9 * np.abs(H).max()
    # Zero beyond the adhesion range (both stencils within the set's dhat = 4 mm).
    mesh, V, collisions = two_particles([3.2e-3, 3.9e-3])
    assert len(collisions) == 2
    assert A(collisions, mesh, V) == 0
    assert not A.gradient(collisions, mesh, V).any() and dense(A.hessian(collisions, mesh, V)).sum() == 0
    with pytest.raises(ValueError, match="dhat_a"):
        ipc.NormalAdhesionPotential(DHAT_P, DHAT_P / 2, Y)
    with pytest.raises(ValueError, match="Y"):
        ipc.NormalAdhesionPotential(DHAT_P, DHAT_A, -1.0)
    small = ipc.Collisions()
    small.build(mesh, V, 2e-3)
    with pytest.raises(ValueError, match="dhat_a"):
        A(small, mesh, V)


def test_tangential_adhesion():
    A = ipc.NormalAdhesionPotential(DHAT_P, DHAT_A, Y)
    mesh, V, collisions = two_particles([0.6e-3, 2e-3])
    contacts = ipc.tangential_adhesion_collisions(collisions, mesh, V, A, 0.5)
    np.testing.assert_allclose(contacts.normal_forces(), [1.2, 1.0], rtol=1e-12)
    T = ipc.TangentialAdhesionPotential(1e-3)
    assert T.eps == 1e-3
    U = np.zeros((5, 3))
    U[3] = [0.4e-3, 0.2e-3, 0]  # rising force
    U[4] = [1.1e-3, -0.5e-3, 0]  # weakening bond
    g = T.gradient(contacts, mesh, U)
    np.testing.assert_allclose(g, central_difference(lambda u: T(contacts, mesh, u), U, h=1e-9), rtol=1e-5,
                               atol=1e-6 * np.abs(g).max())
    H = dense(T.hessian(contacts, mesh, U))
    fd = central_difference_jacobian(lambda u: T.gradient(contacts, mesh, u), U, h=1e-9)
    np.testing.assert_allclose(H, fd, rtol=1e-4, atol=1e-5 * np.abs(H).max())
    Hp = dense(T.hessian(contacts, mesh, U, ipc.PSDProjection.CLAMP))
    assert np.linalg.eigvalsh(Hp).min() > -1e-9 * np.abs(H).max()
    # Broken bonds (slip beyond 2 eps_a): constant energy 7/6 eps_a mu_t lambda, no force.
    U[3], U[4] = [3e-3, 0, 0], [0, -5e-3, 0]
    assert T(contacts, mesh, U) == pytest.approx(7 / 6 * 1e-3 * 0.5 * 2.2, rel=1e-12)
    assert not T.gradient(contacts, mesh, U).any()
    with pytest.raises(ValueError, match="mu_t"):
        ipc.tangential_adhesion_collisions(collisions, mesh, V, A, -1.0)
    with pytest.raises(ValueError, match="eps"):
        ipc.TangentialAdhesionPotential(0.0)


# ----------------------------------------------------------- barrier shapes

def test_barrier_shapes():
    x_hat = 1e-4
    x = np.array([1e-6, 3e-5, 7e-5, 0.9e-4])
    np.testing.assert_allclose(ipc.CubicBarrier.value(x, x_hat), (x_hat - x) ** 3 / x_hat)
    assert ipc.CubicBarrier.value(2e-4, x_hat) == 0 and ipc.CubicBarrier.value(-1e-5, x_hat) > 0
    np.testing.assert_array_equal(ipc.ClampedLogBarrier.value(x, x_hat), ipc.barrier(x, x_hat))
    np.testing.assert_allclose(ipc.NormalizedLogBarrier.value(x, x_hat), ipc.barrier(x, x_hat) / x_hat**2)
    assert ipc.ClampedLogBarrier.diverges and ipc.NormalizedLogBarrier.diverges and not ipc.CubicBarrier.diverges
    assert ipc.NormalizedLogBarrier.value(0.0, x_hat) == math.inf
    for shape in (ipc.ClampedLogBarrier, ipc.CubicBarrier, ipc.NormalizedLogBarrier):
        for xi in x:
            h = 1e-6 * xi
            d1 = shape.first_derivative(xi, x_hat)
            assert d1 == pytest.approx((shape.value(xi + h, x_hat) - shape.value(xi - h, x_hat)) / (2 * h), rel=1e-6)
            d2 = shape.second_derivative(xi, x_hat)
            fd2 = (shape.first_derivative(xi + h, x_hat) - shape.first_derivative(xi - h, x_hat)) / (2 * h)
            assert d2 == pytest.approx(fd2, rel=1e-6)
