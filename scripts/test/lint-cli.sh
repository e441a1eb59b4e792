#!/usr/bin/env bash
# End-to-end checks of `signin-bridge lint` as a partner's CI runs it, judged by tools that are not ours:
# exit statuses, a silent stderr (libxml2 never prints), SARIF 2.1.0 validated against the OASIS schema and the
# sarif-pydantic model, and schemas/url_schemes.schema.json checked by Python's jsonschema against the samples.
# Needs .build/venv-test (scripts/test/python-venv.sh; `make test` creates it). Prints "lint-cli: N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
bin=${SIGNIN_BRIDGE:-.build/debug/signin-bridge}
[ -x "$bin" ] || swift build --product signin-bridge >/dev/null
standalone=${SIGNIN_BRIDGE_LINT:-$(dirname "$bin")/signin-bridge-lint}
[ -x "$standalone" ] || swift build --product signin-bridge-lint >/dev/null
python=.build/venv-test/bin/python
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

# expect NAME STATUS COMMAND...: COMMAND exits with STATUS and writes nothing to stderr.
expect() {
  local name=$1 status=$2
  shift 2
  "$@" >"$tmp/out" 2>"$tmp/err"
  local actual=$?
  if [ "$actual" -eq "$status" ] && { [ "$status" -eq 2 ] || [ ! -s "$tmp/err" ]; }; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL $name: exit $actual (wanted $status); stderr: $(head -c 400 "$tmp/err")"
  fi
}

correct=(samples/url_schemes.json samples/android/correct samples/ios/correct samples/url_schemes/office-docs samples/applinks/one-run/correct)
docs_challenge='Bearer authorization_uri="https://contoso.com/api/oauth2/authorize",tokenIssuance_uri="https://contoso.com/api/oauth2/token",providerId="tp_contoso", UrlSchemes="%7B%22iOS%22%20%3A%20%5B%22contoso%22%2C%22contoso-EMM%22%5D%2C%20%22Android%22%20%3A%20%5B%22contoso%22%2C%22contoso-EMM%22%5D%2C%20%22UWP%22%3A%20%5B%22contoso%22%2C%22contoso-EMM%22%5D%7D"'

expect "samples/ has errors" 1 "$bin" lint samples/
expect "correct samples are clean" 0 "$bin" lint "${correct[@]}"
expect "docs challenge is clean" 0 "$bin" lint samples/url_schemes/office-docs --challenge "$docs_challenge"
expect "missing path is a usage error" 2 "$bin" lint samples/no-such-folder
expect "two UrlSchemes sources is a usage error" 2 "$bin" lint --url-schemes a --challenge b
expect "unknown format is a usage error" 2 "$bin" lint --format xml samples/

expect "SARIF of samples/" 1 "$bin" lint samples/ --format sarif --output "$tmp/samples.sarif"
expect "SARIF of correct samples" 0 "$bin" lint "${correct[@]}" --format sarif --output "$tmp/correct.sarif"
expect "SARIF of a challenge whose schemes the plist lacks" 1 "$bin" lint samples/ios/correct --challenge "$docs_challenge" --format sarif --output "$tmp/challenge.sarif"
site=samples/applinks/broken/contoso.com/.well-known
expect "SARIF of the App Links and Universal Links cross-checks" 1 "$bin" lint samples/ --assetlinks "contoso.com=$site/assetlinks.json" \
  --aasa "contoso.com=$site/apple-app-site-association" --redirect-uri https://contoso.com/auth/callback \
  --format sarif --output "$tmp/applinks.sarif"
expect "SARIF validates" 0 "$python" scripts/test/validate.py sarif "$tmp/samples.sarif" "$tmp/correct.sarif" "$tmp/challenge.sarif" \
  "$tmp/applinks.sarif"
cat "$tmp/out"
# The findings Android Lint also reports carry its id in the result's property bag (docs/lint-android-lint-ids.md).
expect "SARIF results carry Android Lint ids" 0 "$python" -c '
import json, sys
ids = {r.get("properties", {}).get("androidLintId") for r in json.load(open(sys.argv[1]))["runs"][0]["results"]}
sys.exit(0 if {"AppLinkUrlError", "AppLinkSplitToWebAndCustom", "IntentFilterExportedReceiver"} <= ids else 1)' "$tmp/samples.sarif"

# signin-bridge-lint is the same command without the server: same report, same statuses.
expect "standalone: samples/ has errors" 1 "$standalone" samples/ --format json --output "$tmp/standalone.json"
expect "standalone: correct samples are clean" 0 "$standalone" "${correct[@]}"
expect "standalone: unknown format is a usage error" 2 "$standalone" --format xml samples/
expect "standalone: --ca-certificate without --fetch is a usage error" 2 "$standalone" --ca-certificate x.pem samples/
expect "--fetch wants https" 2 "$bin" lint --fetch http://contoso.com
# The standalone links no HTTPS client: --fetch is a usage error that names the command which has it.
expect "standalone: --fetch is refused" 2 "$standalone" --fetch https://contoso.com
if grep -q 'run `signin-bridge lint --fetch …` instead' "$tmp/err"; then passed=$((passed + 1)); else
  failed=$((failed + 1)); echo "FAIL standalone: --fetch's error does not point at signin-bridge lint: $(cat "$tmp/err")"; fi
"$bin" lint samples/ --format json --output "$tmp/full.json" 2>/dev/null
if cmp -s "$tmp/full.json" "$tmp/standalone.json"; then passed=$((passed + 1)); else
  failed=$((failed + 1)); echo "FAIL standalone: its JSON report differs from signin-bridge lint's"; fi

expect "url_schemes JSON Schema agrees with the samples" 0 "$python" scripts/test/validate.py url-schemes \
  schemas/url_schemes.schema.json samples/url_schemes.json samples/url_schemes/office-docs/url_schemes.json \
  -- samples/url_schemes/broken/url_schemes.json
cat "$tmp/out"

echo "lint-cli: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
