#!/usr/bin/env bash
# Runs a command with PIPELINE_TEST_POSTGRES_URL pointing at a PostgreSQL server:
#
#   scripts/with-postgres.sh swift test --skip-build --filter StoreTests
#
# When PIPELINE_TEST_POSTGRES_URL is already set, the command just runs with it. Otherwise this installs Debian's
# `postgresql` if it is missing, starts a throwaway cluster in a temporary directory (owned by the unprivileged
# `postgres` user when run as root; by the caller otherwise) listening on 127.0.0.1 on a free port, exports
#   PIPELINE_TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:PORT/postgres
# runs the command, and stops and removes the cluster on exit, whether the command passed or not. The command's exit
# status is this script's. The server's log is printed when the command fails.
set -euo pipefail
# The command runs in the caller's directory; only install-deps.sh is found next to this script.
here=$(cd "$(dirname "$0")" && pwd)

if (($# == 0)); then
  echo "usage: scripts/with-postgres.sh COMMAND [ARG...]" >&2
  exit 2
fi
if [[ -n "${PIPELINE_TEST_POSTGRES_URL:-}" ]]; then
  export PIPELINE_TEST_REQUIRE_POSTGRES=1
  exec "$@"
fi

bindir() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1; }
if [[ -z "$(bindir)" || ! -x "$(bindir)/initdb" ]]; then
  WITH_POSTGRES=1 "$here/install-deps.sh"
fi
PG_BIN=$(bindir)
[[ -x "$PG_BIN/initdb" ]] || { echo "with-postgres: no initdb under /usr/lib/postgresql after installing" >&2; exit 1; }

# As root, the cluster belongs to the unprivileged `postgres` user (PostgreSQL refuses to run as root).
as_owner=()
if [[ $(id -u) -eq 0 ]]; then
  id postgres >/dev/null 2>&1 || { echo "with-postgres: no postgres user" >&2; exit 1; }
  as_owner=(runuser -u postgres --)
fi

# Under /tmp when root (the postgres user must reach it; root's TMPDIR may sit in an unreadable home).
if [[ $(id -u) -eq 0 ]]; then
  PG_DIR=$(mktemp -d /tmp/pipeline-pg.XXXXXX)
  chown postgres:postgres "$PG_DIR"
else
  PG_DIR=$(mktemp -d "${TMPDIR:-/tmp}/pipeline-pg.XXXXXX")
fi
chmod 700 "$PG_DIR"

started=0
cleanup() {
  local status=$?
  if ((started)); then
    "${as_owner[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop >/dev/null 2>&1 || true
  fi
  if ((status != 0)) && [[ -f "$PG_DIR/server.log" ]]; then
    echo "== with-postgres: server log (last 30 lines)" >&2
    tail -30 "$PG_DIR/server.log" >&2 || true
  fi
  rm -rf "$PG_DIR"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

"${as_owner[@]}" "$PG_BIN/initdb" -D "$PG_DIR/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$PG_DIR/initdb.log" 2>&1 \
  || { cat "$PG_DIR/initdb.log" >&2; exit 1; }

# A port nobody answers on; if another process takes it before the server binds, try the next candidate.
port_is_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
for attempt in 1 2 3 4 5 6 7 8; do
  port=$((20000 + RANDOM % 30000))
  port_is_free "$port" || continue
  if "${as_owner[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 \
       -o "-c listen_addresses=127.0.0.1 -p $port -k $PG_DIR -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
       start >/dev/null; then
    started=1
    break
  fi
done
((started)) || { echo "with-postgres: the server did not start" >&2; exit 1; }

export PIPELINE_TEST_POSTGRES_URL="postgres://postgres@127.0.0.1:$port/postgres"
# The store suites' PostgreSQL cases must run: without the URL they fail instead of dropping out (TestKit/TestPostgres).
export PIPELINE_TEST_REQUIRE_POSTGRES=1
echo "== with-postgres: PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$port (throwaway cluster in $PG_DIR)"
# The command runs as a child so that INT/TERM reach it and the cluster is stopped only once it has ended.
"$@" &
child=$!
forward() { kill "-$1" "$child" 2>/dev/null || true; wait "$child" 2>/dev/null || true; exit "$2"; }
trap 'forward INT 130' INT
trap 'forward TERM 143' TERM
set +e
wait "$child"
status=$?
set -e
exit "$status"
