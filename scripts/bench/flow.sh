#!/usr/bin/env bash
# The whole authorization code flow as a user meets it, against a baseline in the same run:
#   GET /oauth2/authorize with a signed-in browser's session cookie (consent given before) → 302 with a code →
#   POST /oauth2/token with the code, the PKCE (S256) verifier and HTTP Basic client authentication.
# SignInBridge runs the shipped sample config (request logs on) from a release build on SQLite; the baseline is
# authlib (Flask) under gunicorn doing the same flow on SQLite (scripts/bench/token/authlib_peer.py). wrk: 2 threads,
# $CONNECTIONS connections, $DURATION s, loopback, on the same 2 cores. Goal: >= 10x the peer's flows/s, p99 < 20 ms.
# Also reported: store round trips per flow (from /metrics), and the authenticated bootstrap against a Hummingbird
# route that does nothing (goal >= 0.6 of it).
# Usage: scripts/bench/flow.sh   (installs wrk and makes a Python venv with authlib itself)
#   SIGNIN_BRIDGE=path  benchmark that binary instead of building one (to compare two builds in one sitting)
#   REQUEST_LOGS=false  turn the request log off (to isolate the store; the shipped default is on)
#   POSTGRES=1          also run the flow over PostgreSQL (a throwaway cluster from scripts/test/postgres.sh): one
#                       instance with the SQLite run's connections (the store's cost), then two instances over one
#                       database, half the connections each (scale-out); their CPU per flow counts PostgreSQL's own
#                       processes too (postmaster and every backend), reported beside SQLite
#   PG_MAX_CONNECTIONS=n  the instances' pool size (store.postgres.maxConnections) in the PostgreSQL runs
#   PG_DURABILITY=normal  their store.postgres.durability (full by default)
#   FLOWS_ONLY=1        only the code flow (SQLite, and PostgreSQL with POSTGRES=1): no authlib peer, no bootstrap
#   DPOP=1              also the flow with a DPoP proof (RFC 9449) on every token request, on the same SQLite server
#                       right after the plain run: flows/s and CPU per flow with and without DPoP in one sitting
#   PROFILE_DIR=dir     after each measured SignInBridge run, one more with perf attached: top functions in dir/*.txt
#   RESULTS=file        also write the figures as key=value lines (scripts/bench/all.sh reads them)
set -euo pipefail
cd "$(dirname "$0")/../.."
bash scripts/install-deps.sh bench

BRIDGE_PORT=${BRIDGE_PORT:-18190}
PEER_PORT=${PEER_PORT:-18191}
FLOOR_PORT=${FLOOR_PORT:-18192}
DURATION=${DURATION:-10}
CONNECTIONS=${CONNECTIONS:-32}
PEER_WORKERS=${PEER_WORKERS:-5}   # gunicorn's recommendation for 2 cores: 2 x cores + 1
VENV=${VENV:-.build/bench-venv}
source scripts/bench/lib/code-flow.bash   # VERIFIER, CHALLENGE, BASIC, AUTHORIZE, sample_config, signed_in_cookie
work=$(mktemp -d /tmp/signin-bridge-flow-bench.XXXXXX)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

[ -x "$VENV/bin/gunicorn" ] || [ "${FLOWS_ONLY:-0}" = 1 ] || { python3 -m venv "$VENV" && "$VENV/bin/pip" install -q authlib flask gunicorn cryptography; }
echo "== building release"
[ -n "${SIGNIN_BRIDGE:-}" ] || bash scripts/release/build.sh --product signin-bridge 2>&1 | tail -1
[ -x .build/release/RouteFloor ] || [ "${FLOWS_ONLY:-0}" = 1 ] || bash scripts/release/build.sh --product RouteFloor 2>&1 | tail -1
bin=${SIGNIN_BRIDGE:-.build/release/signin-bridge}

