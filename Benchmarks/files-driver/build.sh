#!/usr/bin/env bash
# Builds an -O benchmark driver of WorkoutFiles without building the package (Benchmarks/files-results.md):
#
#   Benchmarks/files-driver/build.sh [SOURCE_ROOT] [OUT_DIR]
#
# SOURCE_ROOT is a checkout (default: this one; a `git worktree` of another revision gives a "before" binary).
# WorkoutFiles is compiled with `swiftc -O -wmo` into a static library (as the fuzz harness compiles it, with the
# CZlib module map and -lz), and Sources/PipelineBench/FilesBench.swift of THIS checkout plus main.swift are linked
# against it, so before and after run the same benchmark code. The binary is OUT_DIR/files-bench.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
src="$(cd "${1:-$root}" && pwd)"
out="${2:-$here/.build}"
mkdir -p "$out"
sources=$(find "$src/Sources/WorkoutFiles" -name '*.swift' | sort)
# WorkoutFiles imports CivilDate since 2026-11-26 (older revisions do not have it: then nothing is built for it).
civil=()
if [[ -d "$src/Sources/CivilDate" ]] && grep -rqs "import CivilDate" "$src/Sources/WorkoutFiles"; then
  # shellcheck disable=SC2046
  swiftc -O -wmo -g -parse-as-library -swift-version 6 -module-name CivilDate \
    -emit-module -emit-module-path "$out/CivilDate.swiftmodule" -emit-library -static \
    -o "$out/libCivilDate.a" $(find "$src/Sources/CivilDate" -name '*.swift' | sort)
  civil=(-lCivilDate)
fi
# shellcheck disable=SC2086
swiftc -O -wmo -g -parse-as-library -swift-version 6 -I "$src/Sources/CZlib" -I "$out" -module-name WorkoutFiles \
  -emit-module -emit-module-path "$out/WorkoutFiles.swiftmodule" -emit-library -static \
  -o "$out/libWorkoutFiles.a" $sources
swiftc -O -wmo -g -parse-as-library -swift-version 6 -I "$out" -I "$src/Sources/CZlib" -module-name FilesDriver \
  -o "$out/files-bench" "$root/Sources/PipelineBench/FilesBench.swift" "$here/main.swift" -L "$out" -lWorkoutFiles \
  "${civil[@]}" -lz
echo "$out/files-bench"
