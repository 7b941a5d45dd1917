"""The end-to-end example runs (small and short) with no intersection on any
frame and writes a valid PNG."""

import os
import subprocess
import sys
from pathlib import Path

import ipc

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "implicit_euler.py"


def test_implicit_euler_example(tmp_path):
    picture = tmp_path / "frames.png"
    env = dict(os.environ)
    # One thread: the scene is tiny, and a busy machine then does not slow
    # the many short parallel regions down.
    env["OMP_NUM_THREADS"] = "1"
    package = str(Path(ipc.__file__).resolve().parents[1])  # the ipc under test
    env["PYTHONPATH"] = package + os.pathsep + env.get("PYTHONPATH", "")
    run = subprocess.run([sys.executable, str(EXAMPLE), "--frames", "20", "--n", "6", "--quiet",
                          "--output", str(picture)], env=env, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "frames with intersections: 0" in run.stdout
    data = picture.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) < 100_000
