#!/usr/bin/env bash
# Benchmark of the unauthenticated /wopibootstrapper 401 (the request Office, and every scanner, sends most):
# SignInBridge (release build) against nginx answering the same 401 with the same headers, same run, same machine.
#   wrk: 2 threads, 64 connections, 10 s, loopback, twice: request logs off on both sides, then on on both sides
#   (ours: one logfmt line per request to a file; nginx: its default access log to a file).
#   Goals: logs off >= 0.8x nginx requests/s, logs on >= 0.5x nginx with its log on, cold start to first answer
#   <= 150 ms, RSS under load <= 64 MiB.
#   Then the authenticated bootstrap (200) with one of our tokens against one signed by a host identity provider
#   (identityProvider:, a local JWKS served by Python's http.server, the token signed with the venv's cryptography):
#   server CPU per request, same run. Goal: the external JWT within 10% of our own token.
# Usage: scripts/bench/bootstrap.sh        (needs nginx and wrk: scripts/install-deps.sh bench; the test venv)
#   SIGNIN_BRIDGE=path  measure that binary instead of building .build/release/signin-bridge
#   PROFILE_DIR=dir  after the measured runs, one more (logs on) with perf attached: top functions in dir/bootstrap-401.txt
#   RESULTS=file   also write the figures as key=value lines (scripts/bench/all.sh reads them)
set -euo pipefail
cd "$(dirname "$0")/../.."
bash scripts/install-deps.sh bench

BRIDGE_PORT=${BRIDGE_PORT:-18080}
NGINX_PORT=${NGINX_PORT:-18081}
DURATION=${DURATION:-10s}
work=$(mktemp -d /tmp/signin-bridge-bench.XXXXXX)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

if [ -z "${SIGNIN_BRIDGE:-}" ]; then
  echo "== building release"
  bash scripts/release/build.sh --product signin-bridge 2>&1 | tail -1
fi
bin=${SIGNIN_BRIDGE:-.build/release/signin-bridge}

# The sample configuration with its files in the work folder; bridge-quiet.yaml without per-request log lines.
sed -e "s|path: data/bridge.sqlite|path: $work/bridge.sqlite|" \
    -e "s|file: data/signing-keys.json|file: $work/keys.json|" samples/bridge.yaml > "$work/bridge.yaml"
sed -e "s|  requests: true |  requests: false|" \
    -e "s|  level: info|  level: warning|" "$work/bridge.yaml" > "$work/bridge-quiet.yaml"

# Cold start: from exec to the first answered request, polled every millisecond. The baseline is Hummingbird's own
# start-up: the empty route (Benchmarks/RouteFloor) to its first answer.
cold_start() {  # expected-status-line path command…
  python3 - "$BRIDGE_PORT" "$@" <<'PY'
import socket, subprocess, sys, time
port, expected, path, argv = int(sys.argv[1]), sys.argv[2].encode(), sys.argv[3], sys.argv[4:]
start = time.monotonic()
proc = subprocess.Popen(argv, stderr=subprocess.DEVNULL)
request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode()
while True:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as s:
            s.sendall(request)
            if s.recv(64).startswith(expected):
                break
    except OSError:
        time.sleep(0.001)
    if time.monotonic() - start > 10:
        sys.exit("server did not answer within 10 s")
print(f"{(time.monotonic() - start) * 1000:.0f}")
proc.terminate(); proc.wait()
PY
}
echo "== cold start"
serve=("$bin" serve --config "$work/bridge-quiet.yaml" --port "$BRIDGE_PORT")
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# Five of each, the median reported: one start is a single sample of a shared machine.
first_start=$(for _ in 1 2 3 4 5; do
  rm -f "$work"/bridge.sqlite* "$work"/keys.json   # each first start creates the database and the signing key
  cold_start "HTTP/1.1 401" /wopibootstrapper "${serve[@]}"
done | median)
restart=$(for _ in 1 2 3 4 5; do cold_start "HTTP/1.1 401" /wopibootstrapper "${serve[@]}"; done | median)   # existing files
[ -x .build/release/RouteFloor ] || bash scripts/release/build.sh --product RouteFloor 2>&1 | tail -1
floor_start=$(for _ in 1 2 3 4 5; do cold_start "HTTP/1.1 200" /floor .build/release/RouteFloor "$BRIDGE_PORT"; done | median)

