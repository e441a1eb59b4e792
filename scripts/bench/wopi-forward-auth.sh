#!/usr/bin/env bash
# The forward-auth check a reverse proxy asks before each WOPI call (GET /wopi/auth with X-Original-URI, as nginx's
# auth_request sends it; docs/wopi-hosts.md) against the authenticated bootstrap (GET /wopibootstrapper with a Bearer
# token), both with one token used again and again, as Office does with a document's burst of calls: the WOPI
# token's grant and user, and the access token's status, are then kept for tokens.statusCacheMilliseconds.
# SignInBridge runs the sample config (request logs on) from a release build on SQLite; wrk: 2 threads,
# $CONNECTIONS connections, $DURATION s, loopback. Reported: requests/s, p99, and server CPU per request from
# /proc/PID/stat (user + system ticks), the figure to trust when other work shares the machine.
# Usage: scripts/bench/wopi-forward-auth.sh   (needs wrk: scripts/install-deps.sh bench)
#   SIGNIN_BRIDGE=path  benchmark that binary instead of building one
#   RESULTS=file        also write the figures as key=value lines (scripts/bench/all.sh reads them)
#   PROFILE_DIR=dir     then profile a second, unmeasured run of each (scripts/bench/profile-top.sh)
set -euo pipefail
cd "$(dirname "$0")/../.."
bash scripts/install-deps.sh bench

BRIDGE_PORT=${BRIDGE_PORT:-18290}
DURATION=${DURATION:-10}
CONNECTIONS=${CONNECTIONS:-32}
source scripts/bench/lib/code-flow.bash   # sample_config
work=$(mktemp -d /tmp/signin-bridge-wopi-auth-bench.XXXXXX)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

if [ -n "${SIGNIN_BRIDGE:-}" ]; then
  bin=$SIGNIN_BRIDGE
else
  echo "== building release"
  bash scripts/release/build.sh --product signin-bridge 2>&1 | tail -1
  bin=.build/release/signin-bridge
fi
sample_config "$work" "$BRIDGE_PORT"
"$bin" serve --config "$work/bridge.yaml" --port "$BRIDGE_PORT" 2>>"$work/bridge.log" &
bridge_pid=$!; pids+=($bridge_pid)
for _ in $(seq 1 200); do curl -s -o /dev/null "http://127.0.0.1:$BRIDGE_PORT/auth/health" && break; sleep 0.05; done

# Office's access token, and the WOPI token a real bootstrap hands out for one file (the default WopiSrc prefix is
# <issuer>/wopi/files/).
read -r access_token wopi_token < <(python3 - "$BRIDGE_PORT" <<'PY'
import sys
sys.path.insert(0, "scripts/test")
from flows.wopi import file_token, signed_in
port = int(sys.argv[1])
tokens = signed_in(port)
print(tokens["access_token"], file_token(port, tokens["access_token"], f"http://127.0.0.1:{port}/wopi/files/doc-a"))
PY
)
forward_auth=(-H "X-Original-URI: /wopi/files/doc-a?access_token=$wopi_token" -H "X-Original-Method: GET"
  "http://127.0.0.1:$BRIDGE_PORT/wopi/auth")
bootstrap=(-H "Authorization: Bearer $access_token" "http://127.0.0.1:$BRIDGE_PORT/wopibootstrapper")
for check in "forward_auth" "bootstrap"; do
  declare -n args=$check
  status=$(curl -s -o /dev/null -w '%{http_code}' "${args[@]}")
  [ "$status" = 200 ] || { echo "$check answers $status, not 200"; exit 1; }
done

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)
results=()
measure() {  # key label wrk-arguments…
  local key=$1 label=$2; shift 2
  local before; before=$(cpu_ticks "$bridge_pid")
  wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency "$@" > "$work/wrk-$key"
  local ticks=$(( $(cpu_ticks "$bridge_pid") - before ))
  local requests rps p99 cpu
  requests=$(awk '/requests in/ {print $1}' "$work/wrk-$key")
  rps=$(awk '/^Requests\/sec/ {print $2}' "$work/wrk-$key")
  p99=$(awk '$1 == "99%" {print $2}' "$work/wrk-$key")
  cpu=$(awk -v t="$ticks" -v r="$requests" -v hz="$hz" 'BEGIN { printf "%.1f", t * 1e6 / hz / r }')
  grep -E "Non-2xx|Socket errors" "$work/wrk-$key" || true
  results+=("$(printf '%-44s %12s %10s %18s' "$label" "$rps" "$p99" "$cpu")")
  printf '%s_rps=%s\n%s_p99=%s\n%s_cpu_us=%s\n' "$key" "$rps" "$key" "$p99" "$key" "$cpu" >> "$work/results"
}
echo "== wrk forward auth"
measure wopi_forward_auth "forward auth (/wopi/auth), one token" "${forward_auth[@]}"
echo "== wrk authenticated bootstrap"
measure wopi_bootstrap_baseline "authenticated bootstrap, one token" "${bootstrap[@]}"

if [ -n "${PROFILE_DIR:-}" ]; then  # a second, unmeasured run of each under perf
  mkdir -p "$PROFILE_DIR"
  for check in forward_auth bootstrap; do
    declare -n args=$check
    bash scripts/bench/profile-top.sh "$bridge_pid" "$DURATION" "$PROFILE_DIR/wopi-$check.txt" &
    wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" "${args[@]}" > /dev/null
    wait $!
  done
fi

printf '\n%-44s %12s %10s %18s\n' "$CONNECTIONS connections, ${DURATION} s" "requests/s" "p99" "server CPU µs/req"
printf '%s\n' "${results[@]}"
awk -F= '/_cpu_us=/ { v[$1] = $2 } END {
  printf "CPU ratio forward auth / authenticated bootstrap: %.2fx\n", v["wopi_forward_auth_cpu_us"] / v["wopi_bootstrap_baseline_cpu_us"] }' \
  "$work/results"
[ -z "${RESULTS:-}" ] || cp "$work/results" "$RESULTS"
