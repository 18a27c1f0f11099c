#!/usr/bin/env bash
# Load benchmark of the HTTP API on loopback: a cached authenticated GET (/v1/me/plan, or
# /v1/me/stats when the user has no plan) against the trivial /healthz of the same server, in the
# same run, with wrk. Writes Benchmarks/api-results.md.
#
#   Benchmarks/api_wrk.sh                  # release build, 20 users × 28 days, 10 s per route
#   DURATION=5s CONNECTIONS=32 Benchmarks/api_wrk.sh
#   PIPELINE_BIN=/path/to/pipeline Benchmarks/api_wrk.sh   # use an existing release binary
#   SERVER_CPUS=0 WRK_CPUS=1 THREADS=1 Benchmarks/api_wrk.sh   # pin server and wrk to separate cores (taskset)
#
# Needs: wrk (apt-get install wrk), openssl, jq. Binds 127.0.0.1 only; stops the server on exit.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DURATION="${DURATION:-10s}"
CONNECTIONS="${CONNECTIONS:-64}"
THREADS="${THREADS:-2}"
USERS="${USERS:-20}"
DAYS="${DAYS:-28}"
OUT="${OUT:-$ROOT/Benchmarks/api-results.md}"
SERVER_CPUS="${SERVER_CPUS:-}"   # e.g. 0: `taskset -c` list for the server (empty: not pinned)
WRK_CPUS="${WRK_CPUS:-}"         # e.g. 1: `taskset -c` list for wrk (empty: not pinned)
WORK="$(mktemp -d /tmp/api-wrk.XXXXXX)"
SERVER_PID=""

cleanup() {
    if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill -TERM "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT

for tool in wrk openssl jq; do
    command -v "$tool" >/dev/null || { echo "error: $tool is required (apt-get install $tool)" >&2; exit 1; }
done

if [[ -z "${PIPELINE_BIN:-}" ]]; then
    echo "building pipeline (release)…" >&2
    (cd "$ROOT" && swift build -c release --product pipeline --scratch-path "${SCRATCH:-$ROOT/.build-api-release}" >&2)
    PIPELINE_BIN="$(cd "$ROOT" && swift build -c release --product pipeline --scratch-path "${SCRATCH:-$ROOT/.build-api-release}" --show-bin-path)/pipeline"
fi
"$PIPELINE_BIN" serve --help >/dev/null 2>&1 || {
    echo "error: '$PIPELINE_BIN serve' does not exist (is ServeCommand registered in PipelineCommand.swift?)" >&2; exit 1; }

# Data set: generated inbox, ingested and analysed by the nightly job.
DB="$WORK/pipeline.sqlite"
"$PIPELINE_BIN" generate --users "$USERS" --days "$DAYS" --seed 42 --end yesterday --out "$WORK/inbox" >&2
"$PIPELINE_BIN" nightly --db "$DB" --inbox "$WORK/inbox" --log-level error >/dev/null
USER_ID="$(jq -r '.users[0].user_id' "$WORK/inbox/manifest.json")"

# A throwaway 48-byte secret and an HS256 token for that user, valid for an hour.
SECRET="$(openssl rand -hex 24)"
b64url() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }
HEADER="$(printf '%s' '{"alg":"HS256","typ":"JWT"}' | b64url)"
PAYLOAD="$(printf '{"sub":"%s","exp":%d}' "$USER_ID" $(( $(date +%s) + 3600 )) | b64url)"
SIGNATURE="$(printf '%s' "$HEADER.$PAYLOAD" | openssl dgst -sha256 -hmac "$SECRET" -binary | b64url)"
TOKEN="$HEADER.$PAYLOAD.$SIGNATURE"

SERVER_PIN=(); [[ -n "$SERVER_CPUS" ]] && SERVER_PIN=(taskset -c "$SERVER_CPUS")
WRK_PIN=(); [[ -n "$WRK_CPUS" ]] && WRK_PIN=(taskset -c "$WRK_CPUS")
PIPELINE_JWT_SECRET="$SECRET" "${SERVER_PIN[@]}" "$PIPELINE_BIN" serve --db "$DB" --host 127.0.0.1 --port 0 --log-level error \
    > "$WORK/serve.out" 2> "$WORK/serve.err" &
SERVER_PID=$!
for _ in $(seq 1 100); do
    grep -q '^listening on' "$WORK/serve.out" 2>/dev/null && break
    kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/serve.err" >&2; exit 1; }
    sleep 0.1
