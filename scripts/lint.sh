#!/usr/bin/env bash
# Style that holds by itself: the toolchain's `swift format` with the project's .swift-format, strict (any finding
# fails). `scripts/lint.sh --fix` rewrites the tree in place first (then review and commit the result). Then every
# target of Package.swift must declare what it imports and import what it declares, and the README's architecture
# drawing must show the dependencies the manifest declares (scripts/check-deps.py).
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(Package.swift Sources Tests Fuzz Benchmarks)
if [ "${1:-}" = "--fix" ]; then
    swift format format --in-place --recursive --parallel "${paths[@]}"
fi
swift format lint --strict --recursive --parallel "${paths[@]}"
python3 scripts/check-deps.py
