#!/usr/bin/env bash
# Compares SessionAssembler's output, bit for bit, between a git revision and the work tree (issue 13: speed work ends
# with the same results). Builds FTMSDecode of both with `swiftc -O` (no SwiftPM, a few minutes on 2 cores) and links
# digest.swift (with the benchmark's recording generator) against each.
#   Benchmarks/assembler-digest/run.sh [REV]      (default REV: HEAD)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
rev="${1:-HEAD}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/old/src" "$work/new"
for f in $(git -C "$root" ls-tree --name-only "$rev" Sources/FTMSDecode/); do
    git -C "$root" show "$rev:$f" > "$work/old/src/$(basename "$f")"
done
build() { # dir sources...
    local dir="$1"; shift
    swiftc -O -wmo -parse-as-library -module-name FTMSDecode -emit-module -emit-module-path "$dir/FTMSDecode.swiftmodule" \
        -emit-library -static -o "$dir/libFTMSDecode.a" "$@"
    swiftc -O -wmo -parse-as-library -module-name Digest -I "$dir" -L "$dir" -lFTMSDecode \
        "$root/Benchmarks/assembler-digest/digest.swift" "$root/Sources/PipelineBench/FTMSBench.swift" -o "$dir/digest"
}
build "$work/old" "$work"/old/src/*.swift
build "$work/new" "$root"/Sources/FTMSDecode/*.swift
old="$("$work/old/digest" | tail -1)"; new="$("$work/new/digest" | tail -1)"
"$work/new/digest" | head -1
echo "$rev:       $old"
echo "work tree: $new"
[ "$old" = "$new" ] && echo "equal" || { echo "DIFFERENT"; exit 1; }
