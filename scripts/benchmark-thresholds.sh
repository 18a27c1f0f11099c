#!/usr/bin/env bash
# The benchmarks CI holds (issue 42): the stages of Benchmarks/package run on fixed inputs, and their counts are
# checked against the thresholds committed in Benchmarks/package/Thresholds/:
#
#   - instructions: valgrind (callgrind, only the stage's call collected: `pipeline-workload`), each stage held to
#     ±5 % of Thresholds/instructions.json. package-benchmark reads instructions from perf events, which this
#     project's machines do not offer (`perf stat -e instructions true` says "not supported"). IngestBatch is the
#     exception: valgrind 3.19 crashes in it (on a thread the SQLite store starts), so its instructions are not counted;
#   - allocations: glibc's allocation trace (mtrace(3), libc_malloc_debug.so preloaded) around the same call, on every
#     thread, in the same program: each stage held to ±2 % of Thresholds/allocations.json, or to a few allocations
#     where it makes a few hundred or fewer (2 % of 16 would fail on one more). The counts are the same on every run.
#
# Both come from one release build of `pipeline-workload` (Benchmarks/package/.build-count); .ci/run builds the
# pipeline's libraries there already, for its plan populations, so the check costs a minute or two in CI.
# package-benchmark's own harness (the PipelineBenchmarks target: p90 of mallocs, and instructions where perf events
# exist, against Thresholds/PipelineBenchmarks.*.p90.json) needs a second release build of everything (16 minutes
# here), so CI no longer runs it; --package-benchmark adds it.
#
#   scripts/benchmark-thresholds.sh                      check; exit 1 on a regression (CI, .ci/run)
#   scripts/benchmark-thresholds.sh --update             measure and rewrite the thresholds; review the diff and
#                                                        commit it when a change is meant to move them (say why)
#   scripts/benchmark-thresholds.sh --package-benchmark  also package-benchmark's check (with --update: its refresh)
#
# An improvement beyond the tolerance passes with a note: refresh the thresholds so that the gain is held too.
# Counts depend on the toolchain and the C libraries (glibc, zlib, SQLite): refresh them when those change.
# A fresh clone pays for the counter's release build first (about 9 minutes on 2 cores); later runs take a minute.
set -euo pipefail
cd "$(dirname "$0")/.."
update=0 harness=0
for arg in "$@"; do
    case "$arg" in
        --update) update=1 ;;
        --package-benchmark) harness=1 ;;
        -h|--help) awk 'NR > 1 && !/^#/ {exit} NR > 1 {sub(/^# ?/, ""); print}' "$0"; exit 0 ;;
        *) echo "usage: $0 [--update] [--package-benchmark]" >&2; exit 2 ;;
    esac
done
pkg=Benchmarks/package
thresholds="$PWD/$pkg/Thresholds"
instructions="$thresholds/instructions.json"
allocations="$thresholds/allocations.json"
# Swift's per-process hash seed changes how many probes a dictionary takes, hence instruction counts: fixed here.
export SWIFT_DETERMINISTIC_HASHING=1
# OpenBLAS picks its kernels by the CPU it finds (Debian builds it for every x86 core type): one choice on every
# machine, so that the metric set's count does not depend on which CPU the CI machine has (Haswell's: AVX2, which
# valgrind emulates; it hides AVX-512 anyway).
export OPENBLAS_CORETYPE=Haswell OPENBLAS_NUM_THREADS=1
benchmark=(swift package --package-path "$pkg" --disable-sandbox)
# The stages counted under valgrind (all but IngestBatch, above), and those whose allocations are counted.
names=(FTMSDecode SessionAssembler MetricSet FITRead HealthExportRead PlanGeneration)
allocating=("${names[@]}" IngestBatch)
# The valgrind pass's tolerance on instructions, per cent.
tolerance=5
# glibc's allocation tracer (Debian's libc6 ships it since glibc 2.34).
# awk reads ldconfig's list to its end: leaving early closes the pipe while ldconfig still writes, and its SIGPIPE
# (exit 141) ends this script under pipefail (it did, in CI, on 2026-12-03).
malloc_debug=$(ldconfig -p | awk '/libc_malloc_debug\.so\.0 / && !found {print $NF; found = 1}')

if ! command -v valgrind >/dev/null; then
    echo "!! valgrind is missing (WITH_BENCH_TOOLS=1 scripts/install-deps.sh installs it)" >&2
    exit 1
fi

