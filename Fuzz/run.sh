#!/usr/bin/env bash
# Builds and runs the FTMSDecode libFuzzer target.
#
#   Fuzz/run.sh [RUNS] [SECONDS] [extra libFuzzer flags...]
#
# RUNS    number of inputs (-runs), default 100000; 0 = unlimited
# SECONDS time limit (-max_total_time), default 0 = none
# The binary and corpus live in Fuzz/.build and Fuzz/corpus (both git-ignored); crashes are
# written to Fuzz/artifacts/. Seeds come from Fuzz/seeds (committed).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
runs="${1:-100000}"
seconds="${2:-0}"
shift $(( $# > 2 ? 2 : $# )) || true
mkdir -p "$here/.build" "$here/corpus" "$here/artifacts"
bin="$here/.build/ftms-fuzz"
sources=("$root"/Sources/FTMSDecode/*.swift "$root"/Sources/FTMSRender/*.swift "$root"/Sources/SessionAssembly/*.swift
  "$root/Tests/FTMSDecodeTests/Support/WalkSelfCheck.swift" "$here/FuzzEntry.swift"
  "$root/Sources/Store/RecordColumns.swift" "$here/fit/StoreShim.swift")
civil=("$root"/Sources/CivilDate/*.swift)
if [[ ! -x "$bin" || -n "$(find "${sources[@]}" "${civil[@]}" -newer "$bin" 2>/dev/null)" ]]; then
  echo "building $bin" >&2
  # FTMSRender writes its JSON through CivilDate's SortedJSON: CivilDate is built first as a module of its own (as in
  # Fuzz/fit/run.sh).
  swiftc -sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 -module-name CivilDate \
    -emit-module -emit-module-path "$here/.build/CivilDate.swiftmodule" -emit-library -static \
    -o "$here/.build/libCivilDate.a" "${civil[@]}"
  # One module (the harness reaches the three modules' internals); their imports of FTMSDecode are ignored there.
  swiftc -sanitize=fuzzer,address -parse-as-library -O -g -swift-version 6 -I "$here/.build" -L "$here/.build" \
    -module-name FTMSDecode -package-name workout_pipeline -o "$bin" "${sources[@]}" -lCivilDate
fi
# libFuzzer runs forever with -runs=-1 (its -runs=0 runs only the corpus).
if [[ "$runs" == "0" ]]; then runs=-1; fi
args=(-runs="$runs" -print_final_stats=1 -artifact_prefix="$here/artifacts/" -max_len=2048)
if [[ "$seconds" != "0" ]]; then args+=(-max_total_time="$seconds"); fi
exec "$bin" "${args[@]}" "$@" "$here/corpus" "$here/seeds"