wait_for() { for _ in $(seq 1 200); do curl -s -o /dev/null "$1" && return 0; sleep 0.05; done; echo "no answer from $1" >&2; exit 1; }
rps() { awk '/^Requests\/sec/ {print $2}' "$1"; }
p99() { awk '$1 == "99%" {print $2}' "$1"; }
flows() { awk '/^flows / {print $2}' "$1"; }
flow_errors() { awk '/^flow_errors / {print $2}' "$1"; }
round_trips() { curl -s "http://127.0.0.1:$BRIDGE_PORT/metrics" | awk '/^signin_bridge_store_round_trips_total/ {print $2}'; }
# CPU time (user + system, clock ticks) of processes and their children so far: fields 14-17 of /proc/PID/stat.
# Read around a wrk run, it is the server's CPU per completed request, steadier than req/s on 2 shared cores.
cpu_ticks() { local total=0 p; for p in "$@"; do [ -r "/proc/$p/stat" ] && total=$((total + $(awk '{ print $14 + $15 + $16 + $17 }' "/proc/$p/stat"))); done; echo "$total"; }
tick=$(getconf CLK_TCK)
per_unit_us() { awk -v t="$1" -v k="$tick" -v n="$2" 'BEGIN { if (n > 0) printf "%.0f", t / k * 1e6 / n; else print "n/a" }'; }
flow_run() {  # base-url cookie output
  wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s scripts/bench/token/flow.lua "$1" -- "$2" "$BASIC" "$AUTHORIZE" "$VERIFIER" > "$3"
}

echo "== SignInBridge (shipped sample config, request logs on)"
sample_config "$work" "$BRIDGE_PORT"
[ "${REQUEST_LOGS:-true}" = true ] || sed -i 's/^  requests: true /  requests: false/' "$work/bridge.yaml"
"$bin" serve --config "$work/bridge.yaml" --port "$BRIDGE_PORT" >"$work/bridge.log" 2>&1 &
bridge_pid=$!; pids+=($bridge_pid)
wait_for "http://127.0.0.1:$BRIDGE_PORT/auth/health"
cookie=$(signed_in_cookie "$BRIDGE_PORT")
before=$(round_trips)
cpu_before=$(cpu_ticks "$bridge_pid")
flow_run "http://127.0.0.1:$BRIDGE_PORT" "$cookie" "$work/wrk-bridge"
bridge_cpu=$(( $(cpu_ticks "$bridge_pid") - cpu_before ))
after=$(round_trips)
if [ -n "${PROFILE_DIR:-}" ]; then   # a second, unmeasured run with perf attached
  bash scripts/bench/profile-top.sh "$bridge_pid" "$DURATION" "$PROFILE_DIR/flow.txt" &
  flow_run "http://127.0.0.1:$BRIDGE_PORT" "$cookie" "$work/wrk-profile"
  wait $!
fi

if [ "${DPOP:-0}" = 1 ]; then
  echo "== SignInBridge, the same flow with a DPoP proof on every token request"
  bash scripts/test/python-venv.sh   # the proofs are signed with the test venv's cryptography
  # One proof per token request, each good once: more than the plain run's flows, with room to spare (twice that
  # with PROFILE_DIR, whose second run needs its own).
  copies=1; [ -z "${PROFILE_DIR:-}" ] || copies=2
  proof_count=$(( ($(flows "$work/wrk-bridge") * 2 + 1000) * copies ))
  .build/venv-test/bin/python scripts/bench/token/dpop_proofs.py "http://127.0.0.1:$BRIDGE_PORT/oauth2/token" "$proof_count" > "$work/proofs"
  cpu_before=$(cpu_ticks "$bridge_pid")
  wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s scripts/bench/token/flow.lua "http://127.0.0.1:$BRIDGE_PORT" \
    -- "$cookie" "$BASIC" "$AUTHORIZE" "$VERIFIER" "$work/proofs" 2 > "$work/wrk-dpop"
  dpop_cpu=$(( $(cpu_ticks "$bridge_pid") - cpu_before ))
  if [ -n "${PROFILE_DIR:-}" ]; then   # a second, unmeasured run with perf attached, on the proofs left over
    bash scripts/bench/profile-top.sh "$bridge_pid" "$DURATION" "$PROFILE_DIR/flow-dpop.txt" &
    tail -n +"$(( proof_count / 2 + 1 ))" "$work/proofs" > "$work/proofs-profile"
    wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" -s scripts/bench/token/flow.lua "http://127.0.0.1:$BRIDGE_PORT" \
      -- "$cookie" "$BASIC" "$AUTHORIZE" "$VERIFIER" "$work/proofs-profile" 2 > /dev/null
    wait $!
  fi
