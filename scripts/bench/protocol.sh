#!/usr/bin/env bash
# Office To/Back URL decode+encode with SignInProtocol vs Foundation's URLComponents reading the same items,
# in one process, release build. Prints ops/s for both and the ratio (goal: >= 3x).
#   BENCH_SECONDS=1.0   length of each measured round (3 rounds per side, the best of each is kept)
set -euo pipefail
cd "$(dirname "$0")/../.."
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
echo "building ProtocolBench (release)…" >&2
swift build -c release --product ProtocolBench >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
"$(swift build -c release --show-bin-path)/ProtocolBench"
