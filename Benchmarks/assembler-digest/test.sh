#!/usr/bin/env bash
# Runs FTMSDecodeTests without SwiftPM (which builds every test target of the package, ~1,700 steps): FTMSDecode with
# -enable-testing, TestKit, and the tests linked with swift-testing's entry point. A few minutes on 2 cores.
#   Benchmarks/assembler-digest/test.sh [swift-testing arguments, e.g. --filter SessionAssembler]
# The property tests (files that import PropertyBased, a package) are left out: `swift test --filter FTMSDecodeTests` runs
# them.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
printf 'import Testing\n@main struct Runner { static func main() async { await Testing.__swiftPMEntryPoint() as Never } }\n' > main.swift
swiftc -O -wmo -enable-testing -parse-as-library -module-name FTMSDecode -emit-module -emit-module-path FTMSDecode.swiftmodule \
    -emit-library -static -o libFTMSDecode.a "$root"/Sources/FTMSDecode/*.swift
swiftc -Onone -parse-as-library -module-name TestKit -emit-module -emit-module-path TestKit.swiftmodule \
    -emit-library -static -o libTestKit.a "$root"/Tests/TestKit/*.swift
swiftc -Onone -enable-testing -parse-as-library -module-name FTMSDecodeTests -I . -L . -lFTMSDecode -lTestKit \
    $(grep -L "^import PropertyBased" "$root"/Tests/FTMSDecodeTests/*.swift) "$root"/Tests/FTMSDecodeTests/Support/*.swift \
    main.swift -o tests
./tests "$@"
