#!/usr/bin/env bash
# Same-minutes A/B of the decoder levels: builds FTMSDecode (`swiftc -O -wmo`) of a git revision and of the work tree,
# links passes.swift (owned values, streaming, assembler, BlobReader.read; thread CPU) against each, then runs the two
# alternately, ROUNDS times each.
#   Benchmarks/assembler-digest/ab.sh [REV] [MB] [REPS] [ROUNDS]     (default: main 64 7 3)
set -euo pipefail
source "$(dirname "$0")/common.sh"
rev="${1:-main}"; mb="${2:-64}"; reps="${3:-7}"; rounds="${4:-3}"
work="${BENCH_DIR:-$(mktemp -d)}"
export_revision "$rev" "$work/old"
[ -n "${SKIP_OLD:-}" ] || build "$work/old" passes "$work"/old/src/*.swift
[ -n "${SKIP_NEW:-}" ] || build "$work/new" passes "${worktree_sources[@]}"
for i in $(seq "$rounds"); do
    echo "== $rev $(date -u +%H:%M:%S) $(cut -d' ' -f1-3 /proc/loadavg)"; "$work/old/passes" "$mb" "$reps"
    echo "== work tree $(date -u +%H:%M:%S) $(cut -d' ' -f1-3 /proc/loadavg)"; "$work/new/passes" "$mb" "$reps"
done