if [ -z "$malloc_debug" ]; then
    echo "!! glibc's libc_malloc_debug.so.0 is missing (glibc 2.34 or later ships it)" >&2
    exit 1
fi

# package-benchmark's malloc (and, where perf events exist, instruction) thresholds: only with --package-benchmark
# (its first release build compiles the pipeline's libraries again: minutes).
status=0
if [ "$harness" -eq 0 ]; then
    :
elif [ "$update" -eq 1 ]; then
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
    echo "instructions $name $(awk '/^totals:/ {print $2}' "$work/$name.out")" >>"$work/counts"
done
# Allocations: each stage once more, natively, with glibc's tracer preloaded; mtrace() and muntrace() around the call
# write one line per allocation ("+ address size"; a realloc that moves a block writes "< old" and "> new": counted
# as one allocation), on whichever thread makes it.
for name in "${allocating[@]}"; do
    LD_PRELOAD="$malloc_debug" MALLOC_TRACE="$work/$name.mtrace" "$work/pipeline-workload" "$name" \
        >"$work/$name.log" 2>&1 || {
        cat "$work/$name.log" >&2
        echo "!! $name failed under glibc's allocation tracer" >&2
        exit 1
    }
    [ -s "$work/$name.mtrace" ] || { echo "!! $name: glibc's allocation tracer wrote nothing" >&2; exit 1; }
    echo "allocations $name $(grep -cE '(^| )[+>] 0x' "$work/$name.mtrace")" >>"$work/counts"
done
python_status=0
python3 - "$work/counts" "$instructions" "$allocations" "$update" "$tolerance" \
    "$pkg/Benchmarks/PipelineBenchmarks/PipelineBenchmarks.swift" <<'EOF' || python_status=$?
import json, pathlib, re, sys
counts_path, update, tolerance = sys.argv[1], sys.argv[4] == "1", float(sys.argv[5])
paths = {"instructions": pathlib.Path(sys.argv[2]), "allocations": pathlib.Path(sys.argv[3])}
# Allocations: ±2 %, or a few in absolute terms where a stage makes a few hundred or fewer: the slack each stage's
# `Benchmark("Name", configuration: config(mallocSlack: N))` declares in PipelineBenchmarks.swift, the one place it is
# written (package-benchmark's check reads it there too).
declared = pathlib.Path(sys.argv[6]).read_text()
allocation_slack = {name: int(slack) for name, slack in
                    re.findall(r'Benchmark\("(\w+)", configuration: config\(mallocSlack: (\d+)\)\)', declared)}
if not allocation_slack:
    sys.exit(f"!! no mallocSlack found in {sys.argv[6]}: its Benchmark declarations changed shape")
counts = {"instructions": {}, "allocations": {}}
for line in open(counts_path):
    kind, name, count = line.split()
    counts[kind][name] = int(count)
if update:
    for kind, path in paths.items():
        path.write_text(json.dumps(counts[kind], indent=2, sort_keys=True) + "\n")
        for name, count in counts[kind].items():
            print(f"{kind:12} {name:18} {count:>14,}")
        print(f"wrote {path}")
    sys.exit(0)
failed = False
for kind, path in paths.items():
    held = json.loads(path.read_text()) if path.exists() else {}
    for name, count in counts[kind].items():
        if name not in held:
            print(f"!! {kind} {name}: no threshold in {path.name} (run scripts/benchmark-thresholds.sh --update)")
            failed = True
            continue
        if kind == "instructions":
            allowed, said = tolerance * held[name] / 100.0, f"{tolerance:g} %"
        elif name in allocation_slack:
            allowed, said = allocation_slack[name], f"{allocation_slack[name]} allocations"
        else:
            allowed, said = 0.02 * held[name], "2 %"
        change = 100.0 * (count - held[name]) / held[name] if held[name] else 0.0
        verdict = "ok"
        if count - held[name] > allowed:
            verdict, failed = f"REGRESSION (more than +{said})", True
        elif held[name] - count > allowed:
            verdict = f"improvement (more than -{said}): refresh with scripts/benchmark-thresholds.sh --update"
        print(f"{kind:12} {name:18} {count:>14,} against {held[name]:>14,} ({change:+.2f} %) {verdict}")
sys.exit(1 if failed else 0)
EOF
if [ "$update" -eq 1 ]; then
    echo "thresholds refreshed in $pkg/Thresholds: review the diff and commit it"
    exit 0
fi
if [ "$status" -ne 0 ] && [ "$status" -ne 4 ]; then exit 1; fi
exit "$python_status"