start_bridge() {  # $1: configuration file
  "$bin" serve --config "$1" --port "$BRIDGE_PORT" 2>>"$work/bridge.log" &
  bridge_pid=$!; pids+=($bridge_pid)
  for _ in $(seq 1 200); do curl -s -o /dev/null "http://127.0.0.1:$BRIDGE_PORT/auth/health" && break; sleep 0.05; done
}
stop() { kill "$1" 2>/dev/null || true; wait "$1" 2>/dev/null || true; }
start_bridge "$work/bridge-quiet.yaml"

# nginx gets the exact header lines our server sends, so both answers are the same size.
headers=$(curl -s -D - -o /dev/null "http://127.0.0.1:$BRIDGE_PORT/wopibootstrapper" | tr -d '\r' |
  grep -iE '^(www-authenticate|cache-control|x-content-type-options|content-security-policy|referrer-policy|x-frame-options):' |
  awk '{ i = index($0, ": "); name = substr($0, 1, i - 1); value = substr($0, i + 2)
         q = index(value, "\047") ? "\"" : "\047"   # the CSP has single quotes, the challenge double ones
         print "add_header " name " " q value q " always;" }')
mkdir -p "$work/nginx/logs"
start_nginx() {  # $1: the access_log directive
  cat > "$work/nginx/nginx.conf" <<NGINX
worker_processes 2;
pid $work/nginx/nginx.pid;
error_log $work/nginx/logs/error.log warn;
events { worker_connections 4096; }
http {
  $1
  server_tokens off;
  server {
    listen 127.0.0.1:$NGINX_PORT;
    location = /wopibootstrapper {
      $headers
      return 401 " ";
    }
  }
}
NGINX
  nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" -g 'daemon off;' &
  nginx_pid=$!; pids+=($nginx_pid)
  for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$NGINX_PORT/wopibootstrapper" && break; sleep 0.05; done
}

run_wrk() { wrk -t2 -c64 -d"$DURATION" --latency "$1" > "$2"; }
# CPU time (user + system, clock ticks) of some processes: robust when other work shares the machine.
cpu_ticks() { local t=0 p; for p in "$@"; do t=$((t + $(awk '{print $14 + $15}' "/proc/$p/stat"))); done; echo "$t"; }
requests() { awk '/requests in/ {print $1}' "$1"; }
rps() { awk '/^Requests\/sec/ {print $2}' "$1"; }
p99() { awk '$1 == "99%" {print $2}' "$1"; }
hz=$(getconf CLK_TCK)
per_request() { awk -v t="$1" -v r="$2" -v hz="$hz" 'BEGIN { printf "%.1f", t * 1e6 / hz / r }'; }

