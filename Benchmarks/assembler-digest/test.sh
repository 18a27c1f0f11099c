#!/usr/bin/env bash
# Runs FTMSDecodeTests and SessionAssemblyTests without SwiftPM (which builds every test target of the package, ~1,700
# steps): FTMSDecode, FTMSRender and SessionAssembly with -enable-testing, TestKit, and each test target linked with swift-testing's
# entry point. A few minutes on 2 cores.
#   Benchmarks/assembler-digest/test.sh [swift-testing arguments, e.g. --filter SessionAssembler]
# The property tests (files that import PropertyBased, a package) are left out: `swift test --filter
# "FTMSDecodeTests|SessionAssemblyTests"` runs them.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
printf 'import Testing\n@main struct Runner { static func main() async { await Testing.__swiftPMEntryPoint() as Never } }\n' > main.swift
library() { # MODULE OPTIMISATION SOURCES...
    local module="$1" opt="$2"; shift 2
    swiftc "$opt" -enable-testing -parse-as-library -module-name "$module" -package-name workout_pipeline -I . \
        -emit-module -emit-module-path "$module.swiftmodule" -emit-library -static -o "lib$module.a" "$@"
}
library FTMSDecode -O "$root"/Sources/FTMSDecode/*.swift
library FTMSRender -O "$root"/Sources/FTMSRender/*.swift
library SessionAssembly -O "$root"/Sources/SessionAssembly/*.swift
library TestKit -Onone "$root"/Tests/TestKit/*.swift
# Static libraries: each before the libraries it uses.
for target in FTMSDecodeTests SessionAssemblyTests; do
    swiftc -Onone -enable-testing -parse-as-library -module-name "$target" -I . -L . \
        -lSessionAssembly -lFTMSRender -lFTMSDecode -lTestKit \
        $(grep -L "^import PropertyBased" "$root/Tests/$target"/*.swift) \
        $(ls "$root/Tests/$target"/Support/*.swift 2>/dev/null) main.swift -o "$target"
    "./$target" "$@"
done
