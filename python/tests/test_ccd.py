"""CCD methods: known times of impact, single versus batch queries, bad input."""

import numpy as np
import pytest

import ipc

METHODS = [ipc.AdditiveCCD(), ipc.InclusionCCD(), ipc.RootFindingCCD()]
IDS = ["additive", "inclusion", "root_finding"]

# A point falling from z = 1 to z = -1 through the triangle z = 0: contact at t = 0.5.
PT_T0 = np.array([[0.2, 0.2, 1.0], [0, 0, 0], [1, 0, 0], [0, 1, 0]], dtype=float)
PT_T1 = PT_T0.copy()
PT_T1[0, 2] = -1.0
# Edge a along x at z = 0; edge b along y moving from z = 1 to z = -3: contact at t = 0.25.
EE_T0 = np.array([[-1, 0, 0], [1, 0, 0], [0, -1, 1], [0, 1, 1]], dtype=float)
EE_T1 = EE_T0.copy()
EE_T1[2:, 2] = -3.0
# Two points approaching head-on: |p - q| from 2 to -2 along x, contact at t = 0.5.
PP_T0 = np.array([[-1, 0, 0], [1, 0, 0]], dtype=float)
PP_T1 = np.array([[1, 0, 0], [-1, 0, 0]], dtype=float)
# A point crossing an edge: contact at t = 0.5.
PE_T0 = np.array([[0, 1, 0], [-1, 0, 0], [1, 0, 0]], dtype=float)
PE_T1 = np.array([[0, -1, 0], [-1, 0, 0], [1, 0, 0]], dtype=float)

QUERIES = {
    "point_point": (PP_T0, PP_T1, 0.5),
    "point_edge": (PE_T0, PE_T1, 0.5),
    "point_triangle": (PT_T0, PT_T1, 0.5),
    "edge_edge": (EE_T0, EE_T1, 0.25),
}


@pytest.mark.parametrize("ccd", METHODS, ids=IDS)
@pytest.mark.parametrize("kind", list(QUERIES))
def test_known_time_of_impact(ccd, kind):
    x0, x1, contact = QUERIES[kind]
    hit, toi = getattr(ccd, kind + "_ccd")(*x0, *x1)
    assert hit
    # Conservative (never past the contact) and not uselessly small.
    assert 0.7 * contact <= toi <= contact
    result = getattr(ccd, kind + "_ccd_result")(*x0, *x1)
    assert result.collides() and result.status == ipc.CCDStatus.HIT and result.toi == toi
    # Moving apart instead: no hit, toi = tmax.
    hit, toi = getattr(ccd, kind + "_ccd")(*x1, *x1, tmax=0.75)
    assert not hit and toi == 0.75
    # The batch call gives the same answers, in parallel.
    n = 7
    b0 = np.repeat(x0[None], n, axis=0)
    b1 = np.repeat(x1[None], n, axis=0)
    b1[::2] = b0[::2]  # even queries do not move
    tois, status, iterations = getattr(ccd, kind + "_ccd_batch")(b0, b1)
    assert tois.shape == (n,) and status.dtype == np.uint8 and iterations.dtype == np.int64
    for q in range(n):
        single = getattr(ccd, kind + "_ccd_result")(*b0[q], *b1[q])
        assert tois[q] == single.toi and status[q] == int(single.status)
    assert (status[::2] == int(ipc.CCDStatus.NO_HIT)).all() and (status[1::2] == int(ipc.CCDStatus.HIT)).all()


def test_min_distance_and_initial_contact():
    ccd = ipc.AdditiveCCD()
    hit0, toi0 = ccd.point_triangle_ccd(*PT_T0, *PT_T1)
    hit1, toi1 = ccd.point_triangle_ccd(*PT_T0, *PT_T1, min_distance=0.2)
    assert hit0 and hit1 and toi1 < toi0 <= 0.5
    result = ccd.point_triangle_ccd_result(*PT_T0, *PT_T1, min_distance=2.0)
    assert result.status == ipc.CCDStatus.INITIALLY_WITHIN_OFFSET and result.toi == 0
    # Per-query offsets in a batch.
    b0, b1 = np.stack([PT_T0, PT_T0]), np.stack([PT_T1, PT_T1])
    tois, status, _ = ccd.point_triangle_ccd_batch(b0, b1, np.array([0.0, 2.0]))
    assert status[0] == int(ipc.CCDStatus.HIT) and status[1] == int(ipc.CCDStatus.INITIALLY_WITHIN_OFFSET)
    assert tois[0] == toi0 and tois[1] == 0


@pytest.mark.parametrize("ccd", METHODS, ids=IDS)
def test_bad_input(ccd):
    bad = PT_T1.copy()
    bad[0, 0] = np.nan
    with pytest.raises(ValueError):
        ccd.point_triangle_ccd(*PT_T0, *bad)
    assert ccd.point_triangle_ccd_result(*PT_T0, *bad).status == ipc.CCDStatus.INVALID_INPUT
    _, status, _ = ccd.point_triangle_ccd_batch(PT_T0[None], bad[None])
    assert status[0] == int(ipc.CCDStatus.INVALID_INPUT)
    with pytest.raises(ValueError, match="8 points"):
        ccd.point_triangle_ccd(*PT_T0, *PT_T1[:3])
    with pytest.raises(ValueError, match=r"shape \(n, 4, 3\)"):
        ccd.point_triangle_ccd_batch(PT_T0, PT_T1)  # missing the query axis
    with pytest.raises(ValueError, match="queries"):
        ccd.point_triangle_ccd_batch(np.stack([PT_T0, PT_T0]), PT_T1[None])
    with pytest.raises(ValueError, match="3 entries"):  # 3D first point, a 2D one after it
        ccd.point_point_ccd([0, 0, 0], [1, 0], [0, 0, 0], [1, 0, 0])
    with pytest.raises(ValueError, match="3 entries"):  # point-triangle queries are 3D only
        ccd.point_triangle_ccd([0, 0], [1, 0], [0, 1], [1, 1], [0, 0], [1, 0], [0, 1], [1, 1])
    with pytest.raises(ValueError, match="tmax"):
        ccd.point_point_ccd(*PP_T0, *PP_T1, tmax=2.0)


def test_constructors_validate():
    with pytest.raises(ValueError, match="conservative_rescaling"):
        ipc.AdditiveCCD(conservative_rescaling=1.5)
    with pytest.raises(ValueError, match="tolerance"):
        ipc.InclusionCCD(tolerance=0.0)
    with pytest.raises(ValueError):
        ipc.RootFindingCCD(conservative_rescaling=0.0)
    assert ipc.AdditiveCCD(max_iterations=10).max_iterations == 10