# One pair of runs against the servers started: $1 a label, $2 the goal ratio. Prints a table and the ratio.
compare() {
  echo "== wrk SignInBridge ($1)"
  ( while kill -0 "$bridge_pid" 2>/dev/null; do awk '/VmRSS/ {print $2}' "/proc/$bridge_pid/status"; sleep 0.2; done ) >> "$work/rss" &
  local sampler=$!
  local bridge_cpu0; bridge_cpu0=$(cpu_ticks "$bridge_pid")
  run_wrk "http://127.0.0.1:$BRIDGE_PORT/wopibootstrapper" "$work/wrk-bridge"
  local bridge_cpu=$(( $(cpu_ticks "$bridge_pid") - bridge_cpu0 ))
  kill "$sampler" 2>/dev/null || true; wait "$sampler" 2>/dev/null || true
  echo "== wrk nginx ($1)"
  local nginx_pids; nginx_pids="$(cat "$work/nginx/nginx.pid") $(pgrep -P "$(cat "$work/nginx/nginx.pid")" | tr '\n' ' ')"
  local nginx_cpu0; nginx_cpu0=$(cpu_ticks $nginx_pids)
  run_wrk "http://127.0.0.1:$NGINX_PORT/wopibootstrapper" "$work/wrk-nginx"
  local nginx_cpu=$(( $(cpu_ticks $nginx_pids) - nginx_cpu0 ))
  local bridge_rps nginx_rps; bridge_rps=$(rps "$work/wrk-bridge"); nginx_rps=$(rps "$work/wrk-nginx")
  results+=("$(printf '%-34s %14s %10s %18s' "SignInBridge, $1" "$bridge_rps" "$(p99 "$work/wrk-bridge")" \
    "$(per_request "$bridge_cpu" "$(requests "$work/wrk-bridge")")")")
  results+=("$(printf '%-34s %14s %10s %18s' "nginx (2 workers), $1" "$nginx_rps" "$(p99 "$work/wrk-nginx")" \
    "$(per_request "$nginx_cpu" "$(requests "$work/wrk-nginx")")")")
  local key; key=$(printf '%s' "$1" | tr ' ' '_')
  printf 'bootstrap_%s_bridge_rps=%s\nbootstrap_%s_nginx_rps=%s\nbootstrap_%s_bridge_p99=%s\nbootstrap_%s_nginx_p99=%s\n' \
    "$key" "$bridge_rps" "$key" "$nginx_rps" "$key" "$(p99 "$work/wrk-bridge")" "$key" "$(p99 "$work/wrk-nginx")" >> "$work/results"
  printf 'bootstrap_%s_bridge_cpu_us=%s\nbootstrap_%s_nginx_cpu_us=%s\n' \
    "$key" "$(per_request "$bridge_cpu" "$(requests "$work/wrk-bridge")")" \
    "$key" "$(per_request "$nginx_cpu" "$(requests "$work/wrk-nginx")")" >> "$work/results"
  ratios+=("$(awk -v a="$bridge_rps" -v b="$nginx_rps" -v l="$1" -v g="$2" \
    'BEGIN { printf "ratio SignInBridge / nginx, %s: %.2fx (goal >= %s)", l, a / b, g }')")
  grep -E "Non-2xx|Socket errors" "$work/wrk-bridge" "$work/wrk-nginx" || true
}

results=(); ratios=()
start_nginx "access_log off;"
compare "logs off" "0.80x"
stop "$bridge_pid"; stop "$nginx_pid"
start_bridge "$work/bridge.yaml"
start_nginx "access_log $work/nginx/logs/access.log;"
compare "logs on" "0.50x"
if [ -n "${PROFILE_DIR:-}" ]; then   # a second, unmeasured run with perf attached
  bash scripts/bench/profile-top.sh "$bridge_pid" 10 "$PROFILE_DIR/bootstrap-401.txt" &
  wrk -t2 -c64 -d10s "http://127.0.0.1:$BRIDGE_PORT/wopibootstrapper" > /dev/null
  wait $!
fi
bridge_lines=$(grep -c 'msg=request' "$work/bridge.log" || true)
nginx_lines=$(wc -l < "$work/nginx/logs/access.log")
stop "$bridge_pid"; stop "$nginx_pid"

# The authenticated bootstrap: our own token, then a host provider's JWT (docs/identity-providers.md), same run.
echo "== authenticated bootstrap: own token, external JWT"
IDP_PORT=${IDP_PORT:-18082}
bash scripts/test/python-venv.sh
.build/venv-test/bin/python scripts/bench/lib/local_idp.py "$IDP_PORT" "$work/idp-token" &
idp_pid=$!; pids+=($idp_pid)
for _ in $(seq 1 200); do [ -s "$work/idp-token" ] && curl -s -o /dev/null "http://127.0.0.1:$IDP_PORT/jwks" && break; sleep 0.05; done
cp "$work/bridge-quiet.yaml" "$work/bridge-external.yaml"
cat >> "$work/bridge-external.yaml" <<YAML

