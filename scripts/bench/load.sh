#!/usr/bin/env bash
# Load and soak (not a test): the mixed traffic of scripts/bench/load/mixed.lua (bootstrap 401 probes, whole code
# flows, refreshes, authenticated bootstraps, introspections) against a release build on the shipped sample config
# (SQLite, request logs on, written to a file), every response checked against what its request must get.
#   load: wrk, 2 threads, $CONNECTIONS (256) connections, $DURATION (60) s. Goal: 0 unexpected responses, 0 errors.
#   soak: the same for $SOAK_WARMUP_SECONDS, then $SOAK_SECONDS (600; 0 skips the soak) more, RSS sampled every
#         $SAMPLE_SECONDS (10) s throughout; the slope is a least-squares fit over the $SOAK_SECONDS after the warm-up.
#         Goal: flat within noise, RSS <= 64 MiB. The warm-up (default: the config's purge interval plus a minute)
#         holds the one-time steps, reported on their own: caches filling, and the first purge of expired records,
#         which also grows SQLite's WAL index to the longest log it has seen (docs/memory.md). A window that ends on
#         one such step cannot tell it from a leak.
# Usage: scripts/bench/load.sh                  (installs wrk itself)
#   SIGNIN_BRIDGE=path   use that binary instead of building one
#   RESULTS=file         also write the figures as key=value lines (scripts/bench/all.sh reads them)
#   SOAK_SAMPLES=file    keep the soak's samples there
set -euo pipefail
cd "$(dirname "$0")/../.."
bash scripts/install-deps.sh bench

PORT=${PORT:-18290}
DURATION=${DURATION:-60}
CONNECTIONS=${CONNECTIONS:-256}
SOAK_SECONDS=${SOAK_SECONDS:-600}
SAMPLE_SECONDS=${SAMPLE_SECONDS:-10}
SOAK_WARMUP_SECONDS=${SOAK_WARMUP_SECONDS:-}   # default below, from the config's purge interval
source scripts/bench/lib/code-flow.bash   # VERIFIER, CHALLENGE, BASIC, AUTHORIZE, sample_config, signed_in_cookie
work=$(mktemp -d /tmp/signin-bridge-load.XXXXXX)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

if [ -z "${SIGNIN_BRIDGE:-}" ]; then
  echo "== building release"
  bash scripts/release/build.sh --product signin-bridge 2>&1 | tail -1
fi
bin=${SIGNIN_BRIDGE:-.build/release/signin-bridge}
# How current scripts/release/signin-bridge.order is (docs/memory.md): listed functions the binary still defines.
order=scripts/release/signin-bridge.order
echo "== hot-function order: $(nm --defined-only "$bin" | awk '{print $3}' | sort -u | comm -12 - <(sort -u "$order") | wc -l) of $(wc -l < "$order") listed functions are in the binary"

sample_config "$work" "$PORT"
purge_interval=$(awk '$1 == "purgeIntervalSeconds:" {print $2}' "$work/bridge.yaml")
[ -n "$SOAK_WARMUP_SECONDS" ] || SOAK_WARMUP_SECONDS=$(( ${purge_interval:-0} + 60 ))
"$bin" serve --config "$work/bridge.yaml" --port "$PORT" >"$work/bridge.log" 2>&1 &
server=$!; pids+=($server)
for _ in $(seq 1 200); do curl -s -o /dev/null "http://127.0.0.1:$PORT/auth/health" && break; sleep 0.05; done
cookie=$(signed_in_cookie "$PORT")
token=$("$bin" token issue --config "$work/bridge.yaml" --user demo --client office)

rss_kib() { awk '/VmRSS/ {print $2}' "/proc/$server/status"; }
mixed() {  # seconds output
  wrk -t2 -c"$CONNECTIONS" -d"$1s" --timeout 10s --latency -s scripts/bench/load/mixed.lua "http://127.0.0.1:$PORT" \
    -- "$cookie" "$BASIC" "$AUTHORIZE" "$VERIFIER" "$token" > "$2"
}
field() { awk -v k="$1" '$1 == k {print $2}' "$2"; }
report() {  # label wrk-output
  local out=$2
  printf '%s: %s requests/s, p50 %s, p99 %s\n' "$1" "$(awk '/^Requests\/sec/ {printf "%.0f", $2}' "$out")" \
    "$(awk '$1 == "50%" {print $2}' "$out")" "$(awk '$1 == "99%" {print $2}' "$out")"
  printf '  probes %s, authorizes %s, token responses %s, bootstraps %s, introspections %s\n' \
    "$(field mixed_probes "$out")" "$(field mixed_authorizes "$out")" "$(field mixed_tokens "$out")" \
    "$(field mixed_bootstraps "$out")" "$(field mixed_introspections "$out")"
  printf '  unexpected responses %s, socket errors %s (%s)\n' "$(field mixed_unexpected "$out")" \
    "$(field mixed_socket_errors "$out")" "$(awk '$1 == "mixed_socket_error_kinds" {$1 = ""; print substr($0, 2)}' "$out")"
  grep '^mixed_example_unexpected' "$out" || true
}

