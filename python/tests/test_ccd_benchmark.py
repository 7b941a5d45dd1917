"""The CCD benchmark: the long-double reference on queries with known answers,
and benchmark_ccd for one of our methods and for a CCD method written in
Python, on constructed queries whose ground truth is exact."""

import json
import math
import os
import types
from pathlib import Path

import numpy as np
import pytest

import ipc

# Crossing times k / 16 (k odd): dyadic, and at least 1/48 away from the
# samples t = 0, 1/3, 2/3, 1 of the naive method below.
CROSSINGS = [k / 16 for k in range(1, 16, 2)]
NEGATIVES = 3


def vertex_face_queries():
    """(x_t0, x_t1, ground_truth): a point crossing the triangle (0,0,0),
    (1,0,0), (0,1,0) at each crossing time (height 4 (tc - t)), then three
    points that stay at least 1/4 away."""
    tri = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], float)
    x0, x1, truth = [], [], []
    for tc in CROSSINGS:
        x, y = 0.125 + 0.25 * tc, 0.5 - 0.25 * tc
        x0.append(np.vstack([[x, y, 4 * tc], tri]))
        x1.append(np.vstack([[x, y, 4 * (tc - 1)], tri]))
        truth.append(True)
    for p0, p1 in [([0.1, 0.1, 0.5], [0.3, 0.2, 0.5]), ([0.2, 0.2, 0.25], [0.2, 0.2, 2.0]),
                   ([2.0, 2.0, 0.0], [2.0, 2.0, -3.0])]:
        x0.append(np.vstack([p0, tri]))
        x1.append(np.vstack([p1, tri]))
        truth.append(False)
    return np.array(x0), np.array(x1), np.array(truth)


def edge_edge_queries():
    """An edge along y crossing the edge (-1,0,0)-(1,0,0) at each crossing
    time, then three edges that stay at least 1/4 away."""
    a = np.array([[-1, 0, 0], [1, 0, 0]], float)
    x0, x1, truth = [], [], []
    for tc in CROSSINGS:
        x = 0.5 - tc
        x0.append(np.vstack([a, [[x, -1, 4 * tc], [x, 1, 4 * tc]]]))
        x1.append(np.vstack([a, [[x, -1, 4 * (tc - 1)], [x, 1, 4 * (tc - 1)]]]))
        truth.append(True)
    for b, shift in [([[0, -1, 0.5], [0, 1, 0.5]], [0.5, 0, 0]), ([[0, -1, 0.25], [0, 1, 0.25]], [0, 0, 1.75]),
                     ([[2, -1, 0.0], [2, 1, 0.0]], [0, 0, -3])]:
        b = np.array(b, float)
        x0.append(np.vstack([a, b]))
        x1.append(np.vstack([a, b + shift]))
        truth.append(False)
    return np.array(x0), np.array(x1), np.array(truth)


def constructed_sets():
    return [ipc.CCDQuerySet("constructed", ipc.CCDQueryType.EDGE_EDGE, *edge_edge_queries()),
            ipc.CCDQuerySet("constructed", ipc.CCDQueryType.VERTEX_FACE, *vertex_face_queries())]


def sampled_distance(distance, x_t0, x_t1, min_distance, tmax, samples=4):
    """Naive CCD: the distance at `samples` equally spaced times only."""
    for k in range(samples):
        t = tmax * k / (samples - 1)
        if distance(*[a + t * (b - a) for a, b in zip(x_t0, x_t1)]) <= min_distance:
            return True, tmax * max(k - 1, 0) / (samples - 1)
    return False, tmax


