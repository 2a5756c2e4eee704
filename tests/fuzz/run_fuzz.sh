#!/usr/bin/env bash
# Bounded fuzzing: configures a clang build with -fsanitize=fuzzer,address,undefined,
# builds the libFuzzer targets and runs each for an equal share of SECONDS (default 60 in
# all). Exits non-zero when a target crashes; the crashing input is kept as
# build/fuzz/artifacts/<target>-crash-* and belongs in a regression test in tests/unit.
#   tests/fuzz/run_fuzz.sh [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/../.."

total="${1:-60}"
build="${WAVEBENCH_FUZZ_BUILD:-build/fuzz}"
targets=(scenario csv png obj)
share=$(( total / ${#targets[@]} ))
[ "$share" -ge 1 ] || share=1

# -Wno-pass-failed: with the sanitizers' instrumentation clang cannot honour the kernels'
# `omp simd` requests and says so; the Release build (GCC) vectorises them.
CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS="-fsanitize=fuzzer-no-link -Wno-pass-failed" -DWAVEBENCH_SANITIZE=ON -DWAVEBENCH_FUZZ=ON \
  -DWAVEBENCH_BUILD_APP=OFF -DWAVEBENCH_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" -j "$(nproc)" --target "${targets[@]/#/fuzz_}"

mkdir -p "$build/artifacts"
status=0
for target in "${targets[@]}"; do
  corpus="$build/corpus/$target"
  mkdir -p "$corpus"
  case "$target" in
    # Not the builtins that read large data files (the Monai tank's 96k-point bathymetry, the
    # shoal's record): every mutation of them parses the file again, and the fuzzer managed a
    # few executions a second; a small seed covers their keys (incoming-friction-record.json).
    scenario) for f in resources/scenarios/*.json tests/fuzz/seeds/scenario/*.json; do
                case "$(basename "$f")" in monai.json|shoal.json) ;; *) cp "$f" "$corpus/" ;; esac
              done ;;
    csv) cp tests/fuzz/seeds/csv/* "$corpus/" ;;
    obj) cp tests/fuzz/seeds/obj/* "$corpus/" ;;
    # The png target reads two bytes (the grid to resample to) before the image.
    png) for f in tests/fuzz/seeds/png/*.png; do
           { printf '\x10\x08'; cat "$f"; } > "$corpus/$(basename "$f")"
         done ;;
  esac
  log="$build/artifacts/$target.log"
  if ! "$build/tests/fuzz/fuzz_$target" -max_total_time="$share" -print_final_stats=1 \
      -rss_limit_mb=2048 -max_len=8192 -timeout=10 \
      -artifact_prefix="$build/artifacts/$target-" "$corpus" > "$log" 2>&1; then
    echo "fuzz_$target: CRASH (see $log)"
    grep -m 20 -E "ERROR|SUMMARY|runtime error|Test unit written" "$log" || tail -20 "$log"
    status=1
    continue
  fi
  runs=$(grep -m1 -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
  echo "fuzz_$target: ${share} s, ${runs:-?} executions, corpus $(ls "$corpus" | wc -l) inputs, no crash"
done
exit "$status"
