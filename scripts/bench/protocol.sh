#!/usr/bin/env bash
# Office To/Back URL decode+encode with SignInProtocol vs Foundation's URLComponents reading the same items,
# in one process, release build. Prints ops/s for both and the ratio (goal: >= 3x).
#
#   scripts/bench/protocol.sh                  wall clock: 3 interleaved rounds per side, best of each kept
#   scripts/bench/protocol.sh --instructions   instructions per operation under valgrind --tool=callgrind:
#                                              repeatable whatever else the (shared) machine is doing
#   BENCH_SECONDS=1.0                          length of each wall-clock round
#   RESULTS=file                               (with --instructions) also write key=value lines for scripts/bench/all.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
log="$(mktemp)"
work="$(mktemp -d)"
trap 'rm -rf "$log" "$work"' EXIT
echo "building ProtocolBench (release)…" >&2
bash scripts/release/build.sh --product ProtocolBench >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
bench="$(bash scripts/release/build.sh --show-bin-path)/ProtocolBench"

if [ "${1:-}" != "--instructions" ]; then
  exec "$bench"
fi

command -v valgrind >/dev/null || { echo "valgrind is missing: bash scripts/install-deps.sh bench" >&2; exit 1; }
# valgrind 3.19 cannot read the DWARF 5 that Swift emits: count a copy without debug info.
cp "$bench" "$work/bench" && strip --strip-debug "$work/bench"
count() {  # instructions of one run: $1 workload, $2 iterations
  BENCH_PROFILE="$1" BENCH_ITERATIONS="$2" valgrind --tool=callgrind --callgrind-out-file="$work/out" "$work/bench" 2>&1 \
    | awk '/ refs:/ { gsub(",", "", $NF); print $NF }'
}
per_op() { echo $(( ($(count "$1" 2000) - $(count "$1" 0)) / 2000 )); }
to=$(per_op to); back=$(per_op back); fto=$(per_op foundation-to); fback=$(per_op foundation-back)
echo "Office To/Back URL codec, instructions per operation (callgrind, 2000 operations minus start-up)"
printf '%-24s %22s %22s %8s\n' workload "SignInProtocol instr" "URLComponents instr" ratio
printf '%-24s %22s %22s %7.2fx\n' "To URL decode+encode" "$to" "$fto" "$(echo "$fto / $to" | bc -l)"
printf '%-24s %22s %22s %7.2fx\n' "Back URL decode+encode" "$back" "$fback" "$(echo "$fback / $back" | bc -l)"
if [ -n "${RESULTS:-}" ]; then
  printf 'protocol_to_instr=%s\nprotocol_to_foundation_instr=%s\nprotocol_back_instr=%s\nprotocol_back_foundation_instr=%s\n' \
    "$to" "$fto" "$back" "$fback" > "$RESULTS"
fi
