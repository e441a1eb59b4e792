#!/usr/bin/env bash
# Two builds in one sitting, alternated, so a refactor's cost is told apart from the machine's drift: for each of
# $ROUNDS rounds, each binary in turn (the order flips every round) runs the code flow without and with DPoP
# (scripts/bench/flow.sh FLOWS_ONLY=1 DPOP=1) and, on a fresh server, the unauthenticated 401 and the authenticated
# bootstrap (one token, as Office sends it) under wrk. Reported: the median server CPU per completed flow or request
# (/proc/PID/stat, user + system) per binary and head / base; requests/s swing by a quarter on 2 shared cores, CPU
# per unit much less. Both run the shipped sample config (SQLite, request logs on).
# Usage: BASE=path/to/old/signin-bridge HEAD_BIN=path/to/new/signin-bridge scripts/bench/compare.sh
#   ROUNDS=3  DURATION=8 (seconds per wrk run)  CONNECTIONS=32  RESULTS=file (key=value lines)
#   REQUESTS_ONLY=1: only the 401 and the authenticated bootstrap (short enough for many more rounds)
set -euo pipefail
cd "$(dirname "$0")/../.."
bash scripts/install-deps.sh bench
: "${BASE:?BASE=path to the signin-bridge of the base build}"
HEAD_BIN=${HEAD_BIN:-.build/release/signin-bridge}
ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-8}
CONNECTIONS=${CONNECTIONS:-32}
BRIDGE_PORT=${BRIDGE_PORT:-18390}
source scripts/bench/lib/code-flow.bash   # sample_config
work=$(mktemp -d /tmp/signin-bridge-compare.XXXXXX)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
hz=$(getconf CLK_TCK)
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

requests_cpu() {  # name binary: the 401 and the authenticated bootstrap on a fresh server; appends "name key µs"
  local name=$1 bin=$2 dir="$work/$1-$RANDOM"
  mkdir -p "$dir"
  sample_config "$dir" "$BRIDGE_PORT"
  "$bin" serve --config "$dir/bridge.yaml" --port "$BRIDGE_PORT" 2>>"$dir/bridge.log" &
  local pid=$!; pids+=($pid)
  for _ in $(seq 1 200); do curl -s -o /dev/null "http://127.0.0.1:$BRIDGE_PORT/auth/health" && break; sleep 0.05; done
  local token
  token=$(python3 -c 'import sys; sys.path.insert(0, "scripts/test"); from flows.wopi import signed_in; print(signed_in(int(sys.argv[1]))["access_token"])' "$BRIDGE_PORT")
  local key args
  for key in challenge_401 authenticated_bootstrap; do
    if [ "$key" = challenge_401 ]; then args=("http://127.0.0.1:$BRIDGE_PORT/wopibootstrapper")
    else args=(-H "Authorization: Bearer $token" "http://127.0.0.1:$BRIDGE_PORT/wopibootstrapper"); fi
    local before; before=$(cpu_ticks "$pid")
    wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" "${args[@]}" > "$dir/wrk-$key"
    local ticks=$(( $(cpu_ticks "$pid") - before )) count
    count=$(awk '/requests in/ {print $1}' "$dir/wrk-$key")
    awk -v n="$name" -v k="$key" -v t="$ticks" -v r="$count" -v hz="$hz" 'BEGIN { printf "%s %s %.1f\n", n, k, t * 1e6 / hz / r }' >> "$work/samples"
  done
  kill "$pid"; wait "$pid" 2>/dev/null || true
}

flows_cpu() {  # name binary: the code flow without and with DPoP (flow.sh); appends "name key µs"
  local name=$1 bin=$2 out="$work/flow-$1-$RANDOM.txt"
  FLOWS_ONLY=1 DPOP=1 DURATION=$DURATION CONNECTIONS=$CONNECTIONS SIGNIN_BRIDGE=$bin bash scripts/bench/flow.sh > "$out" 2>&1
  sed -n 's/^server CPU per completed flow with DPoP (\/proc): \([0-9.]*\) us, without: \([0-9.]*\) us$/\2 \1/p' "$out" |
    awk -v n="$name" '{ printf "%s code_flow %s\n%s code_flow_dpop %s\n", n, $1, n, $2 }' >> "$work/samples"
  grep -q "code_flow " <(grep "^$name " "$work/samples") || { echo "flow.sh gave no figures for $name:"; tail -5 "$out"; exit 1; }
}

for round in $(seq 1 "$ROUNDS"); do
  if [ $((round % 2)) = 1 ]; then order="base head"; else order="head base"; fi
  for name in $order; do
    bin=$BASE; [ "$name" = head ] && bin=$HEAD_BIN
    echo "== round $round: $name ($bin)"
    [ -n "${REQUESTS_ONLY:-}" ] || flows_cpu "$name" "$bin"
    requests_cpu "$name" "$bin"
  done
done

echo
python3 - "$work/samples" "$ROUNDS" <<'PY' | tee "$work/report"
import statistics, sys
samples = {}
for line in open(sys.argv[1]):
    name, key, value = line.split()
    samples.setdefault((name, key), []).append(float(value))
keys = ["code_flow", "code_flow_dpop", "authenticated_bootstrap", "challenge_401"]
print(f"server CPU per completed flow or request, median of {sys.argv[2]} alternated rounds (µs)")
print(f"{'':26} {'base':>9} {'head':>9} {'head/base':>10}   rounds (base | head)")
for key in keys:
    base, head = samples.get(("base", key), []), samples.get(("head", key), [])
    if not base or not head:
        continue
    b, h = statistics.median(base), statistics.median(head)
    print(f"{key:26} {b:9.1f} {h:9.1f} {h / b:9.2f}x   {' '.join(map(str, base))} | {' '.join(map(str, head))}")
PY
[ -z "${RESULTS:-}" ] || python3 - "$work/samples" > "$RESULTS" <<'PY'
import statistics, sys
samples = {}
for line in open(sys.argv[1]):
    name, key, value = line.split()
    samples.setdefault((name, key), []).append(float(value))
for (name, key), values in sorted(samples.items()):
    print(f"compare_{key}_{name}_cpu_us={statistics.median(values):.1f}")
PY
