#!/usr/bin/env bash
# Fuzzes one decoder with libFuzzer and AddressSanitizer: scripts/fuzz.sh TARGET SECONDS [libFuzzer options…]
#   scripts/fuzz.sh list                  the targets
#   scripts/fuzz.sh challenge 1800        half an hour on the challenge parser
#   scripts/fuzz.sh all 5                 a few seconds on every target (`make fuzz-smoke`)
#   scripts/fuzz.sh all 1800 -runs=10000000   the long run: each target until 10 million executions or 30 minutes
# The corpus grows in .build-fuzz/corpus/TARGET, seeded from Fuzz/Seeds/TARGET (test vectors) and, for the lint
# targets, from samples/ and Tests/ManifestLintTests/Corpus (real apps' files). A crash or leak
# leaves its input in .build-fuzz/findings/TARGET/; `swift run signin-bridge-fuzz TARGET FILE` replays it.
# Prints one summary line per target: executions, coverage (cov/ft as libFuzzer counts them), findings.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: scripts/fuzz.sh TARGET|all|list SECONDS [libFuzzer options]}
seconds=${2:-60}
shift $(( $# >= 2 ? 2 : $# ))
scratch=.build-fuzz

swift build -c release --product signin-bridge-fuzz --scratch-path "$scratch" \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -D -Xswiftc FUZZING -Xswiftc -parse-as-library >&2
bin=$scratch/release/signin-bridge-fuzz
if [ "$target" = list ]; then
  FUZZ_TARGET=list "$bin" -runs=1 2>/dev/null | grep -v '^INFO'
  exit 0
fi
if [ "$target" = all ]; then
  targets=$("$0" list 0)
else
  targets=$target
fi

status=0
for name in $targets; do
  corpus=$scratch/corpus/$name findings=$scratch/findings/$name
  mkdir -p "$corpus" "$findings"
  [ -d "Fuzz/Seeds/$name" ] && cp -n Fuzz/Seeds/"$name"/* "$corpus"/ 2>/dev/null || true
  case $name in
    android-manifest) pattern='AndroidManifest*.xml' ;;
    info-plist) pattern='*.plist' ;;
    url-schemes-json) pattern='url_schemes*.json' ;;
    assetlinks) pattern='assetlinks*.json' ;;
    apple-app-site-association) pattern='apple-app-site-association*' ;;
    entitlements) pattern='*.entitlements' ;;
    *) pattern='' ;;
  esac
  if [ -n "$pattern" ]; then
    find samples Tests/ManifestLintTests/Corpus -name "$pattern" -size -64k -print0 |
      while IFS= read -r -d '' file; do cp -n "$file" "$corpus/seed-$(printf '%s' "$file" | md5sum | cut -c1-12)"; done
  fi
  log=$scratch/$name.log
  started=$SECONDS
  if FUZZ_TARGET=$name ASAN_OPTIONS=detect_leaks=1 "$bin" "$corpus" -max_total_time="$seconds" -max_len=65536 \
      -timeout=10 -rss_limit_mb=2048 -artifact_prefix="$findings/" -print_final_stats=1 "$@" >"$log" 2>&1; then
    result=ok
  else
    result="FINDING (see $log and $findings/)"
    status=1
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | tr -d 'cov: ')
  ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | tr -d 'ft: ')
  elapsed=$(( SECONDS - started ))
  echo "fuzz $name: ${runs:-0} executions in ${elapsed} s (limit ${seconds} s), cov ${cov:-0}, ft ${ft:-0}, corpus $(ls "$corpus" | wc -l): $result"
done
exit $status
