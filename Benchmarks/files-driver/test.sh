#!/usr/bin/env bash
# Runs WorkoutFilesTests without SwiftPM (which builds every test target of the package): WorkoutFiles (with CivilDate
# and the CZlib module map, as build.sh) compiled with -enable-testing, the tests linked with swift-testing's entry
# point, and `Bundle.module` pointing at Tests/WorkoutFilesTests (where SwiftPM copies Fixtures from). A few minutes
# on 2 cores.
#   Benchmarks/files-driver/test.sh [SOURCE_ROOT] [swift-testing arguments, e.g. --filter FastPath]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
src="$(cd "${1:-$here/../..}" && pwd)"
shift || true
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
printf 'import Testing\n@main struct Runner { static func main() async { await Testing.__swiftPMEntryPoint() as Never } }\n' > main.swift
printf 'import Foundation\nextension Foundation.Bundle { static let module = Bundle(path: "%s/Tests/WorkoutFilesTests")! }\n' "$src" > bundle.swift
# shellcheck disable=SC2046
swiftc -O -wmo -parse-as-library -swift-version 6 -module-name CivilDate -emit-module \
  -emit-module-path CivilDate.swiftmodule -emit-library -static -o libCivilDate.a \
  $(find "$src/Sources/CivilDate" -name '*.swift' | sort)
# shellcheck disable=SC2046
swiftc -O -wmo -enable-testing -parse-as-library -swift-version 6 -I "$src/Sources/CZlib" -I . \
  -module-name WorkoutFiles -emit-module -emit-module-path WorkoutFiles.swiftmodule -emit-library -static \
  -o libWorkoutFiles.a $(find "$src/Sources/WorkoutFiles" -name '*.swift' | sort)
# shellcheck disable=SC2046
swiftc -Onone -enable-testing -parse-as-library -module-name WorkoutFilesTests -I . -I "$src/Sources/CZlib" -L . \
  -lWorkoutFiles -lCivilDate -lz $(find "$src/Tests/WorkoutFilesTests" -name '*.swift' | sort) bundle.swift main.swift \
  -o tests
./tests "$@"
