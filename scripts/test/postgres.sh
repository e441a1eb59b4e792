#!/usr/bin/env bash
# A throwaway PostgreSQL cluster on loopback for the PostgreSQL store's tests: initdb into a temp folder, pg_ctl on a
# free port, stopped and deleted afterwards. Installs Debian's `postgresql` if it is missing.
#
#   scripts/test/postgres.sh start       start a cluster, print SIGNIN_BRIDGE_TEST_POSTGRES_URL=… (also kept in the state file)
#   scripts/test/postgres.sh env         print the line for the running cluster (eval "export $(… env)")
#   scripts/test/postgres.sh stop        stop the cluster and delete its folder
#   scripts/test/postgres.sh run CMD…    start, run CMD with SIGNIN_BRIDGE_TEST_POSTGRES_URL (and SIGNIN_BRIDGE_POSTGRES_STATE)
#                                        set, stop (even on failure)
#
# SIGNIN_BRIDGE_POSTGRES_STATE names the state file (default .build/postgres-test.env in the repository).
set -euo pipefail
cd "$(dirname "$0")/../.."
state="${SIGNIN_BRIDGE_POSTGRES_STATE:-$PWD/.build/postgres-test.env}"

how_to() {
  cat >&2 <<'EOF'
PostgreSQL could not be started, and the PostgreSQL store's tests need one. Either
  - install it (Debian: apt-get install postgresql) and run: bash scripts/test/postgres.sh run swift test
  - or point the tests at a server you run: SIGNIN_BRIDGE_TEST_POSTGRES_URL=postgres://USER@HOST:PORT/DB swift test
    (the user must be allowed to CREATE DATABASE: each test makes its own database)
EOF
}

bin_dir() {
  local dir
  for dir in /usr/lib/postgresql/*/bin; do
    [ -x "$dir/pg_ctl" ] && { echo "$dir"; return 0; }
  done
  command -v pg_ctl >/dev/null && { dirname "$(command -v pg_ctl)"; return 0; }
  return 1
}

install_postgres() {
  bin_dir >/dev/null && return 0
  local sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "installing: postgresql" >&2
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq && $sudo apt-get install -y -qq --no-install-recommends postgresql >/dev/null
  bin_dir >/dev/null
}

# Runs a PostgreSQL program as the cluster's owner: initdb and postgres refuse to run as root.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start() {
  [ -f "$state" ] && stop
  install_postgres || { how_to; return 1; }
  local bin dir port
  bin="$(bin_dir)"
  dir="$(mktemp -d "${TMPDIR:-/tmp}/signin-bridge-pg.XXXXXX")"
  [ "$(id -u)" -eq 0 ] && chown postgres: "$dir" && chmod 700 "$dir"
  mkdir -p "$(dirname "$state")"
  if ! as_owner "$bin/initdb" -D "$dir/data" -A trust -U postgres -E UTF8 --locale C >"$dir/initdb.log" 2>&1; then
    cat "$dir/initdb.log" >&2; rm -rf "$dir"; how_to; return 1
  fi
  # A free port can be taken between asking and listening: try a few.
  for _ in 1 2 3 4 5; do
    port="$(free_port)"
    # fsync off: a test cluster is thrown away, and durability is not what these tests measure.
    if as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 30 \
        -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=500" start >/dev/null; then
      printf 'SIGNIN_BRIDGE_TEST_POSTGRES_URL=postgres://postgres@127.0.0.1:%s/postgres\nPOSTGRES_TEST_DIR=%s\n' \
        "$port" "$dir" >"$state"
      env_line
      return 0
    fi
  done
  tail -20 "$dir/server.log" >&2 || true
  rm -rf "$dir"
  how_to
  return 1
}

env_line() {
  [ -f "$state" ] || { echo "no test cluster is running (start one: $0 start)" >&2; return 1; }
  grep '^SIGNIN_BRIDGE_TEST_POSTGRES_URL=' "$state"
}

stop() {
  [ -f "$state" ] || return 0
  local dir bin
  dir="$(sed -n 's/^POSTGRES_TEST_DIR=//p' "$state")"
  rm -f "$state"
  [ -n "$dir" ] && [ -d "$dir" ] || return 0
  bin="$(bin_dir)" && as_owner "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}

case "${1:-}" in
  start) start ;;
  env) env_line ;;
  stop) stop ;;
  run)
    shift
    [ $# -gt 0 ] || { echo "usage: $0 run COMMAND [ARG…]" >&2; exit 2; }
    # A state file of its own, so that a cluster started with `start` (a developer's) is left alone.
    state="$(mktemp "${TMPDIR:-/tmp}/signin-bridge-pg-state.XXXXXX")"
    rm -f "$state"
    line="$(start)" || exit 1
    trap stop EXIT
    trap 'stop; exit 130' INT TERM
    echo "PostgreSQL test cluster: ${line#*=}" >&2
    # The state file names the cluster's folder and port, for tests that stop and restart it (outage.py).
    export "$line" SIGNIN_BRIDGE_POSTGRES_STATE="$state"
    "$@"
    ;;
  *) echo "usage: $0 start|env|stop|run COMMAND…" >&2; exit 2 ;;
esac
