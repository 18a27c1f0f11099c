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
# The plan engine's property search (20,000 requests, every core for a minute or two) runs on its own after the rest,
# so that it does not starve the suites that measure time (timeouts, slow clients, a PostgreSQL server's answers).
scripts/with-postgres.sh swift test --skip-build --skip PlanEngineTests 2>&1 | tee .build/test-output.txt
status=${PIPESTATUS[0]}
crash=""
if [ "$status" -ne 0 ] && ! grep -qE "Test run with [0-9]+ tests" .build/test-output.txt; then
    # The test process ended without swift-testing's summary: it crashed (a CI run once ended so, and the log kept
    # only its tail). Say which tests were under way and how it ended, then run the suites once more: the crash stays
    # in the log (printed again at the end), the rerun's verdict decides.
    crash=$(scripts/unfinished-tests.py .build/test-output.txt)
    echo "$crash"
    scripts/with-postgres.sh swift test --skip-build --skip PlanEngineTests 2>&1 | tee .build/test-output-rerun.txt
    status=${PIPESTATUS[0]}
    cp .build/test-output-rerun.txt .build/test-output-after-crash.txt
    mv .build/test-output.txt .build/test-output-crashed.txt
    mv .build/test-output-rerun.txt .build/test-output.txt
fi
swift test --skip-build --filter PlanEngineTests 2>&1 | tee .build/test-output-plans.txt
plans=${PIPESTATUS[0]}
if [ "$plans" -ne 0 ] && ! grep -qE "Test run with [0-9]+ tests" .build/test-output-plans.txt; then
    crash="$crash
$(scripts/unfinished-tests.py .build/test-output-plans.txt)"
    echo "$crash"
    mv .build/test-output-plans.txt .build/test-output-plans-crashed.txt
    swift test --skip-build --filter PlanEngineTests 2>&1 | tee .build/test-output-plans.txt
    plans=${PIPESTATUS[0]}
fi
set -e
# Keep the plain summary lines visible at the end of the log.
grep -hE "Test run with [0-9]+ tests|Executed [0-9]+ tests" .build/test-output.txt .build/test-output-plans.txt || true
[ -z "$crash" ] || echo "$crash"
[ "$status" -eq 0 ] && [ "$plans" -eq 0 ]
