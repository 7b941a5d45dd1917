"""Shared helpers of the binding tests. The module under test is whatever
`import ipc` finds: an installed package, or the CMake build's package folder
on PYTHONPATH (scripts/test.sh sets PYTHONPATH=build/python/python)."""

import numpy as np
import pytest


def central_difference(f, x, h=1e-6):
    """Central finite-difference gradient of the scalar f at the flat array x."""
    x = np.asarray(x, dtype=float)
    g = np.zeros(x.size)
    for i in range(x.size):
        e = np.zeros(x.size)
        e[i] = h
        g[i] = (f((x.ravel() + e).reshape(x.shape)) - f((x.ravel() - e).reshape(x.shape))) / (2 * h)
    return g


def central_difference_jacobian(f, x, h=1e-6):
    """Central finite-difference Jacobian (rows: outputs) of the vector f."""
    x = np.asarray(x, dtype=float)
    cols = []
    for i in range(x.size):
        e = np.zeros(x.size)
        e[i] = h
        cols.append((np.asarray(f((x.ravel() + e).reshape(x.shape))) - np.asarray(f((x.ravel() - e).reshape(x.shape)))) / (2 * h))
    return np.stack(cols, axis=1)


@pytest.fixture
def rng():
    return np.random.default_rng(12345)