identityProvider:
  issuer: http://127.0.0.1:$IDP_PORT
  audience: signin-bridge
  requiredScope: wopi
  allowInsecureHTTP: true
YAML
# The same port as `serve --port`, so the token names the issuer the server derives from it.
own_token=$(SIGNIN_BRIDGE_PORT=$BRIDGE_PORT "$bin" token issue --config "$work/bridge-quiet.yaml" --user demo --client office 2>/dev/null)
authenticated() {  # $1 label, $2 token: prints server CPU µs per request
  local status cpu0
  status=$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $2" "http://127.0.0.1:$BRIDGE_PORT/wopibootstrapper")
  [ "$status" = 200 ] || { echo "the $1 bootstrap answered $status, not 200" >&2; exit 1; }
  cpu0=$(cpu_ticks "$bridge_pid")
  wrk -t2 -c64 -d"$DURATION" --latency -H "Authorization: Bearer $2" "http://127.0.0.1:$BRIDGE_PORT/wopibootstrapper" > "$work/wrk-$1"
  grep -E "Non-2xx|Socket errors" "$work/wrk-$1" >&2 || true
  per_request "$(( $(cpu_ticks "$bridge_pid") - cpu0 ))" "$(requests "$work/wrk-$1")"
}
start_bridge "$work/bridge-quiet.yaml"
own_cpu=$(authenticated own "$own_token")
stop "$bridge_pid"
start_bridge "$work/bridge-external.yaml"
external_cpu=$(authenticated external "$(cat "$work/idp-token")")
stop "$bridge_pid"
printf 'bootstrap_own_token_cpu_us=%s\nbootstrap_external_jwt_cpu_us=%s\nbootstrap_own_token_rps=%s\nbootstrap_external_jwt_rps=%s\n' \
  "$own_cpu" "$external_cpu" "$(rps "$work/wrk-own")" "$(rps "$work/wrk-external")" >> "$work/results"

max_rss=$(sort -n "$work/rss" | tail -1)
printf '\n%-34s %14s %10s %18s\n' "unauthenticated 401" "requests/s" "p99" "server CPU µs/req"
printf '%s\n' "${results[@]}"
printf '%s\n' "${ratios[@]}"
echo "log lines written: SignInBridge $bridge_lines, nginx $nginx_lines (logs-on run)"
echo "(CPU per request is the figure to trust when other work shares the machine; wrk runs on the same cores.)"
echo "cold start to first answer (median of 5): ${first_start} ms first start (creates keys and database), ${restart} ms restart (goal <= 150 ms); empty Hummingbird route ${floor_start} ms"
awk -v kb="$max_rss" 'BEGIN { printf "RSS under load (max): %.1f MiB (goal <= 64 MiB)\n", kb / 1024 }'
printf '\n%-34s %14s %18s\n' "authenticated bootstrap (200)" "requests/s" "server CPU µs/req"
printf '%-34s %14s %18s\n' "SignInBridge, own token" "$(rps "$work/wrk-own")" "$own_cpu"
printf '%-34s %14s %18s\n' "SignInBridge, external JWT" "$(rps "$work/wrk-external")" "$external_cpu"
awk -v a="$external_cpu" -v b="$own_cpu" 'BEGIN { printf "ratio external JWT / own token, server CPU: %.2fx (goal <= 1.10x)\n", a / b }'
if [ -n "${RESULTS:-}" ]; then
  cp "$work/results" "$RESULTS"
  printf 'cold_start_first_ms=%s\ncold_start_restart_ms=%s\ncold_start_floor_ms=%s\n' "$first_start" "$restart" "$floor_start" >> "$RESULTS"
  awk -v kb="$max_rss" 'BEGIN { printf "bootstrap_rss_mib=%.1f\n", kb / 1024 }' >> "$RESULTS"
fi
