#!/usr/bin/env bash
# The main job: builds the project in Release and runs the default demo.
# With the example solver built, that is a coupled C-IPC scene (a soft volume,
# a cloth, rods and particles) that prints its progress and a summary table
# and renders the last frame to out/demo/; the kernel benchmark table follows.
# Set IPC_CCD_QUERIES to a folder of CCD benchmark queries to also print the
# CCD benchmark table. JOBS sets build parallelism (default: 2).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${JOBS:-2}
generator=()
command -v ninja > /dev/null && generator=(-G Ninja)

cmake -S . -B build/release "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DIPC_CCD_QUERIES="${IPC_CCD_QUERIES:-}" > /dev/null
cmake --build build/release -j "$jobs"

if [ -x build/release/examples/ipc/ipc_sim ]; then
  echo "== demo: coupled scene"
  build/release/examples/ipc/ipc_sim --scene all_in --out out/demo --json out/demo/stats.json
fi

echo "== kernel benchmark"
build/release/benchmarks/kernels_benchmark --n 1000000

if [ -n "${IPC_CCD_QUERIES:-}" ]; then
  echo "== CCD benchmark"
  build/release/benchmarks/ccd_benchmark --data "$IPC_CCD_QUERIES"
fi
