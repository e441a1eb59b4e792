#!/usr/bin/env bash
# schemas/openapi.yaml against a live `signin-bridge serve` (the sample configuration, a free port, data in a temporary
# folder): schemathesis generates requests for every operation (as the demo client office) and checks that no answer is a 5xx and that every
# status, content type, header and body matches the document.
# Needs .build/venv-test (scripts/test/python-venv.sh) and a built signin-bridge (SIGNIN_BRIDGE, else .build/debug).
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${SIGNIN_BRIDGE:-.build/debug/signin-bridge}
[ -x "$bin" ] || swift build --product signin-bridge
work=$(mktemp -d /tmp/signin-bridge-openapi.XXXXXX)
server=
cleanup() { if [ -n "$server" ]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi; rm -rf "$work"; }
trap cleanup EXIT

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
sed -e "s|path: data/bridge.sqlite|path: $work/bridge.sqlite|" \
    -e "s|file: data/signing-keys.json|file: $work/keys.json|" \
    -e "s|  requests: true |  requests: false|" samples/bridge.yaml > "$work/bridge.yaml"
"$bin" serve --config "$work/bridge.yaml" --port "$port" 2>"$work/serve.log" &
server=$!
for _ in $(seq 1 200); do curl -s -o /dev/null "http://127.0.0.1:$port/auth/health" && break; sleep 0.05; done

status=0
.build/venv-test/bin/st run schemas/openapi.yaml --url "http://127.0.0.1:$port" \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance \
  --auth office:office-demo-secret --phases examples,coverage,fuzzing --max-examples "${OPENAPI_MAX_EXAMPLES:-30}" --workers 2 \
  --seed 1 --no-color || status=$?
if [ "$status" -ne 0 ]; then echo "openapi: schemathesis found problems (server log: below)"; tail -20 "$work/serve.log"; fi
exit "$status"
