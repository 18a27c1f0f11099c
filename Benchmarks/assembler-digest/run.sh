#!/usr/bin/env bash
# Compares SessionAssembler's output, bit for bit, between a git revision and the work tree (issue 13: speed work ends
# with the same results). Builds FTMSDecode of both with `swiftc -O` (no SwiftPM, a few minutes on 2 cores) and links
# digest.swift (with the benchmark's recording generator) against each.
#   Benchmarks/assembler-digest/run.sh [REV]      (default REV: HEAD)
set -euo pipefail
source "$(dirname "$0")/common.sh"
rev="${1:-HEAD}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export_revision "$rev" "$work/old"
build "$work/old" digest "$work"/old/src/*.swift
build "$work/new" digest "${worktree_sources[@]}"
old="$("$work/old/digest" | tail -1)"; new="$("$work/new/digest" | tail -1)"
"$work/new/digest" | sed -n 1p
echo "$rev:       $old"
echo "work tree: $new"
[ "$old" = "$new" ] && echo "equal" || { echo "DIFFERENT"; exit 1; }
