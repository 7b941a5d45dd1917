"""Distance kernels: closed-form values, region types, finite-difference
derivatives and bad input."""

import numpy as np
import pytest

import ipc
from conftest import central_difference, central_difference_jacobian

X = np.array([1.0, 0.0, 0.0])
Y = np.array([0.0, 1.0, 0.0])
Z = np.array([0.0, 0.0, 1.0])
O = np.zeros(3)


def test_point_point_closed_form():
    assert ipc.point_point_distance_squared([1, 2, 3], [4, 6, 3]) == pytest.approx(25.0)
    assert ipc.point_point_distance_squared([1.0, 2.0], [4.0, 6.0]) == pytest.approx(25.0)
    g = ipc.point_point_distance_squared_gradient([1, 2, 3], [4, 6, 3])
    np.testing.assert_allclose(g, [-6, -8, 0, 6, 8, 0])
    H = ipc.point_point_distance_squared_hessian(X, Y)
    expected = np.block([[2 * np.eye(3), -2 * np.eye(3)], [-2 * np.eye(3), 2 * np.eye(3)]])
    np.testing.assert_allclose(H, expected)
    assert ipc.point_point_distance_squared_hessian([0.0, 0.0], [1.0, 1.0]).shape == (4, 4)


def test_point_edge_regions_and_values():
    e0, e1 = np.array([-1.0, 0, 0]), np.array([1.0, 0, 0])
    assert ipc.point_edge_distance_squared([0, 2, 0], e0, e1) == pytest.approx(4.0)
    assert ipc.point_edge_distance_type([0, 2, 0], e0, e1) == ipc.PointEdgeDistanceType.P_E
    assert ipc.point_edge_distance_squared([-3, 0, 0], e0, e1) == pytest.approx(4.0)
    assert ipc.point_edge_distance_type([-3, 0, 0], e0, e1) == ipc.PointEdgeDistanceType.P_E0
    assert ipc.point_edge_distance_type([3, 1, 0], e0, e1) == ipc.PointEdgeDistanceType.P_E1
    # Forced type: the line formula beyond the end.
    assert ipc.point_edge_distance_squared([3, 1, 0], e0, e1, ipc.PointEdgeDistanceType.P_E) == pytest.approx(1.0)
    # 2D
    assert ipc.point_edge_distance_squared([0.0, 3.0], [-1.0, 0.0], [1.0, 0.0]) == pytest.approx(9.0)
    assert ipc.point_line_distance_squared([5.0, 3.0], [-1.0, 0.0], [1.0, 0.0]) == pytest.approx(9.0)


def test_point_triangle_and_plane():
    t0, t1, t2 = O, X, Y
    assert ipc.point_triangle_distance_squared([0.2, 0.2, 0.5], t0, t1, t2) == pytest.approx(0.25)
    assert ipc.point_triangle_distance_type([0.2, 0.2, 0.5], t0, t1, t2) == ipc.PointTriangleDistanceType.P_T
    assert ipc.point_triangle_distance_squared([-1, -1, 0], t0, t1, t2) == pytest.approx(2.0)
    assert ipc.point_triangle_distance_type([-1, -1, 0], t0, t1, t2) == ipc.PointTriangleDistanceType.P_T0
    assert ipc.point_plane_distance_squared([5, 7, -2], t0, t1, t2) == pytest.approx(4.0)


def test_edge_edge_and_line_line():
    # Crossing segments 0.5 apart along z.
    ea0, ea1 = np.array([-1.0, 0, 0]), np.array([1.0, 0, 0])
    eb0, eb1 = np.array([0, -1.0, 0.5]), np.array([0, 1.0, 0.5])
    assert ipc.edge_edge_distance_squared(ea0, ea1, eb0, eb1) == pytest.approx(0.25)
    assert ipc.edge_edge_distance_type(ea0, ea1, eb0, eb1) == ipc.EdgeEdgeDistanceType.EA_EB
    assert ipc.line_line_distance_squared(ea0, ea1, eb0 + [5, 0, 0], eb1 + [5, 0, 0]) == pytest.approx(0.25)
    # Endpoint region: eb shifted past ea1.
    assert ipc.edge_edge_distance_squared(ea0, ea1, eb0 + [3, 0, 0], eb1 + [3, 0, 0]) == pytest.approx(4.25)
    assert ipc.edge_edge_distance_type(ea0, ea1, eb0 + [3, 0, 0], eb1 + [3, 0, 0]) == ipc.EdgeEdgeDistanceType.EA1_EB


KERNELS = [
    ("point_point", 2),
    ("point_line", 3),
    ("point_edge", 3),
    ("point_plane", 4),
    ("point_triangle", 4),
    ("line_line", 4),
    ("edge_edge", 4),
]


@pytest.mark.parametrize("name,count", KERNELS)
def test_derivatives_match_finite_differences(name, count, rng):
    value = getattr(ipc, name + "_distance_squared")
    gradient = getattr(ipc, name + "_distance_squared_gradient")
    hessian = getattr(ipc, name + "_distance_squared_hessian")
    x = rng.normal(size=(count, 3))

    def f(y):
        return value(*y)

    g = gradient(*x)
    H = hessian(*x)
    assert g.shape == (3 * count,) and H.shape == (3 * count, 3 * count)
    np.testing.assert_allclose(g, central_difference(f, x), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(H, central_difference_jacobian(lambda y: gradient(*y), x), rtol=1e-5, atol=1e-5)


def test_bad_input_raises_value_error():
    with pytest.raises(ValueError, match="point_triangle_distance_squared"):
        ipc.point_triangle_distance_squared([0.0, 0.0], O, X, Y)  # 2D point
    with pytest.raises(ValueError, match="non-finite"):
        ipc.point_point_distance_squared([np.nan, 0, 0], O)
    with pytest.raises(ValueError, match="2 or 3"):
        ipc.point_point_distance_squared([1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0])
    with pytest.raises(ValueError, match="1-D"):
        ipc.point_edge_distance_squared(np.zeros((3, 3)), O, X)
    with pytest.raises(ValueError, match="array of numbers"):
        ipc.point_point_distance_squared("abc", O)
    with pytest.raises(ValueError, match="entries"):
        ipc.point_point_distance_squared(O, [1.0, 2.0])  # mixed dimensions
    with pytest.raises(ipc.DegenerateGeometryError):
        ipc.point_line_distance_squared(X, O, O)
    with pytest.raises(ValueError):
        ipc.line_line_distance_squared(O, X, Y, Y + X)  # parallel lines
