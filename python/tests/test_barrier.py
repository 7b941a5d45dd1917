"""Barriers and adaptive stiffness: closed forms, derivatives, validation."""

import math

import numpy as np
import pytest

import ipc


def reference_barrier(x, x_hat):
    return -((x - x_hat) ** 2) * math.log(x / x_hat) if x < x_hat else 0.0


def test_clamped_log_barrier_closed_form():
    for x in [1e-6, 1e-3, 0.5e-2, 0.99e-2, 2e-2]:
        assert ipc.barrier(x, 1e-2) == pytest.approx(reference_barrier(x, 1e-2), rel=1e-14, abs=0)
    values = ipc.barrier(np.array([1e-3, 2e-3, 0.02]), 1e-2)
    assert values.shape == (3,) and values[2] == 0.0


def test_barrier_derivatives_finite_differences():
    x_hat, x, h = 1e-2, 3e-3, 1e-9
    d1 = (ipc.barrier(x + h, x_hat) - ipc.barrier(x - h, x_hat)) / (2 * h)
    d2 = (ipc.barrier_first_derivative(x + h, x_hat) - ipc.barrier_first_derivative(x - h, x_hat)) / (2 * h)
    assert ipc.barrier_first_derivative(x, x_hat) == pytest.approx(d1, rel=1e-6)
    assert ipc.barrier_second_derivative(x, x_hat) == pytest.approx(d2, rel=1e-6)


def test_offset_barrier_matches_shifted_barrier():
    d2, xi, dhat = 0.012**2, 0.01, 0.005
    x = d2 - xi**2
    x_hat = 2 * xi * dhat + dhat**2
    assert ipc.offset_barrier_threshold(xi, dhat) == pytest.approx(x_hat)
    assert ipc.offset_barrier_argument(d2, xi) == pytest.approx(x)
    assert ipc.offset_barrier(d2, xi, dhat) == pytest.approx(reference_barrier(x, x_hat), rel=1e-12)
    assert ipc.offset_barrier_first_derivative(d2, xi, dhat) == pytest.approx(ipc.barrier_first_derivative(x, x_hat))
    assert ipc.offset_barrier_second_derivative(d2, xi, dhat) == pytest.approx(ipc.barrier_second_derivative(x, x_hat))
    assert ipc.offset_gap(d2, xi) == pytest.approx(0.002)
    assert bool(ipc.offset_barrier_active(d2, xi, dhat)) is True
    assert bool(ipc.offset_barrier_active(0.02**2, xi, dhat)) is False
    d = 0.012
    dd = (ipc.offset_barrier((d + 1e-8) ** 2, xi, dhat) - ipc.offset_barrier((d - 1e-8) ** 2, xi, dhat)) / 2e-8
    assert ipc.offset_barrier_distance_derivative(d, xi, dhat) == pytest.approx(dd, rel=1e-5)
    dd2 = (ipc.offset_barrier_distance_derivative(d + 1e-8, xi, dhat)
           - ipc.offset_barrier_distance_derivative(d - 1e-8, xi, dhat)) / 2e-8
    assert ipc.offset_barrier_distance_second_derivative(d, xi, dhat) == pytest.approx(dd2, rel=1e-5)
    assert ipc.checked_offset_barrier(d2, xi, dhat) == pytest.approx(ipc.offset_barrier(d2, xi, dhat))
    assert ipc.pair_offset(0.25, 0.5) == 0.75


def test_checked_barriers_raise():
    assert ipc.checked_barrier(1e-3, 1e-2) == pytest.approx(reference_barrier(1e-3, 1e-2))
    with pytest.raises(ipc.PenetrationError):
        ipc.checked_barrier(-1e-3, 1e-2)
    with pytest.raises(ValueError, match="x_hat"):
        ipc.checked_barrier(1e-3, -1.0)
    with pytest.raises(ValueError):
        ipc.checked_barrier(float("nan"), 1e-2)
    with pytest.raises(ValueError):
        ipc.checked_offset_barrier(1e-4, 0.01, 0.005)  # d = 0.01 <= xi
    with pytest.raises(ValueError, match="radius"):
        ipc.pair_offset(-1.0, 0.0)
    assert issubclass(ipc.PenetrationError, ValueError)
    assert issubclass(ipc.Error, RuntimeError)


def test_adaptive_stiffness():
    dhat, diag, mass = 1e-3, 1.0, 0.01
    bounds = ipc.barrier_stiffness_bounds(diag, mass, dhat)
    d0 = 1e-8 * diag
    curvature = 4 * d0**2 * ipc.barrier_second_derivative(d0**2, dhat**2)
    assert bounds.min == pytest.approx(1e11 * mass / curvature, rel=1e-12)
    assert bounds.max == pytest.approx(100 * bounds.min, rel=1e-12)
    # Clamped least-squares balance of the gradients.
    ge = np.array([1.0, -2.0, 0.0])
    gb = np.array([-1.0, 1.0, 0.0]) / bounds.min * 0  # zero: no active pair -> kappa_min
    assert ipc.initial_barrier_stiffness(bounds, ge, gb) == bounds.min
    gb = -ge / (5 * bounds.min)
    assert ipc.initial_barrier_stiffness(bounds, ge, gb) == pytest.approx(5 * bounds.min)
    small = 1e-9 * diag
    assert ipc.update_barrier_stiffness(2.0, 100.0, 0.5 * small, 0.25 * small, diag) == 4.0
    assert ipc.update_barrier_stiffness(2.0, 100.0, 0.5 * small, 0.75 * small, diag) == 2.0
    params = ipc.AdaptiveStiffnessParameters()
    params.max_to_min_ratio = 10
    assert ipc.barrier_stiffness_bounds(diag, mass, dhat, 0.0, params).max == pytest.approx(10 * bounds.min)
    with pytest.raises(ValueError, match="average_mass"):
        ipc.barrier_stiffness_bounds(diag, -1.0, dhat)
    with pytest.raises(ValueError, match="entries"):
        ipc.initial_barrier_stiffness(bounds, ge, np.zeros(2))
    with pytest.raises(ValueError, match="not finite"):
        ipc.initial_barrier_stiffness(bounds, [np.nan, 0, 0], ge)