done
BASE="$(sed -n 's/^listening on //p' "$WORK/serve.out" | head -1)"
[[ -n "$BASE" ]] || { echo "error: the server did not start" >&2; cat "$WORK/serve.err" >&2; exit 1; }
echo "server at $BASE, user $USER_ID" >&2

# The cached route: the plan if the user has one, else the stats.
ROUTE=/v1/me/plan
if [[ "$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $TOKEN" "$BASE$ROUTE")" != 200 ]]; then
    ROUTE=/v1/me/stats
fi
STATUS="$(curl -s -o "$WORK/body.json" -w '%{http_code}' -H "Authorization: Bearer $TOKEN" "$BASE$ROUTE")"
[[ "$STATUS" == 200 ]] || { echo "error: GET $ROUTE answered $STATUS" >&2; exit 1; }
# Warm: the first GET loaded the cache; every request of the run is a hit.

run_wrk() {  # $1 = path, $2 = with token (yes/no) → prints "rps p99_ms non2xx"
    local args=(-t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency)
    [[ "$2" == yes ]] && args+=(-H "Authorization: Bearer $TOKEN")
    "${WRK_PIN[@]}" wrk "${args[@]}" "$BASE$1" > "$WORK/wrk.txt"
    cat "$WORK/wrk.txt" >&2
    local rps p99 non2xx
    rps="$(awk '/^Requests\/sec:/ {print $2}' "$WORK/wrk.txt")"
    p99="$(awk '$1 == "99%" {v=$2; if (v ~ /us$/) {sub(/us$/,"",v); v=v/1000} else if (v ~ /ms$/) {sub(/ms$/,"",v)} else if (v ~ /s$/) {sub(/s$/,"",v); v=v*1000}; print v}' "$WORK/wrk.txt")"
    non2xx="$(awk '/Non-2xx/ {print $NF}' "$WORK/wrk.txt")"
    echo "$rps $p99 ${non2xx:-0}"
}

# Short warm-up of both routes, then the measured runs back to back.
DURATION=2s run_wrk /healthz no >/dev/null 2>&1 || true
read -r H_RPS H_P99 H_BAD < <(run_wrk /healthz no)
read -r C_RPS C_P99 C_BAD < <(run_wrk "$ROUTE" yes)
RATIO="$(awk -v c="$C_RPS" -v h="$H_RPS" 'BEGIN { printf "%.1f", 100 * c / h }')"

CPU="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
LOAD="$(cut -d' ' -f1-3 /proc/loadavg)"
PINNING="client and server share the cores"
[[ -n "$SERVER_CPUS$WRK_CPUS" ]] && PINNING="server pinned to CPU(s) ${SERVER_CPUS:-any}, wrk to CPU(s) ${WRK_CPUS:-any} (taskset)"
{
    echo "# HTTP API load benchmark (wrk, loopback)"
    echo
    echo "Generated by \`Benchmarks/api_wrk.sh\` on $(date -u +%Y-%m-%dT%H:%MZ): \`pipeline serve\` ($PIPELINE_BIN) on"
    echo "127.0.0.1, SQLite data set from \`pipeline generate --users $USERS --days $DAYS\` + \`pipeline nightly\`,"
    echo "wrk -t$THREADS -c$CONNECTIONS -d$DURATION on the same $(nproc)-core machine ($CPU): $PINNING."
    echo "Load average at the end of the run (1/5/15 min): $LOAD."
    echo
    echo "| route | auth | requests/s | p99 latency | non-2xx |"
    echo "|---|---|---:|---:|---:|"
    echo "| \`GET /healthz\` (trivial) | none | $H_RPS | ${H_P99} ms | $H_BAD |"
    echo "| \`GET $ROUTE\` (cached) | Bearer HS256 | $C_RPS | ${C_P99} ms | $C_BAD |"
    echo
    echo "**Cached route / trivial route throughput: ${RATIO}%** (target ≥ 80%)."
    echo
    echo "The cached route does per request what /healthz does not: the token check (a memo hit by the token's bytes"
    echo "after its first full HS256 verification; exp/nbf checked every time), the user lookup (user cache), one"
    echo "response-cache read, the ETag and max-age headers, and a $(wc -c < "$WORK/body.json" | tr -d ' ')-byte body instead of 15 bytes."
    echo "No database access: every request of the run is a cache hit (the cache was warmed before)."
    [[ "$ROUTE" == /v1/me/stats ]] && echo "The user has no stored plan (no command stores plans yet), so the stats route was measured."
} > "$OUT"
cat "$OUT"
