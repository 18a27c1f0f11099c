#!/usr/bin/env bash
# Set-up command 1: install what is missing, build, and run the demo (generate + nightly on an embedded SQLite).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build --product pipeline
exec .build/debug/pipeline demo --log-level warning "$@"
