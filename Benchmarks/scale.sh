#!/usr/bin/env bash
# Scale-out measurements for docs/SCALING.md: one SQLite machine, and one PostgreSQL with 1, 2 and 4 workers.
#
#   scripts/with-postgres.sh Benchmarks/scale.sh            # throwaway PostgreSQL on 127.0.0.1, release build
#   USERS=400 DAYS=28 WORKERS="1 2 4" CONFIG=release scripts/with-postgres.sh Benchmarks/scale.sh
#   scripts/with-postgres.sh Benchmarks/scale.sh --short   # CI: debug build, 4 users × 7 days, 1 and 2 workers
#
# For each backend the same generated inbox (seeded: the same bytes every time) is first ingested by one process
# (`pipeline ingest`, timed on its own), then the per-user work (analyse sessions, stats, plans) is done either by one
# `pipeline nightly` (SQLite) or by N `pipeline worker` processes started together over one database (each with
# --concurrency 1, so N is the number of busy processes). Every configuration must leave the same content digest as
# the single nightly run on its backend; the script fails (exit 1) when one does not. Results go to stdout as a
# Markdown table; PIPELINE_TEST_POSTGRES_URL (set by with-postgres.sh) is the admin URL of the server.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ "${1:-}" == "--short" ]]; then   # CI: the debug build, 4 users × 7 days, 1 and 2 workers
    : "${USERS:=4}" "${DAYS:=7}" "${WORKERS:=1 2}" "${CONFIG:=debug}"
elif [[ -n "${1:-}" ]]; then
    echo "usage: $0 [--short]" >&2; exit 64
fi
USERS=${USERS:-200}
DAYS=${DAYS:-28}
WORKERS=${WORKERS:-"1 2 4"}
CONFIG=${CONFIG:-release}
export OPENBLAS_NUM_THREADS=1 PIPELINE_LOG_LEVEL=${PIPELINE_LOG_LEVEL:-warning}

swift build -c "$CONFIG" --product pipeline >&2
bin="$(swift build -c "$CONFIG" --show-bin-path)/pipeline"
work=$(mktemp -d "${TMPDIR:-/tmp}/pipeline-scale.XXXXXX")
trap 'rm -rf "$work"' EXIT

now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }

"$bin" generate --users "$USERS" --days "$DAYS" --seed 7 --out "$work/inbox" >/dev/null
sessions=$(find "$work/inbox/sessions" -type f | wc -l)
echo "== data: $USERS users, $DAYS days, $sessions session batch files; $(nproc) cores; $CONFIG build; load $(cut -d' ' -f1-3 /proc/loadavg)" >&2

rows=()
row() { rows+=("| $1 | $2 | $3 | $4 | $5 |"); }

# --- SQLite, one machine ---------------------------------------------------------------------------------------------
t0=$(now); "$bin" ingest --db "$work/one.sqlite" --inbox "$work/inbox" >/dev/null; t1=$(now)
"$bin" nightly --db "$work/one.sqlite" >/dev/null; t2=$(now)
sqlite_digest=$("$bin" digest --db "$work/one.sqlite")
row "SQLite, \`pipeline nightly\`" 1 "$(elapsed "$t0" "$t1")" "$(elapsed "$t1" "$t2")" ok
for n in $WORKERS; do
  ((n > 1)) || continue
  db="$work/sqlite-$n.sqlite"
  t0=$(now); "$bin" ingest --db "$db" --inbox "$work/inbox" >/dev/null; t1=$(now)
  pids=()
  for i in $(seq 1 "$n"); do "$bin" worker --db "$db" --worker-id "w$i" --run-key bench --concurrency 1 >/dev/null & pids+=($!); done
  for p in "${pids[@]}"; do wait "$p"; done
  t2=$(now)
  d=$("$bin" digest --db "$db"); same=ok; [[ "$d" == "$sqlite_digest" ]] || same="DIFFERS"
  row "SQLite, \`pipeline worker\` × $n" "$n" "$(elapsed "$t0" "$t1")" "$(elapsed "$t1" "$t2")" "$same"
done

# --- PostgreSQL -------------------------------------------------------------------------------------------------------
if [[ -n "${PIPELINE_TEST_POSTGRES_URL:-}" ]]; then
  admin=$PIPELINE_TEST_POSTGRES_URL
  base=${admin%/*}
  psql_admin() { psql "$admin" -qAt -c "$1" >/dev/null; }
  pg_reference=""
  for n in nightly $WORKERS; do
    name="scale_bench_${n}_$$"
    psql_admin "CREATE DATABASE $name"
    url="$base/$name"
    t0=$(now); "$bin" ingest --db "$url" --inbox "$work/inbox" >/dev/null; t1=$(now)
    if [[ $n == nightly ]]; then
      "$bin" nightly --db "$url" >/dev/null; label="PostgreSQL, \`pipeline nightly\`"; procs=1
    else
      pids=()
      for i in $(seq 1 "$n"); do "$bin" worker --db "$url" --worker-id "w$i" --run-key bench --concurrency 1 >/dev/null & pids+=($!); done
      for p in "${pids[@]}"; do wait "$p"; done
      label="PostgreSQL, \`pipeline worker\` × $n"; procs=$n
    fi
    t2=$(now)
    d=$("$bin" digest --db "$url")
    [[ -n "$pg_reference" ]] || pg_reference=$d
    same=ok; [[ "$d" == "$pg_reference" ]] || same="DIFFERS"
    row "$label" "$procs" "$(elapsed "$t0" "$t1")" "$(elapsed "$t1" "$t2")" "$same"
    psql_admin "DROP DATABASE $name WITH (FORCE)"
  done
else
  echo "== PIPELINE_TEST_POSTGRES_URL is not set: PostgreSQL skipped (run under scripts/with-postgres.sh)" >&2
fi

echo "| configuration | processes | ingest (s) | analyse + stats + plans (s) | same digest as one run |"
echo "|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
echo "$USERS users × $DAYS days ($sessions session batches), $(nproc) cores, $CONFIG build, $(date -u +%Y-%m-%dT%H:%MZ)"
for r in "${rows[@]}"; do [[ "$r" != *DIFFERS* ]] || { echo "a configuration left another result than one run" >&2; exit 1; }; done
