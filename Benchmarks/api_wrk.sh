#!/usr/bin/env bash
# Load benchmark of the HTTP API on loopback: a cached authenticated GET (/v1/me/plan, or
# /v1/me/stats when the user has no plan) against the trivial /healthz of the same server, in the
# same run, with wrk. The cached route is measured twice: with `Accept-Encoding: gzip`, as the apps
# send it (URLSession adds it by default), and without (the identity body). Writes
# Benchmarks/api-results.md.
#
#   Benchmarks/api_wrk.sh                  # release build, 20 users × 28 days, 10 s per route
#   DURATION=5s CONNECTIONS=32 Benchmarks/api_wrk.sh
#   ROUNDS=3 Benchmarks/api_wrk.sh         # repeat healthz / gzip / identity 3 times; medians reported
#   PIPELINE_BIN=/path/to/pipeline Benchmarks/api_wrk.sh   # use an existing release binary
#   SERVER_CPUS=0 WRK_CPUS=1 THREADS=1 Benchmarks/api_wrk.sh   # pin server and wrk to separate cores (taskset)
#   Benchmarks/api_wrk.sh --short          # CI: the debug binary (.build/debug/pipeline), 3 users × 7 days, 1 s per
#                                          # route; results printed only, not written to api-results.md
#
# Needs: wrk (apt-get install wrk), openssl, jq, curl. Binds 127.0.0.1 only; stops the server on exit.
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
SHORT=0
if [[ "${1:-}" == "--short" ]]; then
    SHORT=1
    : "${PIPELINE_BIN:=$ROOT/.build/debug/pipeline}" "${DURATION:=1s}" "${CONNECTIONS:=8}" "${USERS:=3}" "${DAYS:=7}"
    SHORT_OUT="${OUT:-}"
elif [[ -n "${1:-}" ]]; then
    echo "usage: $0 [--short]" >&2; exit 64
fi
DURATION="${DURATION:-10s}"
ROUNDS="${ROUNDS:-1}"
CONNECTIONS="${CONNECTIONS:-64}"
THREADS="${THREADS:-2}"
USERS="${USERS:-20}"
DAYS="${DAYS:-28}"
OUT="${OUT:-$ROOT/Benchmarks/api-results.md}"
SERVER_CPUS="${SERVER_CPUS:-}"   # e.g. 0: `taskset -c` list for the server (empty: not pinned)
WRK_CPUS="${WRK_CPUS:-}"         # e.g. 1: `taskset -c` list for wrk (empty: not pinned)
WORK="$(mktemp -d /tmp/api-wrk.XXXXXX)"
if (( SHORT )) && [[ -z "$SHORT_OUT" ]]; then OUT="$WORK/api-results.md"; fi   # printed, then removed with $WORK
SERVER_PID=""

cleanup() {
    if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
        kill -TERM "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT

for tool in wrk openssl jq curl; do
    command -v "$tool" >/dev/null || {
        echo "error: $tool is required (apt-get install $tool; WITH_BENCH_TOOLS=1 scripts/install-deps.sh)" >&2; exit 1; }
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
# The device the account is bound to (the inbox's users files): a token for a bound account must name it in its
# `device` claim, else the API answers 401 `device_required`. Generated accounts are all bound.
DEVICE="$(jq -r --arg u "$USER_ID" '.users[] | select(.user_id == $u) | .bound_device_id // empty' "$WORK"/inbox/users/*.json | sed -n 1p)"

# A throwaway 48-byte secret and an HS256 token for that user (and its device, if bound), valid for an hour.
SECRET="$(openssl rand -hex 24)"
b64url() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }
HEADER="$(printf '%s' '{"alg":"HS256","typ":"JWT"}' | b64url)"
PAYLOAD="$(jq -cn --arg sub "$USER_ID" --arg device "$DEVICE" --argjson exp $(( $(date +%s) + 3600 )) \
    '{sub: $sub, exp: $exp} + (if $device == "" then {} else {device: $device} end)' | tr -d '\n' | b64url)"
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
BASE="$(sed -n 's/^listening on //p' "$WORK/serve.out" | sed -n 1p)"
[[ -n "$BASE" ]] || { echo "error: the server did not start" >&2; cat "$WORK/serve.err" >&2; exit 1; }
echo "server at $BASE, user $USER_ID" >&2

