#!/usr/bin/env bash
# Builds and runs everything the project checks, on a fresh machine with the
# Debian packages of the README installed:
#   1. header check with clang++: every public header alone, C++17 and C++20;
#   2. the test suite under AddressSanitizer + UndefinedBehaviorSanitizer;
#   3. the Release build with g++ (tests, benchmarks, examples, header check)
#      and the full test suite.
# Set IPC_CCD_QUERIES to a folder of CCD benchmark queries to include the
# tests that read them; JOBS to change build parallelism (default: 2).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${JOBS:-2}
queries=${IPC_CCD_QUERIES:-}
generator=()
command -v ninja > /dev/null && generator=(-G Ninja)

echo "== header check (clang++, C++17 and C++20)"
cmake -S . -B build/clang "${generator[@]}" -DCMAKE_CXX_COMPILER=clang++ \
  -DIPC_BUILD_TESTS=OFF -DIPC_BUILD_BENCHMARKS=OFF -DIPC_BUILD_EXAMPLES=OFF \
  -DIPC_INSTALL=OFF -DIPC_HEADER_CHECK=ON > /dev/null
cmake --build build/clang --target ipc_header_check -j "$jobs"

echo "== tests under ASan + UBSan"
cmake -S . -B build/sanitize "${generator[@]}" -DCMAKE_BUILD_TYPE=Debug \
  -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" -DIPC_SANITIZE=ON \
  -DIPC_BUILD_BENCHMARKS=OFF -DIPC_BUILD_EXAMPLES=OFF -DIPC_CCD_QUERIES="$queries" > /dev/null
cmake --build build/sanitize -j "$jobs"
(cd build/sanitize && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
  ctest --output-on-failure -j "$jobs")

echo "== Release build with g++ (tests, benchmarks, examples, header check)"
cmake -S . -B build/release "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DIPC_HEADER_CHECK=ON -DIPC_CCD_QUERIES="$queries" > /dev/null
cmake --build build/release -j "$jobs"
(cd build/release && ctest --output-on-failure -j "$jobs")
