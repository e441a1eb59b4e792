#!/usr/bin/env bash
# Benchmark of the token endpoint: authorization_code + PKCE (S256) redemption with HTTP Basic client
# authentication, an ES256-signed JWT access token recorded in SQLite and a hashed refresh token. Baseline in the
# same run: Python authlib (Flask integration) under gunicorn doing the same grant on SQLite (scripts/bench/token/).
# Codes are single use, so N codes are pre-issued into each store before its timed run.
#   wrk: 2 threads, $CONNECTIONS connections (same for both), $DURATION, loopback. Goals: >= 15x authlib, p99 < 20 ms.
# Then authenticated GET /wopibootstrapper with one of the issued access tokens (wrk 2 threads, 64 connections).
#   Goal: >= 22k requests/s. Baseline in the same run: a Hummingbird route that does nothing (Benchmarks/RouteFloor).
# Usage: scripts/bench/token.sh   (needs wrk: scripts/install-deps.sh bench; Python venv with authlib is made here)
set -euo pipefail
cd "$(dirname "$0")/../.."
bash scripts/install-deps.sh bench

BRIDGE_PORT=${BRIDGE_PORT:-18090}
PEER_PORT=${PEER_PORT:-18091}
DURATION=${DURATION:-10}
CONNECTIONS=${CONNECTIONS:-16}
BRIDGE_CODES=${BRIDGE_CODES:-80000}
PEER_CODES=${PEER_CODES:-20000}
PEER_WORKERS=${PEER_WORKERS:-5}   # gunicorn's recommendation for 2 cores: 2 x cores + 1
VENV=${VENV:-.build/bench-venv}
VERIFIER=dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk   # RFC 7636 Appendix B
BASIC="Basic $(printf 'office:office-demo-secret' | base64)"
work=$(mktemp -d /tmp/signin-bridge-token-bench.XXXXXX)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

echo "== Python venv with authlib, Flask, gunicorn ($VENV)"
[ -x "$VENV/bin/gunicorn" ] || { python3 -m venv "$VENV" && "$VENV/bin/pip" install -q authlib flask gunicorn cryptography; }
"$VENV/bin/python" -c 'import authlib, flask, gunicorn; print("authlib", authlib.__version__, "flask", flask.__version__ if hasattr(flask, "__version__") else "", "gunicorn", gunicorn.__version__)' 2>/dev/null

echo "== building release"
swift build -c release --product signin-bridge 2>&1 | tail -1
swift build -c release --product RouteFloor 2>&1 | tail -1
bin=.build/release/signin-bridge
FLOOR_PORT=${FLOOR_PORT:-18092}

sed -e "s|path: data/bridge.sqlite|path: $work/bridge.sqlite|" \
    -e "s|file: data/signing-keys.json|file: $work/keys.json|" \
    -e "s|  requests: true |  requests: false|" \
    -e "s|  level: info|  level: warning|" samples/bridge.yaml > "$work/bridge.yaml"

wait_for() { for _ in $(seq 1 200); do curl -s -o /dev/null "$1" && return 0; sleep 0.05; done; echo "no answer from $1" >&2; exit 1; }
rps() { awk '/^Requests\/sec/ {print $2}' "$1"; }
p99() { awk '$1 == "99%" {print $2}' "$1"; }
non2xx() { awk '/Non-2xx/ {print $5}' "$1"; }
redeem_run() {  # url codes-file output
  wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -s scripts/bench/token/redeem.lua "$1" -- "$2" 2 "$VERIFIER" "$BASIC" > "$3"
}

echo "== SignInBridge: start, pre-issue $BRIDGE_CODES codes, redeem"
"$bin" serve --config "$work/bridge.yaml" --port "$BRIDGE_PORT" 2>"$work/bridge.log" &
pids+=($!)
wait_for "http://127.0.0.1:$BRIDGE_PORT/auth/health"
python3 scripts/bench/token/seed_codes.py bridge "$work/bridge.sqlite" "$BRIDGE_CODES" "$work/bridge-codes" "$VERIFIER"
# One code kept aside for the bootstrap run's access token.
spare=$(tail -1 "$work/bridge-codes"); sed -i '$d' "$work/bridge-codes"
redeem_run "http://127.0.0.1:$BRIDGE_PORT" "$work/bridge-codes" "$work/wrk-bridge"