fi

if [ "${POSTGRES:-0}" = 1 ]; then
  export SIGNIN_BRIDGE_POSTGRES_STATE="$work/postgres.env"
  eval "export $(bash scripts/test/postgres.sh start | head -1)"
  pg_stop() { SIGNIN_BRIDGE_POSTGRES_STATE="$work/postgres.env" bash scripts/test/postgres.sh stop >/dev/null 2>&1 || true; }
  # The instances stop before the cluster does: an instance whose database went away first may wait out its pool's
  # reconnect attempts before it exits, and cleanup waits for it.
  stop_instances() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; }
  trap 'stop_instances; pg_stop; cleanup' EXIT
  fresh_database() { python3 -c 'import sys; sys.path.insert(0, "scripts/test"); from multi_instance import fresh_database; import os; print(fresh_database(os.environ["SIGNIN_BRIDGE_TEST_POSTGRES_URL"]))'; }
  # The cluster's processes: the postmaster (first line of postmaster.pid) and its children, the backends among them.
  # A backend that exits during the run is counted in the postmaster's children's time (fields 16-17) once reaped.
  postmaster=$(head -1 "$(sed -n 's/^POSTGRES_TEST_DIR=//p' "$SIGNIN_BRIDGE_POSTGRES_STATE")/data/postmaster.pid")
  cluster_processes() { echo "$postmaster" $(pgrep -P "$postmaster"); }
  pg_instance() {  # port database-url issuer: starts an instance (its pid is appended to pids)
    python3 - "$work" "$1" "$3" "${PG_MAX_CONNECTIONS:-}" "${PG_DURABILITY:-}" <<'PY'
import sys
sys.path.insert(0, "scripts/test")
from pathlib import Path
from flows.bridge import write_config
directory = Path(sys.argv[1])
config = write_config(directory, int(sys.argv[2]), keys=directory / "pg-keys.json", issuer=sys.argv[3])
pool, durability = sys.argv[4], sys.argv[5]
if pool or durability:  # the sample's store.postgres line with what to try (the URL comes from the environment)
    text = config.read_text().replace("  # postgres: {url:", "  postgres: {url:", 1)
    text = text.replace("maxConnections: 10,", "maxConnections: %s," % (pool or 10), 1)
    # Without PG_DURABILITY the line leaves it out, so builds from before the setting read it too.
    config.write_text(text.replace(", durability: full}", ", durability: %s}" % durability if durability else "}", 1))
PY
    [ "${REQUEST_LOGS:-true}" = true ] || sed -i 's/^  requests: true /  requests: false/' "$work/bridge-$1.yaml"
    SIGNIN_BRIDGE_STORE_URL="$2" "$bin" serve --config "$work/bridge-$1.yaml" --port "$1" >"$work/pg-$1.log" 2>&1 &
    pids+=($!)
    wait_for "http://127.0.0.1:$1/auth/health"
  }
  pg_trips_of() { local port total=0; for port in "$@"; do total=$((total + $(curl -s "http://127.0.0.1:$port/metrics" | awk '/^signin_bridge_store_round_trips_total/ {printf "%d", $2}'))); done; echo "$total"; }
  PG_ONE=$((BRIDGE_PORT + 9)); PG_A=$((BRIDGE_PORT + 10)); PG_B=$((BRIDGE_PORT + 11))

  # The store's cost: one instance with the SQLite run's wrk (2 threads, $CONNECTIONS connections), a fresh database.
  echo "== SignInBridge, one instance over PostgreSQL"
  pg_instance "$PG_ONE" "$(fresh_database)" "http://127.0.0.1:$PG_ONE"
  one_pid=${pids[-1]}
  one_cookie=$(signed_in_cookie "$PG_ONE")
  one_trips_before=$(pg_trips_of "$PG_ONE")
  one_cpu_before=$(cpu_ticks "$one_pid"); one_cluster_before=$(cpu_ticks $(cluster_processes))
  flow_run "http://127.0.0.1:$PG_ONE" "$one_cookie" "$work/wrk-pg-one"
  one_cpu=$(( $(cpu_ticks "$one_pid") - one_cpu_before ))
  one_cluster_cpu=$(( $(cpu_ticks $(cluster_processes)) - one_cluster_before ))
  one_trips=$(( $(pg_trips_of "$PG_ONE") - one_trips_before ))
  if [ -n "${PROFILE_DIR:-}" ]; then   # a second, unmeasured run: the instance, and the cluster's processes
    bash scripts/bench/profile-top.sh "$one_pid" "$DURATION" "$PROFILE_DIR/flow-postgres-one-instance.txt" &
    profiling=($!)
    bash scripts/bench/profile-top.sh "$(cluster_processes | tr ' ' ,)" "$DURATION" "$PROFILE_DIR/flow-postgres-one-server.txt" &
    profiling+=($!)
    flow_run "http://127.0.0.1:$PG_ONE" "$one_cookie" /dev/null
    wait "${profiling[@]}"
  fi
  kill "$one_pid"; wait "$one_pid" 2>/dev/null || true

  # Scale-out as deployed: two instances over one database, half the connections each.
  echo "== SignInBridge, two instances over one PostgreSQL database"
  pg_url=$(fresh_database)
  for port in $PG_A $PG_B; do pg_instance "$port" "$pg_url" "http://127.0.0.1:$PG_A"; done
  pg_cookie=$(signed_in_cookie "$PG_A")
  half=$((CONNECTIONS / 2))
  pg_instances=("${pids[@]: -2}")
  pg_trips_before=$(pg_trips_of $PG_A $PG_B)
  pg_cpu_before=$(cpu_ticks "${pg_instances[@]}"); cluster_cpu_before=$(cpu_ticks $(cluster_processes))
  wrk -t1 -c"$half" -d"${DURATION}s" --latency -s scripts/bench/token/flow.lua "http://127.0.0.1:$PG_A" -- "$pg_cookie" "$BASIC" "$AUTHORIZE" "$VERIFIER" > "$work/wrk-pg-a" &
  wrk_a=$!
  wrk -t1 -c"$half" -d"${DURATION}s" --latency -s scripts/bench/token/flow.lua "http://127.0.0.1:$PG_B" -- "$pg_cookie" "$BASIC" "$AUTHORIZE" "$VERIFIER" > "$work/wrk-pg-b"
  wait "$wrk_a"
  pg_cpu=$(( $(cpu_ticks "${pg_instances[@]}") - pg_cpu_before ))
  cluster_cpu=$(( $(cpu_ticks $(cluster_processes)) - cluster_cpu_before ))
  pg_trips=$(( $(pg_trips_of $PG_A $PG_B) - pg_trips_before ))
  if [ -n "${PROFILE_DIR:-}" ]; then   # a second, unmeasured run: one instance, and the cluster's processes
    profiling=()
    bash scripts/bench/profile-top.sh "${pg_instances[0]}" "$DURATION" "$PROFILE_DIR/flow-postgres-instance.txt" &
    profiling+=($!)
    bash scripts/bench/profile-top.sh "$(cluster_processes | tr ' ' ,)" "$DURATION" "$PROFILE_DIR/flow-postgres-server.txt" &
    profiling+=($!)
    for port in $PG_A $PG_B; do
      wrk -t1 -c"$half" -d"${DURATION}s" -s scripts/bench/token/flow.lua "http://127.0.0.1:$port" -- "$pg_cookie" "$BASIC" "$AUTHORIZE" "$VERIFIER" > /dev/null &
      profiling+=($!)
    done
    wait "${profiling[@]}"
  fi
