#!/usr/bin/env bash
# Builds the libFuzzer targets of tests/fuzz with clang++ (ASan + UBSan) in
# build/fuzz and runs each for a bounded time on a scratch copy of its seed
# corpus (tests/fuzz/corpus/<target>/, left untouched).
#   FUZZ_SECONDS  time per target (default 30)
#   FUZZ_TARGETS  space-separated subset of the targets (default: all)
#   FUZZ_WORK     scratch folder (default: a fresh mktemp -d, removed on
#                 success, kept with the crash inputs and logs on failure)
#   JOBS          build parallelism and targets run at once (default 2)
#   CXX           the clang++ to use (default clang++)
#   FUZZ_BUILD    an already configured clang build folder with
#                 IPC_BUILD_FUZZERS=ON to build the targets in (scripts/test.sh
#                 passes its sanitizer build); default: configure build/fuzz
# Exits non-zero when a target crashes, hangs (-timeout=10), runs out of
# memory (-rss_limit_mb=2048), reports a sanitizer error or fails a checked
# invariant. Prints one line per target with its executions and time.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
jobs=${JOBS:-2}
seconds=${FUZZ_SECONDS:-30}
cxx=${CXX:-clang++}
all_targets="fuzz_distance fuzz_ccd_additive fuzz_ccd_inclusion fuzz_ccd_root_finding fuzz_collision_mesh"
targets=${FUZZ_TARGETS:-$all_targets}
generator=()
command -v ninja > /dev/null && generator=(-G Ninja)

echo "== fuzz targets (clang++, libFuzzer + ASan + UBSan)"
build_start=$(date +%s)
build=${FUZZ_BUILD:-}
if [[ -z "$build" ]]; then
  build=build/fuzz
  # One thread: runs are reproducible and the mesh-level functions stay fast
  # on small inputs.
  cmake -S . -B "$build" "${generator[@]}" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE= \
    -DIPC_BUILD_FUZZERS=ON -DIPC_BUILD_TESTS=OFF -DIPC_BUILD_BENCHMARKS=OFF \
    -DIPC_BUILD_EXAMPLES=OFF -DIPC_INSTALL=OFF -DIPC_WITH_OPENMP=OFF > /dev/null
fi
# shellcheck disable=SC2086
cmake --build "$build" -j "$jobs" --target $targets
echo "build: $(( $(date +%s) - build_start )) s"

if [[ -n "${FUZZ_WORK:-}" ]]; then
  work=$FUZZ_WORK
  mkdir -p "$work"
  keep_work=1
else
  work=$(mktemp -d "${TMPDIR:-/tmp}/ipc-fuzz.XXXXXX")
  keep_work=0
fi

# Runs one target on a scratch copy of its corpus; its verdict goes to
# $work/<target>/verdict (first word "ok" or "FAILED").
run_target() {
  local target=$1
  local exe="$root/$build/tests/fuzz/$target"
  local corpus="$work/$target/corpus" artifacts="$work/$target/artifacts/" log="$work/$target/log.txt"
  local verdict="$work/$target/verdict"
  rm -rf "$work/$target"
  mkdir -p "$corpus" "$artifacts"
  if [[ -d "tests/fuzz/corpus/$target" ]]; then
    cp -R "tests/fuzz/corpus/$target/." "$corpus/"
  fi
  local start status=0
  start=$(date +%s)
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0} \
  UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
  OMP_NUM_THREADS=1 \
    "$exe" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$artifacts" "$corpus" > "$log" 2>&1 || status=$?
  local elapsed execs crashes
  elapsed=$(( $(date +%s) - start ))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  crashes=$(find "$artifacts" -type f | wc -l)
  if [[ $status -ne 0 || $crashes -ne 0 ]]; then
    {
      echo "FAILED $target: exit $status after ${execs:-?} execs in ${elapsed} s; log: $log"
      find "$artifacts" -type f -printf '  reproducer: %p\n'
      grep -m 5 -E 'ERROR: |runtime error|fuzz invariant|deadly signal|timeout|out-of-memory' "$log" | sed 's/^/  /' || true
    } > "$verdict"
  else
    echo "ok $target: ${execs:-?} execs in ${elapsed} s" > "$verdict"
  fi
}

# JOBS targets at a time (each libFuzzer process uses one core).
running=0
for target in $targets; do
  if (( running >= jobs )); then
    wait -n || true
    running=$((running - 1))
  fi
  run_target "$target" &
  running=$((running + 1))
done
wait

failed=()
for target in $targets; do
  verdict="$work/$target/verdict"
  if [[ -f "$verdict" ]] && head -n 1 "$verdict" | grep -q '^ok '; then
    sed 's/^ok //' "$verdict"
  else
    [[ -f "$verdict" ]] && cat "$verdict" || echo "FAILED $target: no verdict"
    failed+=("$target")
  fi
done

if [[ ${#failed[@]} -ne 0 ]]; then
  echo "fuzzing failed: ${failed[*]} (scratch folder kept: $work)"
  echo "reproduce with: $build/tests/fuzz/<target> <reproducer>"
  exit 1
fi
if [[ $keep_work -eq 0 ]]; then
  rm -rf "$work"
fi
echo "fuzzing passed: $(echo $targets | wc -w) targets, ${seconds} s each"