echo "== load: mixed flows, $CONNECTIONS connections, ${DURATION} s"
( while kill -0 "$server" 2>/dev/null; do rss_kib; sleep 1; done ) > "$work/rss-load" &
sampler=$!
mixed "$DURATION" "$work/wrk-load"
kill "$sampler"; wait "$sampler" 2>/dev/null || true
report "load" "$work/wrk-load"
load_rss=$(sort -n "$work/rss-load" | tail -1)
awk -v kb="$load_rss" 'BEGIN { printf "  RSS max %.1f MiB (goal <= 64 MiB)\n", kb / 1024 }'
errors=$(( $(field mixed_unexpected "$work/wrk-load") + $(field mixed_socket_errors "$work/wrk-load") ))

soak_line=""
if [ "$SOAK_SECONDS" -gt 0 ]; then
  echo "== soak: mixed flows, $CONNECTIONS connections, ${SOAK_WARMUP_SECONDS} s of warm-up (purge interval: ${purge_interval:-none} s) then ${SOAK_SECONDS} s measured, RSS every ${SAMPLE_SECONDS} s"
  # Each sample: seconds, RSS, and its anonymous (heap) and file-backed (binary and shared libraries) parts, in KiB;
  # then from /metrics: SQLite's own memory in KiB, the log writer's queue now and its peak, in records; then the
  # sizes of SQLite's write-ahead log and of its mapped index (-shm, part of the file-backed RSS), in KiB.
  ( elapsed=0; while kill -0 "$server" 2>/dev/null; do
      echo "$elapsed $(rss_kib) $(awk '/RssAnon/ {a = $2} /RssFile/ {f = $2} END {print a, f}' "/proc/$server/status")" \
        "$(curl -s "http://127.0.0.1:$PORT/metrics" | awk '$1 == "signin_bridge_store_engine_memory_bytes" {e = $2 / 1024}
            $1 == "signin_bridge_log_queue_records" {q = $2} $1 == "signin_bridge_log_queue_peak_records" {p = $2}
            END {printf "%d %d %d", e, q, p}')" \
        "$(( $(stat -c %s "$work/bridge.sqlite-wal" 2>/dev/null || echo 0) / 1024 ))" \
        "$(( $(stat -c %s "$work/bridge.sqlite-shm" 2>/dev/null || echo 0) / 1024 ))"
      sleep "$SAMPLE_SECONDS"; elapsed=$((elapsed + SAMPLE_SECONDS)); done ) > "$work/rss-soak" &
  sampler=$!
  mixed "$(( SOAK_WARMUP_SECONDS + SOAK_SECONDS ))" "$work/wrk-soak"
  kill "$sampler"; wait "$sampler" 2>/dev/null || true
  report "soak" "$work/wrk-soak"
  errors=$(( errors + $(field mixed_unexpected "$work/wrk-soak") + $(field mixed_socket_errors "$work/wrk-soak") ))
  soak_line=$(python3 - "$work/rss-soak" "$SOAK_SECONDS" "$SOAK_WARMUP_SECONDS" <<'PY'
import sys
warmup = int(sys.argv[3])
everything = [tuple(map(int, line.split())) for line in open(sys.argv[1]) if len(line.split()) == 9]
everything = [row for row in everything if row[0] <= warmup + int(sys.argv[2])]
# The measured window: what comes after the warm-up. The warm-up's own growth is reported beside it.
rows = [row for row in everything if row[0] >= warmup] or everything
before = [row for row in everything if row[0] < warmup] or rows[:1]
samples = [(t, kib) for t, kib, *_ in rows]
steady = [(t, kib / 1024) for t, kib in samples]
n = len(steady)
mean_t = sum(t for t, _ in steady) / n
mean_m = sum(m for _, m in steady) / n
var = sum((t - mean_t) ** 2 for t, _ in steady)
slope = sum((t - mean_t) * (m - mean_m) for t, m in steady) / var * 600 if var else 0.0   # MiB per 10 minutes
# The slope's 95% interval from the fit's residuals (standard error of a least-squares slope, t ~ 2): "flat within
# noise" means the interval holds 0. Consecutive samples are correlated, so it is a lower bound on the real noise.
resid = [m - mean_m - slope / 600 * (t - mean_t) for t, m in steady]
spread = 2 * (sum(r * r for r in resid) / (n - 2) / var) ** 0.5 * 600 if var and n > 2 else 0.0
mib = [kib / 1024 for _, kib in samples]
anon = [row[2] / 1024 for row in rows]
files = [row[3] / 1024 for row in rows]
engine = [row[4] / 1024 for row in rows]
print(f"{len(samples)} {mib[0]:.1f} {max(mib):.1f} {mib[-1]:.1f} {slope:.2f} {spread:.2f} {anon[0]:.1f} {anon[-1]:.1f} {files[-1]:.1f}"
      f" {engine[0]:.1f} {max(engine):.1f} {engine[-1]:.1f} {max(row[6] for row in rows)}"
      f" {max(row[7] for row in rows) / 1024:.1f} {rows[0][8]} {max(row[8] for row in rows)}"
      f" {before[0][1] / 1024:.1f} {before[0][2] / 1024:.1f} {before[0][8]} {max(row[7] for row in before) / 1024:.1f}")
PY
)
  read -r samples first max last slope slope_spread anon_first anon_last file_last engine_first engine_max engine_last log_peak wal_max shm_first shm_max \
    warm_rss warm_anon warm_shm warm_wal_max <<<"$soak_line"
  echo "  warm-up: RSS $warm_rss MiB at its start (anonymous $warm_anon MiB), $first MiB at its end (anonymous $anon_first MiB);" \
    "WAL index $warm_shm KiB -> $shm_first KiB, log at most $warm_wal_max MiB"
  echo "  measured: $samples samples, first $first MiB, max $max MiB, last $last MiB; slope $slope ± $slope_spread MiB per 10 min"
  echo "  of which anonymous (heap) $anon_first MiB first, $anon_last MiB last; file-backed (binary, shared libraries, WAL index) $file_last MiB"
  echo "  SQLite's own memory $engine_first MiB first, $engine_max MiB max, $engine_last MiB last; log queue peak $log_peak records"
  echo "  SQLite's write-ahead log at most $wal_max MiB; its index $shm_first KiB first, $shm_max KiB at most"
  echo "  samples (seconds, RSS, anonymous, file KiB, SQLite KiB, log queue, log queue peak, WAL KiB, index KiB):" \
    "${SOAK_SAMPLES:-not kept}"
  [ -z "${SOAK_SAMPLES:-}" ] || cp "$work/rss-soak" "$SOAK_SAMPLES"