fi

if [ "${FLOWS_ONLY:-0}" != 1 ]; then
echo "== authlib peer ($PEER_WORKERS gunicorn workers)"
sid=$(python3 -c 'import secrets; print(secrets.token_urlsafe(32))')
PEER_DB="$work/peer.sqlite" "$VENV/bin/python" -c "import sys; sys.path.insert(0, 'scripts/bench/token'); import authlib_peer; authlib_peer.create_schema('$work/peer.sqlite'); authlib_peer.seed_session('$work/peer.sqlite', '$sid')"
AUTHLIB_INSECURE_TRANSPORT=1 PEER_DB="$work/peer.sqlite" "$VENV/bin/gunicorn" --chdir scripts/bench/token \
  -w "$PEER_WORKERS" -b "127.0.0.1:$PEER_PORT" --log-level warning authlib_peer:app 2>"$work/peer.log" &
pids+=($!); peer_pid=$!
for _ in $(seq 1 200); do curl -s -o /dev/null "http://127.0.0.1:$PEER_PORT/" && break; sleep 0.05; done
# One flow first: the peer must answer it with a token, or the comparison is meaningless.
location=$(curl -s -o /dev/null -w '%{redirect_url}' -H "Cookie: sid=$sid" "http://127.0.0.1:$PEER_PORT$AUTHORIZE")
code=$(printf '%s' "$location" | sed -n 's/.*[?&]code=\([^&]*\).*/\1/p')
check=$(curl -s -H "Authorization: $BASIC" -d "grant_type=authorization_code&code=$code&redirect_uri=https%3A%2F%2Flocalhost&code_verifier=$VERIFIER" "http://127.0.0.1:$PEER_PORT/oauth2/token")
case "$check" in *access_token*) ;; *) echo "authlib peer did not complete a flow: $location $check" >&2; cat "$work/peer.log" >&2; exit 1 ;; esac
peer_processes() { echo "$peer_pid" $(pgrep -P "$peer_pid"); }
cpu_before=$(cpu_ticks $(peer_processes))
flow_run "http://127.0.0.1:$PEER_PORT" "sid=$sid" "$work/wrk-peer"
peer_cpu=$(( $(cpu_ticks $(peer_processes)) - cpu_before ))
kill "$peer_pid" 2>/dev/null || true

