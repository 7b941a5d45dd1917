"""API-wide checks: every public name is exercised by some test, every
function and class has a docstring, the sparse fallback without SciPy, and
the calls not covered by the topic files."""

import inspect
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import ipc

TESTS = Path(__file__).resolve().parent


def public_names():
    """(qualified name, member name, object) of every public function, class,
    method and property of the module."""
    for name in ipc.__all__:
        obj = getattr(ipc, name)
        if inspect.isclass(obj) and issubclass(obj, BaseException):
            yield name, name, obj
            continue
        yield name, name, obj
        if inspect.isclass(obj) and not hasattr(obj, "__members__"):  # classes, not enums
            for member, value in vars(obj).items():
                if not member.startswith("_"):
                    yield f"{name}.{member}", member, value


def test_every_public_name_is_exercised():
    source = "\n".join(p.read_text() for p in TESTS.glob("test_*.py") if p.name != "test_api.py")
    source += (TESTS / "test_api.py").read_text().split("# -- calls " + "below --")[-1]
    # Names the parametrised tests build with getattr().
    from test_ccd import QUERIES
    from test_distance import KERNELS

    dynamic = {kind + suffix for kind in QUERIES for suffix in ("_ccd", "_ccd_result", "_ccd_batch")}
    dynamic |= {name + "_distance_squared" + s for name, _ in KERNELS for s in ("", "_gradient", "_hessian")}
    missing = [q for q, member, _ in public_names() if member not in source and member not in dynamic]
    assert not missing, f"not exercised by any test: {missing}"


def test_every_public_name_has_a_docstring():
    undocumented = []
    for qualified, _, obj in public_names():
        doc = getattr(obj, "__doc__", None) if not isinstance(obj, property) else obj.__doc__
        if isinstance(obj, (int, float, str, bool)):
            continue
        if not doc or not doc.strip():
            undocumented.append(qualified)
    assert not undocumented, f"no docstring: {undocumented}"


def test_sparse_fallback_without_scipy():
    code = (
        "import sys; sys.modules['scipy'] = None; sys.modules['scipy.sparse'] = None\n"
        "import numpy as np, ipc\n"
        "V = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0.2, 0.2, 1e-3]], float)\n"
        "mesh = ipc.CollisionMesh(V, None, [[0, 1, 2]])\n"
        "c = ipc.Collisions(); c.build(mesh, V, 2e-3)\n"
        "rows, cols, vals = ipc.BarrierPotential(2e-3).hessian(c, mesh, V)\n"
        "H = np.zeros((12, 12)); np.add.at(H, (rows, cols), vals)\n"
        "assert np.allclose(H, H.T) and H[11, 11] > 0, H\n"
        "print('ok', len(vals))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={"PYTHONPATH": str(Path(ipc.__file__).resolve().parents[1])})
    assert run.returncode == 0 and run.stdout.startswith("ok"), run.stdout + run.stderr


# -- calls below --
def test_remaining_calls():
    assert ipc.max_threads() >= 1 and isinstance(ipc.has_openmp, bool)
    ipc.release_broad_phase_memory()
    V = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0.2, 0.2, 1e-3], [3, 3, 3], [4, 3, 3], [5, 5, 5], [6, 6, 6.0]])
    mesh = ipc.CollisionMesh.build(V, faces=[[0, 1, 2]], edges=[[4, 5]], radius=np.full(8, 1e-5),
                                   isolated_vertices_are_particles=True, allow_degenerate_elements=False)
    assert mesh.is_collision_vertex(3) and not mesh.has_prescribed_vertices
    assert list(mesh.codim_vertices) == [3, 4, 5, 6, 7] and list(mesh.particles) == [3, 6, 7]
    assert list(mesh.rod_edges) == [0] and mesh.edge_radii[0] == 1e-5 and mesh.face_radii[0] == 1e-5
    assert mesh.can_collide_edge_vertex(0, 3) and mesh.can_collide_vertex_vertex(6, 7)
    collisions = ipc.Collisions()
    assert collisions.empty() and collisions.dmin == 0.0
    collisions.build(mesh, V, 1e-2, dmin=1e-4)
    assert collisions.dmin == 1e-4 and not collisions.empty() and collisions.size() == len(collisions)
    assert collisions.vertex_vertex.shape[1] == 2 and collisions.edge_vertex.shape[1] == 3
    assert collisions.edge_edge.shape[1] == 4 and (collisions.weights() >= 1).all()
    friction = ipc.FrictionCollisions()
    friction.build(collisions, mesh, V, 1e-2, 1.0, 0.3)
    assert not friction.empty() and friction.size() == len(collisions)
    friction.clear()
    assert friction.empty()
    collisions.clear()
    assert collisions.size() == 0
    cands = ipc.static_candidates(mesh, V, 1e-2)
    assert cands.size() == len(cands) and not cands.empty() and cands.vertex_vertex.shape[1] == 2
    assert cands.edge_vertex.shape[1] == 2 and cands.edge_edge.shape[1] == 2
    cands.clear()
    assert cands.empty()
    result = ipc.CCDResult()
    assert result.status == ipc.CCDStatus.NO_HIT and result.toi == 1 and result.iterations == 0
    assert not result.collides()
    assert ipc.AdditiveCCD().conservative_rescaling == 0.9
    inclusion = ipc.InclusionCCD(1e-5, 1000)
    assert inclusion.tolerance == 1e-5 and inclusion.max_iterations == 1000
    root = ipc.RootFindingCCD(0.5, 1e-8)
    assert root.conservative_rescaling == 0.5 and root.zero_tolerance == 1e-8
    B = ipc.BarrierPotential(1e-3)
    B.stiffness = 5.0
    assert B.stiffness == 5.0 and B.dhat == 1e-3
    with pytest.raises(ValueError, match="stiffness"):
        B.stiffness = -1.0
    assert ipc.FrictionPotential(1e-3).eps == 1e-3
    params = ipc.StrainLimitParameters()
    params.validate()
    params.stiffness, params.thickness, params.limit, params.threshold = 1.0, 1e-3, 1.2, 1.0
    S = ipc.StrainLimitPotential(V[:3], [[0, 1, 2]], params)
    S.set_stiffness(10.0)
    assert S.is_feasible(V[:3])
    with pytest.raises(ValueError):
        S.set_stiffness(-1.0)
    state = ipc.step_start_state(ipc.CollisionMesh(V[:4], None, [[0, 1, 2]]), V[:4])
    assert isinstance(state, ipc.StepStartState)
    assert state.status == ipc.StepStartStatus.VALID and state.message == ""
    bounds = ipc.BarrierStiffnessBounds(1.0, 2.0)
    assert bounds.min == 1.0 and bounds.max == 2.0
    assert issubclass(ipc.InvalidArgumentError, ValueError)
    p = ipc.AdaptiveStiffnessParameters()
    assert p.min_stiffness_scale == 1e11 and p.reference_gap_scale == 1e-8 and p.small_gap_scale == 1e-9
