#!/usr/bin/env bash
# Set-up command 2: install what is missing (PostgreSQL included), build, and run every test — the store tests
# against SQLite and against a throwaway PostgreSQL cluster on 127.0.0.1 (scripts/with-postgres.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
WITH_POSTGRES=1 scripts/install-deps.sh
# OpenBLAS must not start its own thread pool under the test runner's parallelism.
export OPENBLAS_NUM_THREADS=1
swift build --build-tests
mkdir -p .build
set +e
scripts/with-postgres.sh swift test --skip-build 2>&1 | tee .build/test-output.txt
status=${PIPESTATUS[0]}
set -e
# Keep a plain summary line visible at the end of the log.
grep -E "Test run with [0-9]+ tests|Executed [0-9]+ tests" .build/test-output.txt | tail -2 || true
exit "$status"
