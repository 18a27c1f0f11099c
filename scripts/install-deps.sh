#!/usr/bin/env bash
# Installs the Debian packages the pipeline needs, when they are missing. Safe to run again.
set -euo pipefail
packages=(libsqlite3-dev libopenblas-dev libcurl4-openssl-dev zlib1g-dev libzstd-dev liblz4-dev libxxhash-dev pkg-config tzdata)
if [[ "${WITH_POSTGRES:-0}" == "1" ]]; then packages+=(postgresql); fi
# The benchmark scripts' tools (Benchmarks/api_wrk.sh; .ci/run's benchmark-scripts step), and valgrind for the
# instruction counts of scripts/benchmark-thresholds.sh (package-benchmark 1.38.1 on Swift 6.3 needs no jemalloc: its
# malloc counts come from the malloc-interposer package).
if [[ "${WITH_BENCH_TOOLS:-0}" == "1" ]]; then packages+=(wrk jq curl openssl valgrind); fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep "install ok installed" >/dev/null || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}" >&2
  sudo_cmd=()
  if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
