#!/usr/bin/env bash
# Generated populations of runners, each run through the nightly dated on three weekdays, and every runner's plan
# (`pipeline plan --json`) judged by the coaching rubric's reference checker (../shared/plans/check_plan.py, through
# scripts/check-plans.py). Exit 0 only when every document passes every hard invariant (docs/plan-engine.md, "The
# external checker").
#
#   scripts/check-plan-populations.sh [--users 120] [--days 120] [--seeds "11 23 47"] [--out DIR] [--bin PATH]
#
# The nightly runs with --as-of, so the populations' plans are the same on any day the script runs: the data end on
# Friday 2026-11-20; the three nights are a Saturday, a Sunday and a Wednesday (UTC 03:00), so plans start on every
# weekday somewhere in the runners' zones.
set -euo pipefail
cd "$(dirname "$0")/.."
users=120 days=120 seeds="11 23 47" out=".build/plan-populations" bin=".build/debug/pipeline"
while [ $# -gt 0 ]; do
    case "$1" in
        --users) users="$2"; shift 2 ;;
        --days) days="$2"; shift 2 ;;
        --seeds) seeds="$2"; shift 2 ;;
        --out) out="$2"; shift 2 ;;
        --bin) bin="$2"; shift 2 ;;
        -h|--help) sed -n 2,11p "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "unknown option $1 (try --help)" >&2; exit 2 ;;
    esac
done
[ -x "$bin" ] || swift build --product pipeline
nights="2026-11-21T03:00:00Z 2026-11-22T03:00:00Z 2026-11-25T03:00:00Z"
rm -rf "$out"
mkdir -p "$out"
# The generator runs on one core (4.6 min a seed in a debug build, about half the stage's time), so the seeds'
# inboxes are generated side by side; each is the same as when generated alone (one seed, one output folder).
pids=()
for seed in $seeds; do
    "$bin" generate --users "$users" --days "$days" --seed "$seed" --end 2026-11-20 --out "$out/inbox-$seed" \
        >"$out/generate-$seed.log" 2>&1 &
    pids+=("$!")
done
for pid in "${pids[@]}"; do
    wait "$pid" || { echo "generate failed:" >&2; cat "$out"/generate-*.log >&2; exit 1; }
done
for seed in $seeds; do
    for night in $nights; do
        day="${night%%T*}"
        dir="$out/seed-$seed/$day"
        db="$out/seed-$seed-$day.sqlite"
        mkdir -p "$dir"
        "$bin" nightly --db "$db" --inbox "$out/inbox-$seed" --as-of "$night" --log-level error >/dev/null
        # Every runner with a goal race has a plan document (a plan or a refusal).
        python3 - "$db" <<'EOF' >"$out/users.txt"
import sqlite3, sys
for (u,) in sqlite3.connect(sys.argv[1]).execute("SELECT DISTINCT user_id FROM plans ORDER BY user_id"):
    print(u)
EOF
        while read -r u; do
            "$bin" plan --db "$db" --user "$u" --json --log-level error >"$dir/$u.json"
        done <"$out/users.txt"
    done
done
python3 scripts/check-plans.py "$out"/seed-*/
