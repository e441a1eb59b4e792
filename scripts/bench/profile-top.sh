#!/usr/bin/env bash
# Samples a running process with perf (cpu-clock, call graphs) and writes the functions taking the most CPU time
# (self time, Swift names demangled): scripts/bench/profile-top.sh PID SECONDS OUTPUT
# The benchmarks call it on a second, unmeasured run, so sampling never slows the figures they report.
set -euo pipefail
pid=$1 seconds=$2 output=$3
data=$(mktemp /tmp/signin-bridge-perf.XXXXXX)
trap 'rm -f "$data"' EXIT
perf record -q -e cpu-clock -g -p "$pid" -o "$data" -- sleep "$seconds" >/dev/null 2>&1 || {
  echo "(perf could not sample pid $pid: is linux-perf installed and perf_event_paranoid <= 1?)" > "$output"; exit 0; }
demangle() { if command -v swift >/dev/null; then swift demangle --simplified; else cat; fi; }
top() {  # sort-keys percent-limit lines
  perf report -i "$data" --stdio --no-children --sort "$1" --percent-limit "$2" -g none 2>/dev/null |
    grep -vE '^(#|$)' | head -"$3" | sed -E 's/ +/ /g; s/^ //; s/( -)+ *$//' || true  # head closes early: SIGPIPE upstream
}
{
  echo "CPU time by library (self):"
  top dso 1 12
  echo ""
  echo "Functions with the most CPU time (self, >= 0.5%):"
  top dso,symbol 0.5 30 | demangle | cut -c1-180
} > "$output"