ROUNDS=${BOOTSTRAP_ROUNDS:-3}
echo "== authenticated GET /wopibootstrapper and the empty route, alternately, $ROUNDS rounds (2 threads, 64 connections, ${DURATION} s each)"
token=$("$bin" token issue --config "$work/bridge.yaml" --user demo --client office)
[ "$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $token" "http://127.0.0.1:$BRIDGE_PORT/wopibootstrapper")" = 200 ]
.build/release/RouteFloor "$FLOOR_PORT" 2>"$work/floor.log" &
floor_pid=$!; pids+=($floor_pid)
wait_for "http://127.0.0.1:$FLOOR_PORT/floor"
# This VM's speed drifts by a quarter within minutes; measured in turns, both sides see the same drift.
bootstrap_cpu=0; floor_cpu=0
requests_of() { awk '/requests in/ { print $1 }' "$1"; }
for round in $(seq 1 "$ROUNDS"); do
  cpu_before=$(cpu_ticks "$bridge_pid")
  wrk -t2 -c64 -d"${DURATION}s" --latency -H "Authorization: Bearer $token" "http://127.0.0.1:$BRIDGE_PORT/wopibootstrapper" > "$work/wrk-bootstrap-$round"
  bootstrap_cpu=$(( bootstrap_cpu + $(cpu_ticks "$bridge_pid") - cpu_before ))
  cpu_before=$(cpu_ticks "$floor_pid")
  wrk -t2 -c64 -d"${DURATION}s" --latency "http://127.0.0.1:$FLOOR_PORT/floor" > "$work/wrk-floor-$round"
  floor_cpu=$(( floor_cpu + $(cpu_ticks "$floor_pid") - cpu_before ))
