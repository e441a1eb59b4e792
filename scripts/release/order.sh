#!/usr/bin/env bash
# Regenerates scripts/release/signin-bridge.order, the order in which the linker lays out signin-bridge's functions
# (docs/memory.md): the functions the server runs from start-up through the mixed traffic of
# scripts/bench/load/mixed.lua, most executed first. Exact matters: a function run once, left among cold code, keeps
# its page and the 64 KiB the kernel maps around each fault resident. Two sources, each serving a first start and a
# restart with traffic:
#   1. counts: an instrumented build (`-profile-generate` for Swift, `-fprofile-generate` for C) writes how often
#      each source function ran. It names functions as written, not the generic specializations and thunks the
#      optimiser makes of them;
#   2. faults: $ROUNDS rounds of the release build under `perf record -e page-faults`; each fault in the binary's code
#      names the function it entered, which is appended if not listed, and the binary relinked for the next round.
# Functions the file does not list are laid out after it and work as before. Re-run after large changes to the
# request paths (scripts/bench/load.sh says how many listed functions the binary still has).
# Usage: scripts/release/order.sh   (the first run builds the instrumented server in .build-order: ~15 minutes;
#        then about a minute per round)
#   ORDER_SCRATCH=dir     the instrumented build's scratch path (.build-order)
#   RELEASE_SCRATCH=dir   the release build's (.build)
#   COUNTS=keep           keep the listed functions and only add fault rounds (ROUNDS) to them
set -euo pipefail
cd "$(dirname "$0")/../.."
bash scripts/install-deps.sh bench
PORT=${PORT:-18297}
LOAD_SECONDS=${LOAD_SECONDS:-10}
ROUNDS=${ROUNDS:-12}
source scripts/bench/lib/code-flow.bash   # VERIFIER, BASIC, AUTHORIZE, sample_config, signed_in_cookie
order=scripts/release/signin-bridge.order
work=$(mktemp -d /tmp/signin-bridge-order.XXXXXX)
server=
cleanup() { [ -z "$server" ] || kill "$server" 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT
toolchain=$(dirname "$(dirname "$(realpath "$(command -v "${SWIFT:-swift}")")")")
sample_config "$work" "$PORT"
# The purge of expired records runs every 10 minutes in the sample; every second here, so that its code is listed
# too (a soak otherwise faults it in at its first purge).
sed -i 's/purgeIntervalSeconds: 600/purgeIntervalSeconds: 1/' "$work/bridge.yaml"
grep -q 'purgeIntervalSeconds: 1 ' "$work/bridge.yaml" || { echo "order.sh: the sample's purge interval moved" >&2; exit 1; }

serve() {  # binary seconds-of-traffic [command prefix…]: one start from an empty data folder, or a restart
  local bin=$1 seconds=$2; shift 2
  "$@" "$bin" serve --config "$work/bridge.yaml" --port "$PORT" >"$work/bridge.log" 2>&1 &
  server=$!
  for _ in $(seq 1 200); do curl -s -o /dev/null "http://127.0.0.1:$PORT/auth/health" && break; sleep 0.05; done
  local cookie token
  cookie=$(signed_in_cookie "$PORT")
  token=$(LLVM_PROFILE_FILE=/dev/null "$bin" token issue --config "$work/bridge.yaml" --user demo --client office 2>/dev/null)
  for path in /auth/health /metrics /.well-known/openid-configuration /.well-known/jwks.json /wopibootstrapper; do
    curl -s -o /dev/null "http://127.0.0.1:$PORT$path"
  done
  wrk -t2 -c64 -d"${seconds}s" -s scripts/bench/load/mixed.lua "http://127.0.0.1:$PORT" \
    -- "$cookie" "$BASIC" "$AUTHORIZE" "$VERIFIER" "$token" | grep -E '^mixed_unexpected'
  # Ctrl-C's graceful shutdown: an instrumented server writes its counts when it exits.
  kill -INT "$server"; wait "$server" || true; server=
}
fresh() { rm -f "$work"/bridge.sqlite* "$work"/signing-keys.json; }

if [ "${COUNTS:-fresh}" = fresh ]; then
  echo "== counts: instrumented build"
  scratch=${ORDER_SCRATCH:-.build-order}
  # SwiftPM links with the Swift driver, which adds no profile runtime for the C modules' counters: named here.
  runtime=$(ls "$toolchain"/lib/clang/*/lib/linux/libclang_rt.profile-x86_64.a | head -1)
  bash scripts/release/build.sh --product signin-bridge --scratch-path "$scratch" \
    -Xswiftc -profile-generate -Xcc -fprofile-generate \
    -Xlinker "$runtime" -Xlinker -u -Xlinker __llvm_profile_runtime >"$work/build.log" 2>&1 || { tail -30 "$work/build.log"; exit 1; }
  instrumented="$(bash scripts/release/build.sh --scratch-path "$scratch" --show-bin-path)/signin-bridge"
  fresh; serve "$instrumented" "$LOAD_SECONDS" env LLVM_PROFILE_FILE="$work/%p.profraw"
  serve "$instrumented" "$LOAD_SECONDS" env LLVM_PROFILE_FILE="$work/%p.profraw"
  # The toolchain's own llvm-profdata: Debian's is older than the profile format the toolchain writes.
  "$toolchain/bin/llvm-profdata" merge --text -o - "$work"/*.profraw | python3 scripts/release/hot-functions.py counts > "$order"
  echo "   $(wc -l < "$order") functions"
fi

echo "== faults: release build, $ROUNDS rounds"
release=(--scratch-path "${RELEASE_SCRATCH:-.build}")
bin="$(bash scripts/release/build.sh "${release[@]}" --show-bin-path)/signin-bridge"
for round in $(seq 1 "$ROUNDS"); do
  # build.sh links again whenever the order file is newer than the binary, as it is after each round that added.
  bash scripts/release/build.sh "${release[@]}" --product signin-bridge >"$work/build.log" 2>&1 || { tail -30 "$work/build.log"; exit 1; }
  fresh; serve "$bin" 3 perf record -q -e page-faults -c 1 -o "$work/faults.data" --
  perf script -i "$work/faults.data" -F ip,sym,dso --no-demangle 2>/dev/null \
    | python3 scripts/release/hot-functions.py faults "$bin" "$order" > "$work/new"
  cat "$work/new" >> "$order"
  echo "   round $round: $(wc -l < "$work/new") functions added"
  [ -s "$work/new" ] || break
done
bash scripts/release/build.sh "${release[@]}" --product signin-bridge 2>&1 | tail -1
echo "$order: $(wc -l < "$order") functions"
