#!/usr/bin/env bash
# Builds and runs the WorkoutFiles (FIT, TCX/GPX, whole-file, stored samples, primary choice) libFuzzer target.
#
#   Fuzz/fit/run.sh [RUNS] [SECONDS] [extra libFuzzer flags...]
#
# RUNS    number of inputs (-runs), default 100000; 0 = unlimited
# SECONDS time limit (-max_total_time), default 0 = none
# The binary and corpus live in Fuzz/fit/.build and Fuzz/fit/corpus; crashes are written to Fuzz/fit/artifacts/.
# Seeds come from Fuzz/fit/seeds (committed).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
runs="${1:-100000}"
seconds="${2:-0}"
shift $(( $# > 2 ? 2 : $# )) || true
if [[ "$runs" == "0" ]]; then runs=-1; fi  # libFuzzer: -runs=-1 is unlimited, -runs=0 only replays the corpus
mkdir -p "$here/.build" "$here/corpus" "$here/artifacts"
bin="$here/.build/workoutfiles-fuzz"
sources=$(find "$root/Sources/WorkoutFiles" -name '*.swift')
civil=$(find "$root/Sources/CivilDate" -name '*.swift')
# The store's samples codec (issue 40): three files of Sources/Store that need nothing of it but zstd, and
# StoreShim.swift for the one error type they throw.
store=("$root/Sources/Store/SampleColumns.swift" "$root/Sources/Store/StoredSamples.swift" "$root/Sources/Store/ZstdFrame.swift")
# The primary choice among recordings of one activity (WorkoutMetrics' ActivityOverlap: pure, CivilDate only, which
# WorkoutMetrics re-exports from CivilDateExport.swift).
overlap=("$root/Sources/WorkoutMetrics/ActivityOverlap.swift" "$root/Sources/WorkoutMetrics/CivilDateExport.swift")
if [[ ! -x "$bin" || -n "$(find "$root/Sources/WorkoutFiles" "$root/Sources/CivilDate" "${store[@]}" "${overlap[@]}" "$here"/*.swift -newer "$bin" -name '*.swift' 2>/dev/null)" ]]; then
  echo "building $bin" >&2
  # WorkoutFiles imports CivilDate (its one dependency besides zlib): built first as a module of its own.
  # shellcheck disable=SC2086
  swiftc -sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 -module-name CivilDate \
    -emit-module -emit-module-path "$here/.build/CivilDate.swiftmodule" -emit-library -static \
    -o "$here/.build/libCivilDate.a" $civil
  # One module of sources from several targets: `-package-name` for the `package` declarations among them.
  # shellcheck disable=SC2086
  swiftc -sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 -I "$root/Sources/CZlib" \
    -I "$root/Sources/CZstd" -I "$here/.build" -L "$here/.build" -module-name WorkoutFilesFuzz -package-name pipeline -o "$bin" $sources \
    "${store[@]}" "${overlap[@]}" "$here/StoreShim.swift" "$here/FuzzEntry.swift" -lCivilDate -lz -lzstd
fi
args=(-runs="$runs" -print_final_stats=1 -artifact_prefix="$here/artifacts/" -max_len=8192)
if [[ "$seconds" != "0" ]]; then args+=(-max_total_time="$seconds"); fi
exec "$bin" "${args[@]}" "$@" "$here/corpus" "$here/seeds"