done
bootstrap_requests=$(for round in $(seq 1 "$ROUNDS"); do requests_of "$work/wrk-bootstrap-$round"; done | awk '{ s += $1 } END { print s }')
floor_requests=$(for round in $(seq 1 "$ROUNDS"); do requests_of "$work/wrk-floor-$round"; done | awk '{ s += $1 } END { print s }')
# Whole-run figures: mean requests/s and the worst round's p99.
mean_rps() { for round in $(seq 1 "$ROUNDS"); do rps "$work/$1-$round"; done | awk '{ s += $1 } END { printf "%.2f", s / NR }'; }
worst_p99() { for round in $(seq 1 "$ROUNDS"); do p99 "$work/$1-$round"; done | awk '{ v = $1; ms = v; sub(/ms$/, "", ms); if (v ~ /us$/) { sub(/us$/, "", v); ms = v / 1000 } else if (v ~ /[0-9]s$/) { sub(/s$/, "", v); ms = v * 1000 } if (ms + 0 > m) { m = ms + 0; w = $1 } } END { print w }'; }
bootstrap_rps=$(mean_rps wrk-bootstrap); floor_rps=$(mean_rps wrk-floor)
bootstrap_p99=$(worst_p99 wrk-bootstrap); floor_p99=$(worst_p99 wrk-floor)
if [ -n "${PROFILE_DIR:-}" ]; then
  bash scripts/bench/profile-top.sh "$bridge_pid" "$DURATION" "$PROFILE_DIR/authenticated-bootstrap.txt" &
  wrk -t2 -c64 -d"${DURATION}s" -H "Authorization: Bearer $token" "http://127.0.0.1:$BRIDGE_PORT/wopibootstrapper" > /dev/null
  wait $!
fi

fi

bridge_flows=$(flows "$work/wrk-bridge")
printf '\n%-46s %10s %10s %10s\n' "code flow ($CONNECTIONS connections, ${DURATION} s)" "flows/s" "p99" "errors"
printf '%-46s %10s %10s %10s\n' "SignInBridge, SQLite" "$(awk -v f="$bridge_flows" -v d="$DURATION" 'BEGIN{printf "%.0f", f/d}')" "$(p99 "$work/wrk-bridge")" "$(flow_errors "$work/wrk-bridge")"
if [ "${FLOWS_ONLY:-0}" != 1 ]; then
  peer_flows=$(flows "$work/wrk-peer")
  printf '%-46s %10s %10s %10s\n' "authlib + Flask + gunicorn, SQLite (baseline)" "$(awk -v f="$peer_flows" -v d="$DURATION" 'BEGIN{printf "%.0f", f/d}')" "$(p99 "$work/wrk-peer")" "$(flow_errors "$work/wrk-peer")"
  awk -v a="$bridge_flows" -v b="$peer_flows" 'BEGIN { printf "ratio SignInBridge / authlib: %.1fx (goal >= 10x, p99 < 20 ms)\n", a / b }'
