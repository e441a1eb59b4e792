#!/usr/bin/env bash
# The floor of one authorization code flow on this machine: the CPU that no implementation of the flow can go below.
# It is the sum of its parts, each measured as CPU per operation in a release build:
#   2 HTTP requests     the empty Hummingbird route (RouteFloor) under wrk with flow.sh's settings (2 threads,
#                       $CONNECTIONS connections): the server's CPU (/proc, user + system) per completed request
#   2 ES256 signatures  swift-crypto's P256 as BridgeServer signs (Benchmarks/FlowFloor: process CPU per signature):
#                       the access token and an OpenID client's ID token (flow.sh asks scope=wopi, so it signs one)
#   1 SQLite write      one single-row insert committed, WAL, with the store's pragmas (synchronous NORMAL, its
#                       default; DURABILITY=full for FULL)
# Our flow's CPU per flow (flow.sh's flow_bridge_cpu_us) divided by this floor says how far above it we run;
# scripts/bench/report.py puts that multiple in BENCHMARKS.md. FLOW_CPU_US=n prints it here too.
# Usage: scripts/bench/floor.sh
#   DURATION=10 ROUNDS=3  length and number of the wrk runs on the empty route (CPU summed over all of them)
#   SKIP_BUILD=1          use the release binaries already built (while another build holds .build)
#   RESULTS=file          also write the figures as key=value lines (scripts/bench/all.sh reads them)
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v wrk >/dev/null || { echo "wrk is missing: bash scripts/install-deps.sh bench" >&2; exit 2; }
FLOOR_PORT=${FLOOR_PORT:-18193}
DURATION=${DURATION:-10}
ROUNDS=${ROUNDS:-3}
CONNECTIONS=${CONNECTIONS:-32}
SIGNATURES=${SIGNATURES:-2000}
WRITES=${WRITES:-5000}
DURABILITY=${DURABILITY:-normal}
work=$(mktemp -d /tmp/signin-bridge-floor-bench.XXXXXX)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

if [ -z "${SKIP_BUILD:-}" ]; then
  echo "== building release (FlowFloor, RouteFloor)"
  for product in FlowFloor RouteFloor; do bash scripts/release/build.sh --product "$product" 2>&1 | tail -1; done
fi
bin="$(bash scripts/release/build.sh --show-bin-path)"

echo "== ES256 signatures ($SIGNATURES per round, median of 5 rounds)"
"$bin/FlowFloor" sign "$SIGNATURES" 5 | tee "$work/parts.env"
echo "== SQLite writes ($WRITES per round, median of 5 rounds)"
"$bin/FlowFloor" sqlite "$WRITES" 5 "$work" "$DURABILITY" | tee -a "$work/parts.env"
sign_us=$(sed -n 's/^es256_sign_cpu_us=//p' "$work/parts.env")
write_us=$(sed -n 's/^sqlite_write_cpu_us=//p' "$work/parts.env")
synchronous=$(sed -n 's/^sqlite_synchronous=//p' "$work/parts.env")

echo "== empty Hummingbird route: $ROUNDS rounds of wrk, 2 threads, $CONNECTIONS connections, ${DURATION} s"
"$bin/RouteFloor" "$FLOOR_PORT" 2>"$work/route.log" &
route_pid=$!; pids+=($route_pid)
for _ in $(seq 1 200); do curl -s -o /dev/null "http://127.0.0.1:$FLOOR_PORT/floor" && break; sleep 0.05; done
# CPU time (user + system, clock ticks) of the server so far: fields 14-17 of /proc/PID/stat (as flow.sh reads it).
cpu_ticks() { awk '{ print $14 + $15 + $16 + $17 }' "/proc/$1/stat"; }
ticks=0; requests=0
for round in $(seq 1 "$ROUNDS"); do
  before=$(cpu_ticks "$route_pid")
  wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" "http://127.0.0.1:$FLOOR_PORT/floor" > "$work/wrk-$round"
  ticks=$(( ticks + $(cpu_ticks "$route_pid") - before ))
  requests=$(( requests + $(awk '/requests in/ { print $1 }' "$work/wrk-$round") ))
done
http_us=$(awk -v t="$ticks" -v k="$(getconf CLK_TCK)" -v n="$requests" 'BEGIN { printf "%.2f", t / k * 1e6 / n }')

floor_us=$(awk -v h="$http_us" -v s="$sign_us" -v w="$write_us" 'BEGIN { printf "%.1f", 2 * h + 2 * s + w }')
printf '\n%-44s %12s %6s %12s\n' "part of one code flow" "CPU µs/op" "ops" "µs per flow"
printf '%-44s %12s %6s %12.1f\n' "HTTP request, empty Hummingbird route" "$http_us" 2 "$(awk -v h="$http_us" 'BEGIN { print 2 * h }')"
printf '%-44s %12s %6s %12.1f\n' "ES256 signature (swift-crypto P256)" "$sign_us" 2 "$(awk -v s="$sign_us" 'BEGIN { print 2 * s }')"
printf '%-44s %12s %6s %12.1f\n' "SQLite insert committed (WAL, $synchronous)" "$write_us" 1 "$write_us"
printf '%-44s %12s %6s %12s\n' "floor CPU per flow" "" "" "$floor_us"
if [ -n "${FLOW_CPU_US:-}" ]; then
  awk -v f="$FLOW_CPU_US" -v b="$floor_us" 'BEGIN { printf "our flow: %.0f µs CPU per flow = %.1fx the floor\n", f, f / b }'
fi
if [ -n "${RESULTS:-}" ]; then
  {
    echo "floor_http_request_cpu_us=$http_us"; echo "floor_es256_sign_cpu_us=$sign_us"
    echo "floor_sqlite_write_cpu_us=$write_us"; echo "floor_sqlite_synchronous=$synchronous"
    echo "floor_flow_cpu_us=$floor_us"; echo "floor_connections=$CONNECTIONS"; echo "floor_http_requests=$requests"
  } > "$RESULTS"
fi