echo "== authlib peer: start ($PEER_WORKERS gunicorn workers), pre-issue $PEER_CODES codes, redeem"
PEER_DB="$work/peer.sqlite" "$VENV/bin/python" -c "import sys; sys.path.insert(0, 'scripts/bench/token'); import authlib_peer; authlib_peer.create_schema('$work/peer.sqlite')"
python3 scripts/bench/token/seed_codes.py peer "$work/peer.sqlite" "$PEER_CODES" "$work/peer-codes" "$VERIFIER"
AUTHLIB_INSECURE_TRANSPORT=1 PEER_DB="$work/peer.sqlite" "$VENV/bin/gunicorn" --chdir scripts/bench/token \
  -w "$PEER_WORKERS" -b "127.0.0.1:$PEER_PORT" --log-level warning authlib_peer:app 2>"$work/peer.log" &
pids+=($!); peer_pid=$!
for _ in $(seq 1 200); do curl -s -o /dev/null "http://127.0.0.1:$PEER_PORT/" && break; sleep 0.05; done
# One request first: the answer must be a token, or the comparison is meaningless.
check=$(curl -s -u office:office-demo-secret -d "grant_type=authorization_code&code=$(head -1 "$work/peer-codes")&redirect_uri=https%3A%2F%2Flocalhost&code_verifier=$VERIFIER" "http://127.0.0.1:$PEER_PORT/oauth2/token")
case "$check" in *access_token*) ;; *) echo "authlib peer did not issue a token: $check" >&2; cat "$work/peer.log" >&2; exit 1 ;; esac
sed -i '1d' "$work/peer-codes"
redeem_run "http://127.0.0.1:$PEER_PORT" "$work/peer-codes" "$work/wrk-peer"
kill "$peer_pid" 2>/dev/null || true

echo "== authenticated GET /wopibootstrapper (2 threads, 64 connections, ${DURATION} s)"
token=$(curl -s -u office:office-demo-secret -d "grant_type=authorization_code&code=$spare&redirect_uri=https%3A%2F%2Flocalhost&code_verifier=$VERIFIER" \
  "http://127.0.0.1:$BRIDGE_PORT/oauth2/token" | python3 -c 'import json, sys; print(json.load(sys.stdin)["access_token"])')
[ "$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $token" "http://127.0.0.1:$BRIDGE_PORT/wopibootstrapper")" = 200 ]
wrk -t2 -c64 -d"${DURATION}s" --latency -H "Authorization: Bearer $token" "http://127.0.0.1:$BRIDGE_PORT/wopibootstrapper" > "$work/wrk-bootstrap"

echo "== baseline: a Hummingbird route that does nothing (2 threads, 64 connections, ${DURATION} s)"
.build/release/RouteFloor "$FLOOR_PORT" 2>"$work/floor.log" &
pids+=($!); floor_pid=$!
wait_for "http://127.0.0.1:$FLOOR_PORT/floor"
wrk -t2 -c64 -d"${DURATION}s" --latency "http://127.0.0.1:$FLOOR_PORT/floor" > "$work/wrk-floor"
kill "$floor_pid" 2>/dev/null || true

bridge_rps=$(rps "$work/wrk-bridge"); peer_rps=$(rps "$work/wrk-peer")
printf '\n%-44s %12s %10s %10s\n' "code + PKCE redemption ($CONNECTIONS connections)" "requests/s" "p99" "non-2xx"
printf '%-44s %12s %10s %10s\n' "SignInBridge" "$bridge_rps" "$(p99 "$work/wrk-bridge")" "$(non2xx "$work/wrk-bridge" || true)"
printf '%-44s %12s %10s %10s\n' "authlib + Flask + gunicorn (baseline)" "$peer_rps" "$(p99 "$work/wrk-peer")" "$(non2xx "$work/wrk-peer" || true)"
awk -v a="$bridge_rps" -v b="$peer_rps" 'BEGIN { printf "ratio SignInBridge / authlib: %.1fx (goal >= 15x; p99 goal < 20 ms)\n", a / b }'
printf '\n%-44s %12s %10s %10s\n' "authenticated bootstrap (64 connections)" "$(rps "$work/wrk-bootstrap")" "$(p99 "$work/wrk-bootstrap")" "$(non2xx "$work/wrk-bootstrap" || true)"
printf '%-44s %12s %10s %10s\n' "Hummingbird route doing nothing (baseline)" "$(rps "$work/wrk-floor")" "$(p99 "$work/wrk-floor")" "$(non2xx "$work/wrk-floor" || true)"
awk -v a="$(rps "$work/wrk-bootstrap")" -v b="$(rps "$work/wrk-floor")" 'BEGIN { printf "bootstrap / empty route: %.2f\n", a / b }'
echo "goal >= 22000 requests/s"
for f in wrk-bridge wrk-peer wrk-bootstrap wrk-floor; do
  if grep -q Non-2xx "$work/$f"; then echo "WARNING: $f had non-2xx answers (codes exhausted or errors): the rate above counts them" >&2; fi
done