fi
echo "log lines written: $(grep -c 'msg=request' "$work/bridge.log" || true)," \
  "dropped while the writer was behind: $(awk '/msg="log lines dropped"/ { for (i = 1; i <= NF; i++) if ($i ~ /^count=/) n += substr($i, 7) } END { print n + 0 }' "$work/bridge.log")"

if [ -n "${RESULTS:-}" ]; then
  {
    echo "load_rps=$(awk '/^Requests\/sec/ {printf "%.0f", $2}' "$work/wrk-load")"
    echo "load_p99=$(awk '$1 == "99%" {print $2}' "$work/wrk-load")"
    for k in probes authorizes tokens bootstraps introspections unexpected socket_errors; do
      echo "load_$k=$(field "mixed_$k" "$work/wrk-load")"
    done
    echo "load_errors=$(( $(field mixed_unexpected "$work/wrk-load") + $(field mixed_socket_errors "$work/wrk-load") ))"
    awk -v kb="$load_rss" 'BEGIN { printf "load_rss_mib=%.1f\n", kb / 1024 }'
    if [ -n "$soak_line" ]; then
      echo "soak_seconds=$SOAK_SECONDS"; echo "soak_warmup_seconds=$SOAK_WARMUP_SECONDS"; echo "soak_purge_interval=$purge_interval"
      echo "soak_warmup_rss_first=$warm_rss"; echo "soak_warmup_anon_first=$warm_anon"
      echo "soak_warmup_wal_index_first_kib=$warm_shm"; echo "soak_warmup_wal_max_mib=$warm_wal_max"
      echo "soak_rps=$(awk '/^Requests\/sec/ {printf "%.0f", $2}' "$work/wrk-soak")"
      echo "soak_unexpected=$(( $(field mixed_unexpected "$work/wrk-soak") + $(field mixed_socket_errors "$work/wrk-soak") ))"
      echo "soak_rss_first=$first"; echo "soak_rss_max=$max"; echo "soak_rss_last=$last"; echo "soak_slope=$slope"; echo "soak_slope_spread=$slope_spread"
      echo "soak_anon_first=$anon_first"; echo "soak_anon_last=$anon_last"; echo "soak_file_last=$file_last"
      echo "soak_engine_first=$engine_first"; echo "soak_engine_max=$engine_max"; echo "soak_engine_last=$engine_last"
      echo "soak_log_queue_peak=$log_peak"
      echo "soak_wal_max_mib=$wal_max"; echo "soak_wal_index_first_kib=$shm_first"; echo "soak_wal_index_max_kib=$shm_max"
    fi
  } > "$RESULTS"
fi
[ "$errors" -eq 0 ] || { echo "unexpected responses or errors under load: $errors" >&2; tail -5 "$work/bridge.log" >&2; exit 1; }
