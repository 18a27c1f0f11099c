#!/usr/bin/env bash
# Times SessionAssembler against the streaming decoders without SwiftPM: builds FTMSDecode (`swiftc -O -wmo`) of a git
# revision and of the work tree, links timing.swift (with the benchmark's generator) against each, then runs them
# alternately, so before and after are measured back to back on the same (shared) machine.
#   Benchmarks/assembler-digest/bench.sh [REV] [MB] [REPS] [ROUNDS]     (default: HEAD 64 7 2)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
rev="${1:-HEAD}"; mb="${2:-64}"; reps="${3:-7}"; rounds="${4:-2}"
work="${BENCH_DIR:-$(mktemp -d)}"
mkdir -p "$work/old/src" "$work/new"
rm -f "$work"/old/src/*.swift
for f in $(git -C "$root" ls-tree --name-only "$rev" Sources/FTMSDecode/); do
    git -C "$root" show "$rev:$f" > "$work/old/src/$(basename "$f")"
done
build() { # dir sources...
    local dir="$1"; shift
    swiftc -O -wmo -parse-as-library -module-name FTMSDecode -emit-module -emit-module-path "$dir/FTMSDecode.swiftmodule" \
        -emit-library -static -o "$dir/libFTMSDecode.a" "$@"
    swiftc -O -wmo -parse-as-library -module-name Timing -I "$dir" -L "$dir" -lFTMSDecode \
        "$root/Benchmarks/assembler-digest/timing.swift" "$root/Sources/PipelineBench/FTMSBench.swift" -o "$dir/timing"
}
[ -n "${SKIP_OLD:-}" ] || build "$work/old" "$work"/old/src/*.swift
build "$work/new" "$root"/Sources/FTMSDecode/*.swift
uptime
for i in $(seq "$rounds"); do
    echo "== $rev"; "$work/old/timing" "$mb" "$reps"
    echo "== work tree"; "$work/new/timing" "$mb" "$reps"
done
