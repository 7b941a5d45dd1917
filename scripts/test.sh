#!/usr/bin/env bash
# Builds and passes everything the project checks. Installs the Debian
# packages it needs when they are missing (as root; otherwise it prints the
# apt-get line to run), then:
#   0. the documentation site (scripts/docs.sh, Doxygen, a few seconds): fails
#      on any public name without a doc comment or a bad @param;
#   1. header check with clang++: every public header alone, C++17 and C++20,
#      -Wall -Wextra -Wpedantic -Werror;
#   2. the library's test suites and the tutorials of examples/tutorial under
#      AddressSanitizer + UndefinedBehaviorSanitizer (clang++, -O1), built
#      together with the libFuzzer targets;
#   3. an optimised (-O2) build with g++ in build/test (the example programs
#      and their suite, benchmarks, every header through the umbrella header
#      under C++17 and C++20) and its tests: the example programs' suite, the
#      command-line and packaging tests;
#   4. the libFuzzer targets of tests/fuzz/ for FUZZ_SECONDS each (default 20),
#      two at a time;
#   5. the Python bindings: the module built with CMake, then python/tests
#      with pytest (Debian's /usr/bin/python3).
# Prints how long each phase took at the end.
# IPC_CCD_QUERIES: a folder of CCD benchmark queries, to include the tests
# that read them; IPC_PAPER_SCENES: the IPC paper's scene scripts and
# meshes, for the script importer's tests (read at run time). JOBS: build parallelism (default 2). ccache is used when
# it is installed.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/packages.sh
ipc_need_packages "${IPC_TEST_PACKAGES[@]}"

jobs=${JOBS:-2}
queries=${IPC_CCD_QUERIES:-}
common=()
command -v ninja > /dev/null && common+=(-G Ninja)
if command -v ccache > /dev/null; then
  common+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  # Paths relative to the checkout, so that a fresh clone elsewhere hits the
  # cache too (the test folders' unity sources include their files by
  # relative path for the same reason). The sanitizer build keeps line
  # tables, whose compilation directory would otherwise enter the hash; with
  # it left out, a cached object may name another checkout as that directory,
  # while its file names stay relative.
  export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}
  export CCACHE_NOHASHDIR=${CCACHE_NOHASHDIR:-1}
fi

phases=()
run_start=$(date +%s)
phase_start=$run_start
end_phase() {
  local now
  now=$(date +%s)
  phases+=("$(printf '%-44s %5d s' "$1" $((now - phase_start)))")
  phase_start=$now
}
report() {
  local status=$?
  echo "== phase times"
  local line
  for line in "${phases[@]}"; do echo "  $line"; done
  printf '  %-44s %5d s\n' "total" $(($(date +%s) - run_start))
  [ "$status" -eq 0 ] || echo "== FAILED (exit $status)"
}
trap report EXIT

echo "== 0. docs (Doxygen, fails on undocumented public names)"
scripts/docs.sh
end_phase "0. docs (Doxygen)"

echo "== 1. header check (clang++, every header alone, C++17 and C++20)"
cmake -S . -B build/clang "${common[@]}" -DCMAKE_CXX_COMPILER=clang++ \
  -DIPC_BUILD_TESTS=OFF -DIPC_BUILD_BENCHMARKS=OFF -DIPC_BUILD_EXAMPLES=OFF -DIPC_BUILD_TUTORIALS=OFF \
  -DIPC_INSTALL=OFF -DIPC_HEADER_CHECK=ON > /dev/null
cmake --build build/clang --target ipc_header_check -j "$jobs"
end_phase "1. header check (clang++)"

echo "== 2. tests and tutorials under ASan + UBSan (clang++, with the fuzz targets)"
# clang++ compiles the instrumented code about twice as fast as g++ (which
# compiles every header, the examples and their suite in phase 3); line
# tables are enough for the sanitizers' stack traces. The example programs
# and their tests run in the optimised build only: under the sanitizers they
# took 7 of the 11 minutes this phase would take, for code that is not the
# library's.
cmake -S . -B build/sanitize "${common[@]}" -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_CXX_FLAGS_DEBUG="-O1 -gline-tables-only" -DIPC_SANITIZE=ON -DIPC_BUILD_FUZZERS=ON \
  -DIPC_BUILD_BENCHMARKS=OFF -DIPC_BUILD_EXAMPLES=OFF -DIPC_INSTALL=OFF \
  -DIPC_CCD_QUERIES="$queries" > /dev/null
cmake --build build/sanitize -j "$jobs"
end_phase "2a. ASan + UBSan build"
(cd build/sanitize && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --output-on-failure -j "$jobs")
end_phase "2b. ASan + UBSan tests"

echo "== 3. optimised build with g++ (examples and their tests, benchmarks, umbrella header check)"
# -O2 instead of CMake's Release -O3: the two largest test sources compile
# 21-24% faster (227 -> 178 s and 119 -> 90 s, side by side; the solvers'
# sources gain little), for tests that run about a sixth slower (test_examples
# 58 -> 69 s), and the floating-point results are the same (neither level
# reassociates). Its own folder, so that build/release stays the -O3 build
# that benchmarks/README.md measures.
# The library's own suites ran in phase 2; building them again here cost
# about 6 of the budget's 30 minutes with an empty compiler cache. This phase
# builds and runs what phase 2 leaves out: the example programs and their
# suite, the command-line and packaging tests, the benchmarks, and every
# header through the umbrella header with g++.
cmake -S . -B build/test "${common[@]}" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" \
  -DIPC_BUILD_LIBRARY_TESTS=OFF -DIPC_BUILD_TUTORIALS=OFF -DIPC_HEADER_CHECK=ON -DIPC_HEADER_CHECK_EACH=OFF -DIPC_CCD_QUERIES="$queries" > /dev/null
cmake --build build/test -j "$jobs"
end_phase "3a. optimised build (-O2)"
(cd build/test && ctest --output-on-failure -j "$jobs")
end_phase "3b. tests (-O2 build)"

echo "== 4. fuzz targets"
FUZZ_SECONDS=${FUZZ_SECONDS:-20} FUZZ_BUILD=build/sanitize scripts/fuzz.sh
end_phase "4. fuzzing (build and runs)"

echo "== 5. Python bindings (CMake build of the module, pytest)"
# Debian's interpreter, whatever python3 comes first on PATH: the module is
# built for its ABI and the tests need its numpy, scipy and pytest. Only the
# module target is built, through ccache like the rest (the pip/setuptools
# path of python/README.md is not exercised here: it would compile the same
# files again without the cache).
cmake -S . -B build/python "${common[@]}" -DCMAKE_BUILD_TYPE=Release -DIPC_BUILD_PYTHON=ON \
  -DPython_EXECUTABLE=/usr/bin/python3 -DIPC_BUILD_TESTS=OFF -DIPC_BUILD_EXAMPLES=OFF -DIPC_BUILD_TUTORIALS=OFF \
  -DIPC_BUILD_BENCHMARKS=OFF -DIPC_INSTALL=OFF > /dev/null
cmake --build build/python --target ipc_python -j "$jobs"
end_phase "5a. Python module build"
PYTHONPATH="$PWD/build/python/python" /usr/bin/python3 -m pytest -q -p no:cacheprovider python/tests
end_phase "5b. Python tests"
