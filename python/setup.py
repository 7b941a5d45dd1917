"""Builds the ipc Python package (the compiled module ipc._ipc plus
ipc/__init__.py) with setuptools and pybind11.setup_helpers, offline:

    python3 -m venv --system-site-packages VENV
    VENV/bin/python -m pip install --no-build-isolation ./python

from the root of a checkout (the C++ headers are read from ../include).
Needs Eigen 3 (found with pkg-config, or EIGEN3_INCLUDE_DIR), tsl-robin-map
and pybind11 headers. Environment:
    IPC_PYTHON_JOBS    parallel compile jobs (default: all cores; 1 = serial)
    IPC_WITH_OPENMP    0 builds without OpenMP (default 1)
    EIGEN3_INCLUDE_DIR folder holding Eigen/Core, when pkg-config cannot tell
"""

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

from pybind11.setup_helpers import ParallelCompile, Pybind11Extension, build_ext
from setuptools import setup

HERE = Path(__file__).resolve().parent
INCLUDE = HERE.parent / "include"
if not (INCLUDE / "ipc" / "ipc.hpp").is_file():
    sys.exit(f"ipc: the C++ headers were not found at {INCLUDE}; build from a checkout of the repository")


def eigen_include_dirs():
    if os.environ.get("EIGEN3_INCLUDE_DIR"):
        return [os.environ["EIGEN3_INCLUDE_DIR"]]
    try:
        flags = subprocess.run(["pkg-config", "--cflags-only-I", "eigen3"], check=True, capture_output=True,
                               text=True).stdout
        return [flag[2:] for flag in shlex.split(flags) if flag.startswith("-I")]
    except (OSError, subprocess.CalledProcessError):
        sys.exit("ipc: Eigen 3 was not found by pkg-config; install libeigen3-dev or set EIGEN3_INCLUDE_DIR")


def version():
    text = (INCLUDE / "ipc" / "config.hpp").read_text()
    return re.search(r'#define IPC_VERSION_STRING "([^"]+)"', text).group(1)


ParallelCompile("IPC_PYTHON_JOBS", default=0).install()

openmp = os.environ.get("IPC_WITH_OPENMP", "1") != "0"
sources = sorted(str(p.relative_to(HERE)) for p in (HERE / "src").glob("*.cpp"))
extension = Pybind11Extension(
    "ipc._ipc",
    sources,
    include_dirs=[str(INCLUDE)] + eigen_include_dirs(),
    cxx_std=17,
    extra_compile_args=["-O2"] + (["-fopenmp"] if openmp else []),
    extra_link_args=["-fopenmp"] if openmp else [],
)

setup(
    name="ipc",
    version=version(),
    description="Python bindings of ipc, building blocks for Incremental Potential Contact",
    packages=["ipc"],
    ext_modules=[extension],
    cmdclass={"build_ext": build_ext},
    python_requires=">=3.8",
    install_requires=["numpy"],
    zip_safe=False,
)