fi
awk -v a="$before" -v b="$after" -v f="$bridge_flows" 'BEGIN { printf "store round trips per flow: %.2f (%d round trips, %d flows)\n", (b - a) / f, b - a, f }'
echo "server CPU per completed flow (/proc, user + system): SignInBridge $(per_unit_us "$bridge_cpu" "$bridge_flows") us${peer_flows:+, authlib peer (all workers) $(per_unit_us "$peer_cpu" "$peer_flows") us}"
if [ "${DPOP:-0}" = 1 ]; then
  dpop_flows=$(flows "$work/wrk-dpop")
  printf '%-46s %10s %10s %10s\n' "SignInBridge, SQLite, DPoP proof per token" "$(awk -v f="$dpop_flows" -v d="$DURATION" 'BEGIN{printf "%.0f", f/d}')" "$(p99 "$work/wrk-dpop")" "$(flow_errors "$work/wrk-dpop")"
  echo "server CPU per completed flow with DPoP (/proc): $(per_unit_us "$dpop_cpu" "$dpop_flows") us, without: $(per_unit_us "$bridge_cpu" "$bridge_flows") us"
fi
if [ "${POSTGRES:-0}" = 1 ]; then
  sqlite_us=$(per_unit_us "$bridge_cpu" "$bridge_flows")
  one_flows=$(flows "$work/wrk-pg-one")
  printf '%-46s %10s %10s %10s\n' "SignInBridge, 1 instance, PostgreSQL" "$(awk -v f="$one_flows" -v d="$DURATION" 'BEGIN{printf "%.0f", f/d}')" "$(p99 "$work/wrk-pg-one")" "$(flow_errors "$work/wrk-pg-one")"
  pg_flows=$(( $(flows "$work/wrk-pg-a") + $(flows "$work/wrk-pg-b") ))
  pg_errors=$(( $(flow_errors "$work/wrk-pg-a") + $(flow_errors "$work/wrk-pg-b") ))
  printf '%-46s %10s %10s %10s\n' "SignInBridge, 2 instances, one PostgreSQL" "$(awk -v f="$pg_flows" -v d="$DURATION" 'BEGIN{printf "%.0f", f/d}')" "$(p99 "$work/wrk-pg-a")/$(p99 "$work/wrk-pg-b")" "$pg_errors"
  [ -z "${peer_flows:-}" ] || awk -v a="$pg_flows" -v b="$peer_flows" 'BEGIN { printf "ratio PostgreSQL pair / authlib: %.1fx\n", a / b }'
  awk -v t="$one_trips" -v f="$one_flows" 'BEGIN { printf "PostgreSQL round trips per flow: 1 instance %.2f (%d round trips, %d flows)", t / f, t, f }'
  awk -v t="$pg_trips" -v f="$pg_flows" 'BEGIN { printf ", 2 instances %.2f (%d, %d)\n", t / f, t, f }'
  one_total_us=$(per_unit_us $((one_cpu + one_cluster_cpu)) "$one_flows")
  pg_total_us=$(per_unit_us $((pg_cpu + cluster_cpu)) "$pg_flows")
  echo "server CPU per completed flow on PostgreSQL (/proc), 1 instance: $one_total_us us = instance $(per_unit_us "$one_cpu" "$one_flows") us + PostgreSQL's processes $(per_unit_us "$one_cluster_cpu" "$one_flows") us"
  echo "server CPU per completed flow on PostgreSQL (/proc), 2 instances: $pg_total_us us = instances $(per_unit_us "$pg_cpu" "$pg_flows") us + PostgreSQL's processes $(per_unit_us "$cluster_cpu" "$pg_flows") us"
  awk -v a="$one_total_us" -v c="$pg_total_us" -v b="$sqlite_us" 'BEGIN { printf "PostgreSQL / SQLite CPU per flow: 1 instance %.2fx, 2 instances %.2fx (goal <= 1.3x)\n", a / b, c / b }'
fi
if [ "${FLOWS_ONLY:-0}" != 1 ]; then
printf '\n%-46s %10s %10s\n' "authenticated bootstrap (64 connections)" "$bootstrap_rps" "$bootstrap_p99"
printf '%-46s %10s %10s\n' "Hummingbird route doing nothing (baseline)" "$floor_rps" "$floor_p99"
for round in $(seq 1 "$ROUNDS"); do
  awk -v r="$round" -v a="$(rps "$work/wrk-bootstrap-$round")" -v b="$(rps "$work/wrk-floor-$round")" 'BEGIN { printf "  round %d: %.0f / %.0f = %.2f\n", r, a, b, a / b }'