class SampledCCD:
    """A user's CCD method in Python, drop-in signature, (collides, toi)."""

    def point_triangle_ccd(self, p_t0, t0_t0, t1_t0, t2_t0, p_t1, t0_t1, t1_t1, t2_t1, min_distance=0.0, tmax=1.0):
        d = lambda *x: math.sqrt(ipc.point_triangle_distance_squared(*x))
        return sampled_distance(d, [p_t0, t0_t0, t1_t0, t2_t0], [p_t1, t0_t1, t1_t1, t2_t1], min_distance, tmax)

    def edge_edge_ccd(self, ea0_t0, ea1_t0, eb0_t0, eb1_t0, ea0_t1, ea1_t1, eb0_t1, eb1_t1, min_distance=0.0,
                      tmax=1.0):
        d = lambda *x: math.sqrt(ipc.edge_edge_distance_squared(*x))
        return sampled_distance(d, [ea0_t0, ea1_t0, eb0_t0, eb1_t0], [ea0_t1, ea1_t1, eb0_t1, eb1_t1],
                                min_distance, tmax)


# -- the reference -------------------------------------------------------------

def test_reference_known_answers():
    o = np.zeros(3)
    p0, p1 = np.array([-1.0, 0.5, 0]), np.array([1.0, 0.5, 0])  # closest 0.5 at t = 0.5
    below = ipc.point_point_ccd_reference(p0, o, p1, o, min_distance=0.5 * (1 - 1e-9))
    assert below.answer == ipc.CCDReferenceAnswer.NEGATIVE and not below.positive() and math.isnan(below.time)
    above = ipc.point_point_ccd_reference(p0, o, p1, o, min_distance=0.5 * (1 + 1e-9))
    assert above.answer == ipc.CCDReferenceAnswer.POSITIVE and above.positive()
    assert above.time == 0.5 and above.evaluations == 1

    e0, e1 = np.array([-1.0, 0, 0]), np.array([1.0, 0, 0])
    crossing = ipc.point_edge_ccd_reference([0, 1.0, 0], e0, e1, [0, -1.0, 0], e0, e1)
    assert crossing.positive() and crossing.time == 0.5
    slide0, slide1 = [-2, 0.3, 0], [2, 0.3, 0]
    assert ipc.point_edge_ccd_reference(slide0, e0, e1, slide1, e0, e1, min_distance=0.29).answer \
        == ipc.CCDReferenceAnswer.NEGATIVE
    assert ipc.point_edge_ccd_reference(slide0, e0, e1, slide1, e0, e1, min_distance=0.31).positive()

    x0, x1, truth = vertex_face_queries()
    for q in range(len(truth)):
        for xi in (0.0, 0.05):
            r = ipc.point_triangle_ccd_reference(*x0[q], *x1[q], min_distance=xi)
            assert r.positive() == truth[q], (q, xi, r)
    x0, x1, truth = edge_edge_queries()
    for q in range(len(truth)):
        r = ipc.edge_edge_ccd_reference(*x0[q], *x1[q], min_distance=0.05)
        assert r.positive() == truth[q], (q, r)
        assert r.answer != ipc.CCDReferenceAnswer.UNDECIDED
    assert "CCDReferenceResult(answer=" in repr(r)


def test_reference_bad_input():
    o = np.zeros(3)
    with pytest.raises(ValueError, match="min_distance"):
        ipc.point_point_ccd_reference(o, o, o, o, min_distance=-1.0)
    with pytest.raises(ValueError, match="NaN or infinite"):
        ipc.point_point_ccd_reference([np.nan, 0, 0], o, o, o)
    with pytest.raises(ValueError, match="expected 8 points"):
        ipc.edge_edge_ccd_reference(o, o, o, o)


# -- benchmark_ccd -------------------------------------------------------------

