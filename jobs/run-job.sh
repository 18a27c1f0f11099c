#!/usr/bin/env bash
# run-job.sh NAME -- COMMAND [ARG...]
#
# Runs one pipeline job so that two runs of the same job never overlap, and logs where an operator looks:
#   - a lock per job name (flock on $PIPELINE_LOCK_DIR/NAME.lock, default /run/lock/pipeline); a second run
#     while the first still holds it exits 75 (EX_TEMPFAIL) at once and says so;
#   - stdout and stderr appended to $PIPELINE_LOG_DIR/NAME.log (default /var/log/pipeline), one header line per
#     run with the start time and one footer line with the exit code.
#   - with $PIPELINE_METRICS_DIR set (e.g. /var/lib/prometheus/node-exporter, node_exporter's textfile directory),
#     PIPELINE_METRICS_FILE=$PIPELINE_METRICS_DIR/pipeline_NAME.prom and PIPELINE_JOB_NAME=NAME are exported: the job
#     commands (nightly, ingest, plans, deletions) write their figures there when they end (`--metrics-file`).
# The exit code is the command's (75 when skipped for overlap; 143/130 when SIGTERM/SIGINT, passed on to the command,
# stopped it at a safe point). Configuration (PIPELINE_DB, secrets) comes from the
# environment, e.g. /etc/pipeline/pipeline.env loaded by cron's wrapper line or systemd's EnvironmentFile.
set -uo pipefail
if (($# < 3)) || [[ "$2" != "--" ]]; then
  echo "usage: run-job.sh NAME -- COMMAND [ARG...]" >&2
  exit 64
fi
name=$1
shift 2
lock_dir=${PIPELINE_LOCK_DIR:-/run/lock/pipeline}
log_dir=${PIPELINE_LOG_DIR:-/var/log/pipeline}
mkdir -p "$lock_dir" "$log_dir"
log="$log_dir/$name.log"
exec 9>"$lock_dir/$name.lock"
if ! flock --nonblock 9; then
  echo "$(date -u +%FT%TZ) $name: previous run still running; skipped" | tee -a "$log" >&2
  exit 75
fi
if [[ -n ${PIPELINE_METRICS_DIR:-} ]]; then
  export PIPELINE_METRICS_FILE="$PIPELINE_METRICS_DIR/pipeline_$name.prom" PIPELINE_JOB_NAME="$name"
fi
echo "$(date -u +%FT%TZ) $name: start: $*" >>"$log"
# The job runs in the background so that SIGTERM/SIGINT sent to this script are passed on to it (once): the job
# stops at its next safe point and exits 143/130, and the footer line below is still written.
"$@" >>"$log" 2>&1 &
child=$!
trap 'kill -TERM "$child" 2>/dev/null' TERM
trap 'kill -INT "$child" 2>/dev/null' INT
status=
while [[ -z $status ]]; do
  wait "$child"
  rc=$?
  # Above 128 with the job still running: the wait was interrupted by a signal passed on; wait again.
  if ((rc > 128)) && kill -0 "$child" 2>/dev/null; then continue; fi
  status=$rc
done
echo "$(date -u +%FT%TZ) $name: exit $status" >>"$log"
exit "$status"
