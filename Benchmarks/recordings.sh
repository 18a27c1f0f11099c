#!/usr/bin/env bash
# Compressed recordings (issue 43): the store's bytes per session against the recordings' bytes, and how fast
# re-analysis reads recordings back (MB/s of recording decompressed), each against a baseline of the same run
# (`pipeline-bench recordings`, Sources/PipelineBench/RecordingsBench.swift).
#
#   Benchmarks/recordings.sh                 # release build, 60 users × 28 days, 5 runs of 7 repetitions
#   SHORT=1 Benchmarks/recordings.sh         # 8 users × 7 days, 3 runs of 3 repetitions (a minute after the build)
#   CONFIG=debug SHORT=1 Benchmarks/recordings.sh
#   PIPELINE_BIN=.build/debug/pipeline Benchmarks/recordings.sh   # only pipeline-bench built in release
#   SHAPE=one-hour-1hz LEVELS=1,2,3 Benchmarks/recordings.sh     # the generator's shape; zstd levels to compare
#
# Each run is a process of its own over the same store (one `pipeline nightly` over a seeded inbox); the spread over
# runs is printed with the runs' JSON lines. Results go to Benchmarks/recordings-results.md by hand, with the load.
set -euo pipefail
cd "$(dirname "$0")/.."

CONFIG=${CONFIG:-release}
if [[ "${SHORT:-0}" == "1" ]]; then
  USERS=${USERS:-8} DAYS=${DAYS:-7} RUNS=${RUNS:-3} REPETITIONS=${REPETITIONS:-3}
else
  USERS=${USERS:-60} DAYS=${DAYS:-28} RUNS=${RUNS:-5} REPETITIONS=${REPETITIONS:-7}
fi
export OPENBLAS_NUM_THREADS=1 PIPELINE_LOG_LEVEL=${PIPELINE_LOG_LEVEL:-warning}

swift build -c "$CONFIG" --product pipeline-bench >&2
bin="$(swift build -c "$CONFIG" --show-bin-path)"
# The store is filled by `pipeline` of the same build, or by PIPELINE_BIN (e.g. a debug build's, which stores the same
# rows) when only pipeline-bench is built in release.
if [[ -n "${PIPELINE_BIN:-}" ]]; then pipeline=$PIPELINE_BIN; else swift build -c "$CONFIG" --product pipeline >&2; pipeline="$bin/pipeline"; fi
work=$(mktemp -d "${TMPDIR:-/tmp}/pipeline-recordings.XXXXXX")
trap 'rm -rf "$work"' EXIT

"$pipeline" generate --users "$USERS" --days "$DAYS" --seed 7 --shape "${SHAPE:-mixed}" --out "$work/inbox" >/dev/null
"$pipeline" nightly --db "$work/store.sqlite" --inbox "$work/inbox" --as-of "2026-11-21T12:00:00Z" >/dev/null
echo "== $USERS users, $DAYS days, shape ${SHAPE:-mixed}; $CONFIG build; $(nproc) cores; load before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for run in $(seq 1 "$RUNS"); do
  "$bin/pipeline-bench" recordings "$work/store.sqlite" --repetitions "$REPETITIONS" --levels "${LEVELS:-1,2,3}" \
    | tee -a "$work/runs.jsonl"
done
echo "== load after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
python3 - "$work/runs.jsonl" <<'PY'
import json, sys
runs = [json.loads(line) for line in open(sys.argv[1])]
first = runs[0]
def spread(key, field="median_m_bps"):
    values = sorted(r[key][field] for r in runs)
    return f"{values[0]:,.0f}–{values[-1]:,.0f}"
def ratio(key):
    values = sorted(r[key] for r in runs)
    return f"{values[0]:.2f}–{values[-1]:.2f}"
print("| figure | value | |")
print("|---|---|---|")
print(f"| sessions (with a recording) | {first['sessions']} ({first['sessions_with_recording']}, "
      f"{first['compressed_rows']} compressed, {first.get('columns_rows', 0)} of them as columns in LZ4) | |")
print(f"| recording bytes / stored bytes | {first['recording_bytes']:,} / {first['stored_bytes']:,} "
      f"(**{first['stored_percent_of_recording']:.1f} %**) | |")
print(f"| store file per session / recording per session | {first['store_file_bytes_per_session']:,.0f} / "
      f"{first['recording_bytes_per_session']:,.0f} B | |")
cpu = "median_mb_per_cpu_second"
print(f"| **speed** (medians of {len(runs)} runs: spread over runs) | **wall MB/s** | **MB per CPU second** |")
print(f"| decode in memory, MB of recording | {spread('decode')} | {spread('decode', cpu)} |")
print(f"| baseline: copying the recordings | {spread('copy_baseline')} | {spread('copy_baseline', cpu)} |")
if all("decode_every_core" in r for r in runs):
    print(f"| decode in memory on every core, chunks of 64 (`StoredRecording.decoding`) | "
          f"{spread('decode_every_core')} | {spread('decode_every_core', cpu)} |")
print(f"| store read (`sessions(keys:)`), MB of recording | {spread('store_read')} | {spread('store_read', cpu)} |")
print(f"| baseline: plain uncompressed table | {spread('plain_read_baseline')} | "
      f"{spread('plain_read_baseline', cpu)} |")
print(f"| ratios (wall): decode / copy {ratio('decode_ratio_to_copy')}; "
      f"store read / plain read {ratio('store_read_ratio_to_plain')} | | |")
print(f"| **encode by codec** (the store writes {first['codec_in_use']}): stored % of recording | **wall MB/s** | "
      f"**MB per CPU second** |")
for study in first.get("encode_by_codec", []):
    codec = study["codec"]
    wall = sorted(s["encode"]["median_m_bps"] for r in runs for s in r["encode_by_codec"] if s["codec"] == codec)
    cpu_rates = sorted(s["encode"][cpu] for r in runs for s in r["encode_by_codec"] if s["codec"] == codec)
    print(f"| {codec}: {study['stored_percent_of_recording']:.1f} % | {wall[0]:,.0f}–{wall[-1]:,.0f} | "
          f"{cpu_rates[0]:,.0f}–{cpu_rates[-1]:,.0f} |")
PY