done
awk -v a="$bootstrap_rps" -v b="$floor_rps" -v n="$ROUNDS" 'BEGIN { printf "bootstrap / empty route: %.2f over %d rounds (goal >= 0.6)\n", a / b, n }'
echo "server CPU per request (/proc): authenticated bootstrap $(per_unit_us "$bootstrap_cpu" "$bootstrap_requests") us, empty route $(per_unit_us "$floor_cpu" "$floor_requests") us"
fi
if [ -n "${RESULTS:-}" ] && [ "${FLOWS_ONLY:-0}" != 1 ]; then
  {
    awk -v f="$bridge_flows" -v d="$DURATION" 'BEGIN { printf "flow_bridge_fps=%.0f\n", f / d }'
    awk -v f="$peer_flows" -v d="$DURATION" 'BEGIN { printf "flow_peer_fps=%.0f\n", f / d }'
    echo "flow_bridge_p99=$(p99 "$work/wrk-bridge")"; echo "flow_peer_p99=$(p99 "$work/wrk-peer")"
    echo "flow_bridge_errors=$(flow_errors "$work/wrk-bridge")"; echo "flow_connections=$CONNECTIONS"
    awk -v a="$before" -v b="$after" -v f="$bridge_flows" 'BEGIN { printf "flow_round_trips=%.2f\n", (b - a) / f }'
    echo "authenticated_bootstrap_rps=$bootstrap_rps"; echo "empty_route_rps=$floor_rps"
    echo "authenticated_bootstrap_p99=$bootstrap_p99"; echo "empty_route_p99=$floor_p99"
    echo "bootstrap_rounds=$ROUNDS"
    echo "flow_bridge_cpu_us=$(per_unit_us "$bridge_cpu" "$bridge_flows")"; echo "flow_peer_cpu_us=$(per_unit_us "$peer_cpu" "$peer_flows")"
    echo "authenticated_bootstrap_cpu_us=$(per_unit_us "$bootstrap_cpu" "$bootstrap_requests")"
    echo "empty_route_cpu_us=$(per_unit_us "$floor_cpu" "$floor_requests")"
    # Peak RSS (VmHWM): the server after its flows and bootstraps, the empty route after the same wrk load.
    awk '/VmHWM/ { printf "flow_bridge_rss_mib=%.1f\n", $2 / 1024 }' "/proc/$bridge_pid/status"
    awk '/VmHWM/ { printf "empty_route_rss_mib=%.1f\n", $2 / 1024 }' "/proc/$floor_pid/status"
    if [ "${POSTGRES:-0}" = 1 ]; then
      awk -v f="$pg_flows" -v d="$DURATION" 'BEGIN { printf "flow_postgres_fps=%.0f\n", f / d }'
      echo "flow_postgres_p99=$(p99 "$work/wrk-pg-a")/$(p99 "$work/wrk-pg-b")"; echo "flow_postgres_cpu_us=$pg_total_us"
      awk -v f="$one_flows" -v d="$DURATION" 'BEGIN { printf "flow_postgres_one_fps=%.0f\n", f / d }'
      echo "flow_postgres_one_p99=$(p99 "$work/wrk-pg-one")"; echo "flow_postgres_one_cpu_us=$one_total_us"
    fi
    if [ "${DPOP:-0}" = 1 ]; then
      awk -v f="$dpop_flows" -v d="$DURATION" 'BEGIN { printf "flow_dpop_fps=%.0f\n", f / d }'
      echo "flow_dpop_p99=$(p99 "$work/wrk-dpop")"; echo "flow_dpop_cpu_us=$(per_unit_us "$dpop_cpu" "$dpop_flows")"
    fi
  } > "$RESULTS"
fi
