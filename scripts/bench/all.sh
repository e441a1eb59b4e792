#!/usr/bin/env bash
# One benchmark report anyone can re-run: builds release, runs every benchmark in scripts/bench/ (each beside its
# baseline, measured in the same run), the fuzz targets, load and soak, and writes BENCHMARKS.md with the machine it
# ran on. Rows whose goal is missed carry the profile taken on a second, unmeasured run (perf or callgrind).
# Usage: scripts/bench/all.sh              (installs nginx, wrk, xmllint, valgrind, perf and a Python venv itself)
#   OUTPUT=file          write the report there instead of BENCHMARKS.md
#   FUZZ_SECONDS=30      seconds per fuzz target (0 skips fuzzing); FUZZ_RUNS caps executions per target
#   FUZZ_REPORT=file     report an earlier `scripts/fuzz.sh all …` output (a long run) instead of fuzzing now
#   SOAK_SECONDS=600     length of the soak's measured window, after its warm-up (SOAK_WARMUP_SECONDS: the
#                        purge interval plus a minute; scripts/bench/load.sh)
#   ONLY="lint fuzz"     re-run only these (names of scripts/bench/*.sh, or fuzz) and rewrite the report with the
#                        others' earlier results, kept in .build/bench-results/ (each row says when it ran)
# A benchmark added later is picked up when it is a scripts/bench/*.sh that honours RESULTS=file (key=value lines);
# scripts/bench/report.py lists keys it has no row for under "Other figures".
set -euo pipefail
cd "$(dirname "$0")/../.."
bash scripts/install-deps.sh bench
output=${OUTPUT:-BENCHMARKS.md}
work=.build/bench-results
[ -n "${ONLY:-}" ] || rm -rf "$work"
mkdir -p "$work/results" "$work/profiles" "$work/logs"
selected() { [ -z "${ONLY:-}" ] || [[ " $ONLY " == *" $1 "* ]]; }

machine() {  # $1: before|after
  {
    echo "${1}_load=$(cut -d' ' -f1-3 /proc/loadavg)"
    echo "${1}_time=$(date -u '+%Y-%m-%d %H:%M UTC')"
  } >> "$work/machine.env"
}
[ -z "${ONLY:-}" ] || { echo "partial=${ONLY} re-run at $(date -u '+%Y-%m-%d %H:%M UTC') (commit $(git rev-parse --short HEAD))" >> "$work/machine.env"; }
[ -n "${ONLY:-}" ] || {
  echo "cpu=$(lscpu | sed -n 's/^Model name: *//p' | head -1)"
  echo "cores=$(nproc)"
  echo "memory=$(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo)"
  echo "kernel=$(uname -sr)"
  echo "swift=$(swift --version 2>&1 | head -1)"
  echo "commit=$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- Sources Package.swift scripts || echo ' (with local changes)')"
  echo "nginx=$(nginx -v 2>&1 | sed 's/.*nginx\///')"
  echo "wrk=$(wrk -v 2>&1 | head -1 | awk '{print $2}')"
  echo "xmllint=$(xmllint --version 2>&1 | head -1 | awk '{print $NF}')"
} > "$work/machine.env"
[ -n "${ONLY:-}" ] || machine before

echo "== release build"
bash scripts/release/build.sh 2>&1 | tail -1

run() {  # name command…: runs one benchmark, keeping its output; a failure is reported, not fatal
  local name=$1; shift
  echo "== $name: $*"
  local started=$SECONDS load_before; load_before=$(cut -d' ' -f1 /proc/loadavg)
  if RESULTS="$work/results/$name.env" PROFILE_DIR="$work/profiles" SIGNIN_BRIDGE=.build/release/signin-bridge \
      "$@" > "$work/logs/$name.txt" 2>&1; then
    echo "status=ok" >> "$work/results/$name.env"
  else
    echo "status=failed (exit $?)" >> "$work/results/$name.env"
    tail -5 "$work/logs/$name.txt" >&2
  fi
  echo "seconds=$(( SECONDS - started ))" >> "$work/results/$name.env"
  echo "command=$*" >> "$work/results/$name.env"
  echo "ran_at=$(date -u '+%Y-%m-%d %H:%M UTC'), load average before ${load_before}" >> "$work/results/$name.env"
}

for script in scripts/bench/*.sh; do
  name=$(basename "$script" .sh)
  selected "$name" || continue
  case $name in
    # compare.sh needs two builds (BASE=…): run by hand when a change must show it costs nothing.
    all|profile-top|compare) continue ;;
    protocol) run "$name" bash "$script" --instructions ;;
    # The flow on SQLite, on PostgreSQL (one instance and two) and with DPoP, all in one sitting.
    flow) run "$name" env POSTGRES=1 DPOP=1 bash "$script" ;;
    *) run "$name" bash "$script" ;;
  esac
done

if ! selected fuzz; then
  :
elif [ -n "${FUZZ_REPORT:-}" ]; then
  cp "$FUZZ_REPORT" "$work/logs/fuzz.txt"
  echo "command=${FUZZ_COMMAND:-scripts/fuzz.sh all (earlier run: $FUZZ_REPORT)}" > "$work/results/fuzz.env"
  echo "ran_at=${FUZZ_RAN_AT:-$(date -u -r "$FUZZ_REPORT" '+%Y-%m-%d %H:%M UTC') (finished)}" >> "$work/results/fuzz.env"
elif [ "${FUZZ_SECONDS:-30}" -gt 0 ]; then
  echo "== fuzz: ${FUZZ_SECONDS:-30} s per target"
  fuzz_options=()
  [ -z "${FUZZ_RUNS:-}" ] || fuzz_options+=("-runs=$FUZZ_RUNS")
  bash scripts/fuzz.sh all "${FUZZ_SECONDS:-30}" "${fuzz_options[@]}" > "$work/logs/fuzz.txt" 2>/dev/null || true
  echo "command=scripts/fuzz.sh all ${FUZZ_SECONDS:-30} ${fuzz_options[*]}" > "$work/results/fuzz.env"
  echo "ran_at=$(date -u '+%Y-%m-%d %H:%M UTC')" >> "$work/results/fuzz.env"
fi
[ -n "${ONLY:-}" ] || machine after

python3 scripts/bench/report.py "$work" > "$output"
echo "wrote $output"