# The cached route: the plan if the user has one, else the stats.
ROUTE=/v1/me/plan
if [[ "$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $TOKEN" "$BASE$ROUTE")" != 200 ]]; then
    ROUTE=/v1/me/stats
fi
STATUS="$(curl -s -o "$WORK/body.json" -w '%{http_code}' -H "Authorization: Bearer $TOKEN" "$BASE$ROUTE")"
[[ "$STATUS" == 200 ]] || { echo "error: GET $ROUTE answered $STATUS" >&2; exit 1; }
# The gzip representation: its size, and a check that it is one (curl does not decode it here).
curl -s -o "$WORK/body.gz" -D "$WORK/gzip-headers.txt" -H "Authorization: Bearer $TOKEN" -H "Accept-Encoding: gzip" "$BASE$ROUTE"
if grep -qi '^content-encoding: *gzip' "$WORK/gzip-headers.txt"; then
    gzip -dc < "$WORK/body.gz" | cmp -s - "$WORK/body.json" || { echo "error: the gzip body does not decode to the identity body" >&2; exit 1; }
    GZIP_NOTE="$(wc -c < "$WORK/body.gz" | tr -d ' ')-byte gzip body (decodes to the identity body)"
else
    GZIP_NOTE="no gzip copy for this body (too small or incompressible): the identity body was sent"
fi
IDENTITY_BYTES="$(wc -c < "$WORK/body.json" | tr -d ' ')"
# Warm: the first GET loaded the cache; every request of the run is a hit.

# CPU seconds used so far by the server (all threads, user + system) and by this shell's waited-for
# children (`times`, second line), for the CPU cost per request: unlike requests/s, it hardly depends
# on how much of the machine other processes take.
TICKS="$(getconf CLK_TCK)"
server_cpu() { awk -v t="$TICKS" '{printf "%.2f", ($14 + $15) / t}' "/proc/$SERVER_PID/stat"; }
children_cpu() {  # `times` must run in this shell (not in a pipe's subshell) to see its children
    times > "$WORK/times.txt"
    awk 'NR == 2 {s = 0; for (i = 1; i <= 2; i++) {split($i, a, /[ms]/); s += a[1] * 60 + a[2]}; printf "%.3f", s}' "$WORK/times.txt"
}

run_wrk() {  # $1 = path, then extra headers → prints "rps p99_ms non2xx server_us_per_req wrk_us_per_req"
    local path="$1"; shift
    local args=(-t"$THREADS" -c"$CONNECTIONS" -d"$DURATION" --latency)
    local header
    for header in "$@"; do args+=(-H "$header"); done
    local s0 w0 s1 w1
    s0="$(server_cpu)"; children_cpu > "$WORK/w0"
    "${WRK_PIN[@]}" wrk "${args[@]}" "$BASE$path" > "$WORK/wrk.txt"
    s1="$(server_cpu)"; children_cpu > "$WORK/w1"; w0="$(cat "$WORK/w0")"; w1="$(cat "$WORK/w1")"
    cat "$WORK/wrk.txt" >&2
    local rps p99 non2xx requests
    rps="$(awk '/^Requests\/sec:/ {print $2}' "$WORK/wrk.txt")"
    p99="$(awk '$1 == "99%" {v=$2; if (v ~ /us$/) {sub(/us$/,"",v); v=v/1000} else if (v ~ /ms$/) {sub(/ms$/,"",v)} else if (v ~ /s$/) {sub(/s$/,"",v); v=v*1000}; print v}' "$WORK/wrk.txt")"
    non2xx="$(awk '/Non-2xx/ {print $NF}' "$WORK/wrk.txt")"
    requests="$(awk '/requests in/ {print $1}' "$WORK/wrk.txt")"
    echo "$rps $p99 ${non2xx:-0} $(awk -v s="$(awk -v a="$s0" -v b="$s1" 'BEGIN {print b - a}')" -v w="$(awk -v a="$w0" -v b="$w1" 'BEGIN {print b - a}')" -v n="$requests" 'BEGIN {printf "%.1f %.1f", 1e6 * s / n, 1e6 * w / n}')"
}

median() { sort -g | awk '{v[NR]=$1} END {if (NR % 2) print v[(NR+1)/2]; else printf "%.1f\n", (v[NR/2]+v[NR/2+1])/2}'; }

# Short warm-up of the routes, then the measured rounds: healthz, cached with gzip, cached identity,
# back to back on the same server.
AUTH="Authorization: Bearer $TOKEN"
DURATION=2s run_wrk /healthz >/dev/null 2>&1 || true
DURATION=2s run_wrk "$ROUTE" "$AUTH" "Accept-Encoding: gzip" >/dev/null 2>&1 || true
ROWS=(); CPU_ROWS=()
G_RATIOS=(); I_RATIOS=(); G_CPU_RATIOS=(); I_CPU_RATIOS=()
for round in $(seq 1 "$ROUNDS"); do
    read -r H_RPS H_P99 H_BAD H_SCPU H_WCPU < <(run_wrk /healthz)
    read -r G_RPS G_P99 G_BAD G_SCPU G_WCPU < <(run_wrk "$ROUTE" "$AUTH" "Accept-Encoding: gzip")
    read -r I_RPS I_P99 I_BAD I_SCPU I_WCPU < <(run_wrk "$ROUTE" "$AUTH")
    G_RATIO="$(awk -v c="$G_RPS" -v h="$H_RPS" 'BEGIN { printf "%.1f", 100 * c / h }')"
    I_RATIO="$(awk -v c="$I_RPS" -v h="$H_RPS" 'BEGIN { printf "%.1f", 100 * c / h }')"
    # CPU ratio: the throughput the cached route would have relative to /healthz if server + wrk had the
    # same CPU for both = (CPU per /healthz request) / (CPU per cached request).
    G_CPU_RATIO="$(awk -v h="$(awk -v a="$H_SCPU" -v b="$H_WCPU" 'BEGIN {print a + b}')" -v c="$(awk -v a="$G_SCPU" -v b="$G_WCPU" 'BEGIN {print a + b}')" 'BEGIN { printf "%.1f", 100 * h / c }')"
    I_CPU_RATIO="$(awk -v h="$(awk -v a="$H_SCPU" -v b="$H_WCPU" 'BEGIN {print a + b}')" -v c="$(awk -v a="$I_SCPU" -v b="$I_WCPU" 'BEGIN {print a + b}')" 'BEGIN { printf "%.1f", 100 * h / c }')"
    G_RATIOS+=("$G_RATIO"); I_RATIOS+=("$I_RATIO"); G_CPU_RATIOS+=("$G_CPU_RATIO"); I_CPU_RATIOS+=("$I_CPU_RATIO")
    ROWS+=("| $round | $(cut -d' ' -f1 /proc/loadavg) | $H_RPS | ${H_P99} ms | $G_RPS | ${G_P99} ms | **${G_RATIO}%** | $I_RPS | ${I_P99} ms | ${I_RATIO}% | $((H_BAD + G_BAD + I_BAD)) |")
    CPU_ROWS+=("| $round | $H_SCPU + $H_WCPU | $G_SCPU + $G_WCPU | ${G_CPU_RATIO}% | $I_SCPU + $I_WCPU | ${I_CPU_RATIO}% |")
    if (( H_BAD + G_BAD + I_BAD > 0 )); then
        echo "error: round $round had $((H_BAD + G_BAD + I_BAD)) non-2xx answers (a refused token?)" >&2; exit 1
    fi
done
G_MEDIAN="$(printf '%s\n' "${G_RATIOS[@]}" | median)"
I_MEDIAN="$(printf '%s\n' "${I_RATIOS[@]}" | median)"
G_CPU_MEDIAN="$(printf '%s\n' "${G_CPU_RATIOS[@]}" | median)"
I_CPU_MEDIAN="$(printf '%s\n' "${I_CPU_RATIOS[@]}" | median)"
range() { sort -g | awk 'NR == 1 {lo = $1} {hi = $1} END {print lo "–" hi}'; }
G_RANGE="$(printf '%s\n' "${G_RATIOS[@]}" | range)"
I_RANGE="$(printf '%s\n' "${I_RATIOS[@]}" | range)"

CPU="$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')"
LOAD="$(cut -d' ' -f1-3 /proc/loadavg)"
PINNING="client and server share the cores"
[[ -n "$SERVER_CPUS$WRK_CPUS" ]] && PINNING="server pinned to CPU(s) ${SERVER_CPUS:-any}, wrk to CPU(s) ${WRK_CPUS:-any} (taskset)"
{
    echo "# HTTP API load benchmark (wrk, loopback)"
    echo
    echo "Generated by \`Benchmarks/api_wrk.sh\` on $(date -u +%Y-%m-%dT%H:%MZ): \`pipeline serve\` ($PIPELINE_BIN) on"
    echo "127.0.0.1, SQLite data set from \`pipeline generate --users $USERS --days $DAYS\` + \`pipeline nightly\`,"
    echo "wrk -t$THREADS -c$CONNECTIONS -d$DURATION on the same $(nproc)-core machine ($CPU): $PINNING;"
    echo "$ROUNDS round(s) of /healthz, \`GET $ROUTE\` with \`Accept-Encoding: gzip\`, \`GET $ROUTE\` without, back to back."
    echo "Load average at the end of the run (1/5/15 min): $LOAD."
    echo
    echo "| round | load (1 min) | /healthz req/s | p99 | $ROUTE gzip req/s | p99 | gzip / healthz | $ROUTE identity req/s | p99 | identity / healthz | non-2xx |"
    echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    printf '%s\n' "${ROWS[@]}"
    echo
    echo "**Cached route / trivial route throughput, median of $ROUNDS: ${G_MEDIAN}% with gzip** (range $G_RANGE) as the apps"
    echo "ask, ${I_MEDIAN}% without (range $I_RANGE); target ≥ 80%."
    echo
    echo "CPU per request in µs (server + wrk, from /proc/PID/stat and the shell's \`times\`), and the throughput ratio it"
    echo "implies if both routes got the same CPU (CPU per /healthz request ÷ CPU per cached request):"
    echo
    echo "| round | /healthz | $ROUTE gzip | implied ratio | $ROUTE identity | implied ratio |"
    echo "|---:|---:|---:|---:|---:|---:|"
    printf '%s\n' "${CPU_ROWS[@]}"
    echo
    echo "Median implied ratio: ${G_CPU_MEDIAN}% with gzip, ${I_CPU_MEDIAN}% without."
    echo
    echo "Bodies: $IDENTITY_BYTES bytes identity; $GZIP_NOTE; /healthz 15 bytes."
    echo "The cached route does per request what /healthz does not: the token check (a memo hit by the token's bytes"
    echo "after its first full HS256 verification; exp/nbf checked every time), the user lookup (user cache), one"
    echo "response-cache read, the Accept-Encoding negotiation, the ETag, Vary and max-age headers, and the larger body."
    echo "No database access and no compression per request: every request of the run is a cache hit (warmed before),"
    echo "and the gzip copy was made once when the entry was cached."
    if [[ "$ROUTE" == /v1/me/stats ]]; then echo "The user has no stored plan, so the stats route was measured."; fi
} > "$OUT"
cat "$OUT"
