#!/usr/bin/env bash
# Regenerates the apps' client, Generated/PipelineOpenAPI/{Types,Client}.swift (the module PipelineOpenAPI, which
# PipelineClient re-exports), from docs/openapi.yaml with swift-openapi-generator (pinned in
# Tools/openapi-gen/Package.swift; configuration in Generated/openapi-generator-config.yaml). The generator is never
# part of the main package's build: run this after changing the document and commit the result.
#
#   scripts/generate-client.sh           regenerate in place
#   scripts/generate-client.sh --check   regenerate into a temporary folder; exit 1 with the diff when the committed
#                                        files are stale (CI, .ci/run)
#
# The first run builds the generator (Tools/openapi-gen/.build, a few minutes on 2 cores); later runs reuse it.
set -euo pipefail
cd "$(dirname "$0")/.."
check=0
case "${1:-}" in
    --check) check=1 ;;
    "") ;;
    *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac
tool=Tools/openapi-gen
swift build --package-path "$tool" --product swift-openapi-generator 2>&1 | { grep -vE "^\[[0-9]+/[0-9]+\]" || true; } >&2
generator="$(swift build --package-path "$tool" --product swift-openapi-generator --show-bin-path)/swift-openapi-generator"
committed=Generated/PipelineOpenAPI
config=Generated/openapi-generator-config.yaml
if [ "$check" -eq 0 ]; then
    "$generator" generate docs/openapi.yaml --config "$config" --output-directory "$committed" >&2
    echo "regenerated $committed from docs/openapi.yaml"
    exit 0
fi
fresh="$(mktemp -d)"
log="$(mktemp)"
trap 'rm -rf "$fresh" "$log"' EXIT
if ! "$generator" generate docs/openapi.yaml --config "$config" --output-directory "$fresh" >"$log" 2>&1; then
    cat "$log" >&2
    echo "!! the generator failed on docs/openapi.yaml" >&2
    exit 1
fi
if ! diff -ru "$committed" "$fresh"; then
    echo "!! $committed is stale: it is not what docs/openapi.yaml generates; run scripts/generate-client.sh and commit" >&2
    exit 1
fi
echo "client up to date: $committed is what docs/openapi.yaml generates"
