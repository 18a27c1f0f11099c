#!/usr/bin/env bash
# The benchmarks CI holds (issue 42): the package-benchmark targets of Benchmarks/package run on fixed inputs, and
# their counts are checked against the thresholds committed in Benchmarks/package/Thresholds/:
#
#   - mallocs (package-benchmark's mallocCountTotal, p90): `swift package benchmark thresholds check`, with the
#     tolerances written beside each benchmark (Benchmarks/package/Benchmarks/PipelineBenchmarks/PipelineBenchmarks.swift:
#     ±2 %, or a few mallocs where a stage allocates next to nothing);
#   - instructions: package-benchmark reads them from perf events, which this project's machines do not offer (`perf
#     stat -e instructions true` says "not supported"); so each stage also runs once under valgrind (callgrind, only
#     the stage's call collected: `pipeline-workload`) and its count is held to ±5 % of Thresholds/instructions.json.
#     IngestBatch is the exception: valgrind 3.19 crashes in it (on a thread the SQLite store starts), so its
#     instructions are not counted; its mallocs are held. Where perf events exist, package-benchmark's own
#     instruction counts are checked as well.
#
#   scripts/benchmark-thresholds.sh            check; exit 1 on a regression (CI, .ci/run)
#   scripts/benchmark-thresholds.sh --update   measure and rewrite the thresholds; review the diff and commit it when
#                                              a change is meant to move them (say why in the commit message)
#
# An improvement beyond the tolerance passes with a note: refresh the thresholds so that the gain is held too.
# Counts depend on the toolchain and the C libraries (glibc, zlib, SQLite): refresh them when those change.
# The first run builds the package in release mode twice, package-benchmark's build in Benchmarks/package/.build and
# the counter's in Benchmarks/package/.build-count (16 and about 9 minutes on 2 cores shared with other builds); later
# runs take about a minute.
set -euo pipefail
cd "$(dirname "$0")/.."
update=0
case "${1:-}" in
    --update) update=1 ;;
    "") ;;
    *) echo "usage: $0 [--update]" >&2; exit 2 ;;
esac
pkg=Benchmarks/package
thresholds="$PWD/$pkg/Thresholds"
instructions="$thresholds/instructions.json"
# Swift's per-process hash seed changes how many probes a dictionary takes, hence instruction counts: fixed here.
export SWIFT_DETERMINISTIC_HASHING=1
# OpenBLAS picks its kernels by the CPU it finds (Debian builds it for every x86 core type): one choice on every
# machine, so that the metric set's count does not depend on which CPU the CI machine has (Haswell's: AVX2, which
# valgrind emulates; it hides AVX-512 anyway).
export OPENBLAS_CORETYPE=Haswell OPENBLAS_NUM_THREADS=1
benchmark=(swift package --package-path "$pkg" --disable-sandbox)
# The stages counted under valgrind (all but IngestBatch, above).
names=(FTMSDecode SessionAssembler MetricSet FITRead HealthExportRead PlanGeneration)
# The valgrind pass's tolerance on instructions, per cent.
tolerance=5

if ! command -v valgrind >/dev/null; then
    echo "!! valgrind is missing (WITH_BENCH_TOOLS=1 scripts/install-deps.sh installs it)" >&2
    exit 1
fi

# The malloc (and, where perf events exist, instruction) thresholds, through package-benchmark (its first release
# build compiles the pipeline's libraries again: minutes).
status=0
if [ "$update" -eq 1 ]; then
    "${benchmark[@]}" --allow-writing-to-package-directory benchmark thresholds update --path "$thresholds" \
        --no-progress
else
    check_log=$(mktemp)
    "${benchmark[@]}" benchmark thresholds check --path "$thresholds" --no-progress 2>&1 | tee "$check_log" \
        || status=${PIPESTATUS[0]}
    # `swift package` passes the plugin's failure on as exit 1 whatever it was: an improvement is told apart by the
    # error package-benchmark names (benchmarkThresholdImprovement, without a benchmarkThresholdRegression).
    if [ "$status" -ne 0 ] && grep -q "benchmarkThresholdImprovement" "$check_log" \
        && ! grep -q "benchmarkThresholdRegression" "$check_log"; then
        status=4
    fi
    rm -f "$check_log"
    case "$status" in
        0) echo "mallocs: equal to the thresholds within their tolerances" ;;
        4) echo "mallocs: better than the thresholds (an improvement): refresh them with $0 --update and commit" ;;
        *) echo "!! mallocs: a regression against $pkg/Thresholds (above); exit $status" >&2 ;;
    esac
fi

# Instructions, under valgrind: each stage once, only its call collected (callgrind's client requests in
# `pipeline-workload`). valgrind 3.19 cannot read the DWARF 5 of Swift 6.3's debug information: a copy without it runs.
# The counter is built in a scratch folder of its own: package-benchmark's builds and `swift build`'s differ in
# their parameters, and in one folder each rebuilt the other's libraries every time.
swift build --package-path "$pkg" --scratch-path "$pkg/.build-count" -c release --product pipeline-workload 2>&1 |
    { grep -vE "^\[[0-9]+/[0-9]+\]|CMakeLists.txt|unhandled; explicitly" || true; }
bin="$(swift build --package-path "$pkg" --scratch-path "$pkg/.build-count" -c release --show-bin-path)/pipeline-workload"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
strip --strip-debug -o "$work/pipeline-workload" "$bin"
for name in "${names[@]}"; do
    valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file="$work/$name.out" \
        "$work/pipeline-workload" "$name" >"$work/$name.log" 2>&1 || {
        cat "$work/$name.log" >&2
        echo "!! $name failed under valgrind" >&2
        exit 1
    }
    count=$(awk '/^totals:/ {print $2}' "$work/$name.out")
    echo "$name $count" >>"$work/counts"
done
python_status=0
python3 - "$work/counts" "$instructions" "$update" "$tolerance" <<'EOF' || python_status=$?
import json, pathlib, sys
counts_path, thresholds_path, update, tolerance = sys.argv[1], pathlib.Path(sys.argv[2]), sys.argv[3] == "1", float(sys.argv[4])
counts = {}
for line in open(counts_path):
    name, count = line.split()
    counts[name] = int(count)
if update:
    thresholds_path.write_text(json.dumps(counts, indent=2, sort_keys=True) + "\n")
    for name, count in counts.items():
        print(f"instructions {name:18} {count:>14,}")
    print(f"wrote {thresholds_path}")
    sys.exit(0)
held = json.loads(thresholds_path.read_text())
failed = False
for name, count in counts.items():
    if name not in held:
        print(f"!! instructions {name}: no threshold in {thresholds_path.name} (run scripts/benchmark-thresholds.sh --update)")
        failed = True
        continue
    change = 100.0 * (count - held[name]) / held[name]
    verdict = "ok"
    if change > tolerance:
        verdict, failed = f"REGRESSION (more than +{tolerance:g} %)", True
    elif change < -tolerance:
        verdict = f"improvement (more than -{tolerance:g} %): refresh with scripts/benchmark-thresholds.sh --update"
    print(f"instructions {name:18} {count:>14,} against {held[name]:>14,} ({change:+.2f} %) {verdict}")
sys.exit(1 if failed else 0)
EOF
if [ "$update" -eq 1 ]; then
    echo "thresholds refreshed in $pkg/Thresholds: review the diff and commit it"
    exit 0
fi
if [ "$status" -ne 0 ] && [ "$status" -ne 4 ]; then exit 1; fi
exit "$python_status"