@pytest.mark.parametrize("xi", [0.0, 0.05])
def test_python_method_misses_crossings_that_accd_catches(xi):
    sets = constructed_sets()
    n = len(CROSSINGS) + NEGATIVES
    assert len(sets[0]) == n and sets[0].name == "constructed" and sets[1].type == ipc.CCDQueryType.VERTEX_FACE

    naive = ipc.benchmark_ccd(SampledCCD(), sets, min_distance=xi, time=False)
    assert naive.ground_truth == (ipc.CCDGroundTruth.FILES if xi == 0 else ipc.CCDGroundTruth.REFERENCE)
    assert naive.min_distance == xi
    assert [(r.set, r.type) for r in naive.rows] == [
        ("constructed", ipc.CCDQueryType.EDGE_EDGE), ("constructed", ipc.CCDQueryType.VERTEX_FACE),
        ("all", ipc.CCDQueryType.EDGE_EDGE), ("all", ipc.CCDQueryType.VERTEX_FACE)]
    for r in naive.rows:
        assert isinstance(r, ipc.CCDBenchmarkRow) and "false_negatives=8" in repr(r)
        assert r.method == "SampledCCD"
        assert (r.queries, r.false_negatives, r.false_positives, r.undecided) == (n, len(CROSSINGS), 0, 0)
        assert r.false_negative_queries == (list(range(len(CROSSINGS))) if r.set != "all" else [])
        assert r.false_positive_queries == []
        assert not r.timed and r.ns_mean == r.ns_median == r.ns_p99 == r.ns_max == 0
        assert not r.has_iterations and r.iterations_mean == 0 and r.iterations_max == 0
    assert naive.false_negatives() == 2 * len(CROSSINGS) and naive.queries() == 2 * n
    assert naive.false_positives() == 0 and naive.undecided() == 0

    accd = ipc.benchmark_ccd(ipc.AdditiveCCD(), sets, min_distance=xi, time=False, name="accd")
    for r in accd.rows:
        assert r.method == "accd" and r.queries == n
        assert r.false_negatives == 0 and r.false_positives == 0
        assert r.has_iterations and 1 <= r.iterations_mean <= r.iterations_max

    # The same ACCD called through Python (the drop-in and _result calls):
    # same scores, and the iterations come through the CCDResult.
    wrapped = types.SimpleNamespace(
        point_triangle_ccd=ipc.AdditiveCCD().point_triangle_ccd, edge_edge_ccd=ipc.AdditiveCCD().edge_edge_ccd,
        point_triangle_ccd_result=ipc.AdditiveCCD().point_triangle_ccd_result,
        edge_edge_ccd_result=ipc.AdditiveCCD().edge_edge_ccd_result)
    through_python = ipc.benchmark_ccd(wrapped, sets, min_distance=xi, time=False, name="accd")
    key = lambda report: [(r.set, r.type, r.false_negatives, r.false_positives, r.iterations_mean,
                           r.iterations_max) for r in report.rows]
    assert key(through_python) == key(accd)

    both = ipc.CCDBenchmarkReport()
    if xi == 0:
        both.append(naive)
        both.append(accd)
        assert len(both.rows) == 8
        assert both.total(ipc.CCDQueryType.EDGE_EDGE, "accd").false_negatives == 0
        assert both.total(ipc.CCDQueryType.VERTEX_FACE).method == "SampledCCD"
        assert both.table().startswith("| method | set | type | queries | FN | FP | mean ns |")
        assert "| SampledCCD | constructed | edge-edge | 11 | 8 | 0 | - | - | - | - | - | - |" in str(both)
        data = json.loads(both.json())
        assert data["min_distance"] == 0 and len(data["results"]) == 8
        assert data["results"][0]["ns_mean"] is None and data["results"][0]["false_negatives"] == 8
    else:
        with pytest.raises(ValueError, match="differ"):
            both.append(naive)


