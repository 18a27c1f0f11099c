#!/usr/bin/env bash
# Renders a training report (`pipeline report`) to PNG with headless Chromium, to see the page as a person would:
#
#   scripts/report-screenshot.sh REPORT.html OUT.png [WIDTH [HEIGHT]]
#   scripts/report-screenshot.sh --demo OUT.png [WIDTH [HEIGHT]]
#
# --demo builds the `pipeline` binary (debug) if needed, generates a synthetic data set (3 users, 180 days, seed 16),
# runs the nightly job on a fresh SQLite file and writes the report of the runner user-0001 first; the HTML is kept
# beside the PNG (OUT.html). WIDTH defaults to 1000 px, HEIGHT to 4200 px (the whole page; Chromium's command line
# has no full-page mode). Installs Debian's `chromium` when it is missing (root). The page loads nothing from the
# network (it has no external reference); Chromium runs with networking features off anyway.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if (($# < 2)); then
  echo "usage: scripts/report-screenshot.sh (REPORT.html | --demo) OUT.png [WIDTH [HEIGHT]]" >&2
  exit 64
fi
input=$1 out=$2 width=${3:-1000} height=${4:-4200}
out_abs=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")

if ! command -v chromium >/dev/null; then
  if [[ $(id -u) == 0 ]]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null
  else
    echo "chromium is missing: apt-get install chromium" >&2
    exit 69
  fi
fi

if [[ $input == --demo ]]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  pipeline=${PIPELINE_BIN:-$root/.build/debug/pipeline}
  [[ -x $pipeline ]] || (cd "$root" && swift build --product pipeline >/dev/null)
  export OPENBLAS_NUM_THREADS=1 PIPELINE_LOG_LEVEL=error
  "$pipeline" generate --users 3 --days 180 --seed 16 --end "$(date -u +%F)" --out "$work/inbox" >/dev/null
  "$pipeline" nightly --db "$work/demo.sqlite" --inbox "$work/inbox" >/dev/null
  input="${out_abs%.png}.html"
  "$pipeline" report --db "$work/demo.sqlite" --user user-0001 --out "$input"
fi
[[ -f $input ]] || { echo "no such file: $input" >&2; exit 66; }
input_abs=$(cd "$(dirname "$input")" && pwd)/$(basename "$input")

# --no-sandbox: Chromium refuses to run as root with its sandbox; the page is our own, with no script.
sandbox=()
[[ $(id -u) == 0 ]] && sandbox=(--no-sandbox)
chromium --headless --disable-gpu "${sandbox[@]}" --hide-scrollbars --disable-background-networking \
  --disable-component-update --disable-sync --no-first-run --force-device-scale-factor=1 \
  --window-size="$width,$height" --screenshot="$out_abs" "file://$input_abs" 2>/dev/null
[[ -s $out_abs ]] || { echo "chromium wrote no screenshot" >&2; exit 1; }
echo "screenshot: $out_abs"
