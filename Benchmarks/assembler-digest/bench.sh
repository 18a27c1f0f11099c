#!/usr/bin/env bash
# Times SessionAssembler against the streaming decoders without SwiftPM: builds FTMSDecode (`swiftc -O -wmo`) of a git
# revision and of the work tree, links timing.swift (with the benchmark's generator) against each, then runs them
# alternately, so before and after are measured back to back on the same (shared) machine.
#   Benchmarks/assembler-digest/bench.sh [REV] [MB] [REPS] [ROUNDS]     (default: HEAD 64 7 2)
set -euo pipefail
source "$(dirname "$0")/common.sh"
rev="${1:-HEAD}"; mb="${2:-64}"; reps="${3:-7}"; rounds="${4:-2}"
work="${BENCH_DIR:-$(mktemp -d)}"
export_revision "$rev" "$work/old"
[ -n "${SKIP_OLD:-}" ] || build "$work/old" timing "$work"/old/src/*.swift
build "$work/new" timing "${worktree_sources[@]}"
uptime
for i in $(seq "$rounds"); do
    echo "== $rev"; "$work/old/timing" "$mb" "$reps"
    echo "== work tree"; "$work/new/timing" "$mb" "$reps"
done
