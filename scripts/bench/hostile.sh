#!/usr/bin/env bash
# Not a speed benchmark: the hostile HTTP input test (scripts/test/hostile.py, also part of `make test` on the debug
# build) run against the release build, so that BENCHMARKS.md carries its result beside the load it was built for.
# Oversized and malformed request lines and headers, invalid UTF-8 and percent-encoding, duplicate and empty
# parameters, unsupported content types, JSON for a form, CRLF in parameters, a huge `state`, forged and
# `alg: none` JWTs, WopiSrc path tricks, a client dribbling one byte a second. Goal: every check passes (a 4xx with
# an RFC error code, never a 5xx, never a redirect to an unregistered URI, nothing secret in a response or the log).
# Usage: scripts/bench/hostile.sh
#   SIGNIN_BRIDGE=path   use that binary instead of building one
#   RESULTS=file         also write the figures as key=value lines (scripts/bench/all.sh reads them)
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ -z "${SIGNIN_BRIDGE:-}" ]; then
  echo "== building release"
  bash scripts/release/build.sh --product signin-bridge 2>&1 | tail -1
fi
bin=${SIGNIN_BRIDGE:-.build/release/signin-bridge}
output=$(mktemp /tmp/signin-bridge-hostile.XXXXXX)
trap 'rm -f "$output"' EXIT
status=0
# The venv's Python: its DPoP cases sign proofs with `cryptography` (scripts/test/requirements.txt).
bash scripts/test/python-venv.sh
.build/venv-test/bin/python scripts/test/hostile.py --binary "$bin" | tee "$output" || status=$?
summary=$(grep -E '^hostile: [0-9]+ passed, [0-9]+ failed' "$output" | tail -1)
[ -n "$summary" ] || { echo "hostile.py printed no summary" >&2; exit 1; }
if [ -n "${RESULTS:-}" ]; then
  {
    echo "hostile_passed=$(awk '{print $2}' <<<"$summary")"
    echo "hostile_failed=$(awk '{print $4}' <<<"$summary")"
  } > "$RESULTS"
fi
exit "$status"