def test_plain_functions_and_timing():
    sets = constructed_sets()
    calls = []

    def vertex_face(*points, min_distance=0.0, tmax=1.0):
        calls.append(len(points))
        return False  # a bool is accepted too: never a collision

    def edge_edge(*points, min_distance=0.0, tmax=1.0):
        return [True, 0.0]  # always a collision

    method = types.SimpleNamespace(point_triangle_ccd=vertex_face, edge_edge_ccd=edge_edge)
    report = ipc.benchmark_ccd(method, sets, repeats=2, calls_per_batch=1, max_queries=9, name="plain")
    ee = report.total(ipc.CCDQueryType.EDGE_EDGE, "plain")
    vf = report.total(ipc.CCDQueryType.VERTEX_FACE, "plain")
    assert (ee.queries, ee.false_negatives, ee.false_positives) == (9, 0, 1)
    assert (vf.queries, vf.false_negatives, vf.false_positives) == (9, 8, 0)
    assert set(calls) == {8} and len(calls) == 9 * (1 + 2 * 1)
    for r in report.rows:
        assert r.timed and 0 < r.ns_median <= r.ns_p99 <= r.ns_max and r.ns_mean <= r.ns_max

    accd = ipc.benchmark_ccd(ipc.AdditiveCCD(), sets[1], repeats=1, calls_per_batch=1)
    assert accd.rows[0].method == "AdditiveCCD" and accd.rows[0].timed and accd.rows[0].ns_max > 0


def test_benchmark_bad_input():
    sets = constructed_sets()
    with pytest.raises(ValueError, match="min_distance"):
        ipc.benchmark_ccd(ipc.AdditiveCCD(), sets, min_distance=-1.0)
    with pytest.raises(ValueError, match="touching"):
        ipc.benchmark_ccd(ipc.AdditiveCCD(), sets, min_distance=1e-3, ground_truth=ipc.CCDGroundTruth.FILES)
    with pytest.raises(ValueError, match="repeats"):
        ipc.benchmark_ccd(SampledCCD(), sets, repeats=0)
    with pytest.raises(ValueError, match="edge_edge_ccd"):
        ipc.benchmark_ccd(object(), sets)
    with pytest.raises(ValueError, match="CCDQuerySet"):
        ipc.benchmark_ccd(ipc.AdditiveCCD(), [1, 2])
    with pytest.raises(ValueError, match="shape"):
        ipc.CCDQuerySet("bad", ipc.CCDQueryType.EDGE_EDGE, np.zeros((2, 3, 3)), np.zeros((2, 3, 3)))
    with pytest.raises(ValueError, match="not a directory"):
        ipc.load_ccd_query_sets("/nonexistent/ccd/queries")

    def fails(*points, min_distance=0.0, tmax=1.0):
        raise ZeroDivisionError("from the user's method")

    with pytest.raises(ZeroDivisionError):
        ipc.benchmark_ccd(types.SimpleNamespace(point_triangle_ccd=fails, edge_edge_ccd=fails), sets, time=False)


def test_query_sets_from_a_folder(tmp_path):
    x0, x1, truth = vertex_face_queries()
    folder = tmp_path / "mine" / "vertex-face"
    folder.mkdir(parents=True)
    with open(folder / "data_0_0.csv", "w") as f:
        for q in range(len(truth)):
            for v in list(x0[q]) + list(x1[q]):
                f.write(",".join(f"{round(c * 1e6)},1000000" for c in v) + f",{int(truth[q])}\n")
    sets = ipc.load_ccd_query_sets(str(tmp_path))
    assert len(sets) == 1 and sets[0].name == "mine" and sets[0].type == ipc.CCDQueryType.VERTEX_FACE
    assert np.array_equal(sets[0].x_t0, x0) and np.array_equal(sets[0].x_t1, x1)
    assert np.array_equal(sets[0].ground_truth, truth)
    assert "11 queries" in repr(sets[0])
    assert len(ipc.load_ccd_query_sets(str(tmp_path), max_queries_per_set=4)[0]) == 4


def test_sample_query_sets():
    folder = os.environ.get("IPC_CCD_QUERIES", "")
    if not folder or not Path(folder).is_dir():
        pytest.skip("IPC_CCD_QUERIES is not set")
    sets = ipc.load_ccd_query_sets(folder, 30)
    for xi in (0.0, 1e-4):
        report = ipc.benchmark_ccd(ipc.AdditiveCCD(), sets, min_distance=xi, time=False)
        assert report.queries() > 0 and report.false_negatives() == 0
