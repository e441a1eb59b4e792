#!/usr/bin/env bash
# Installs the system packages SignInBridge needs, only those missing. Idempotent; run as root (or with sudo).
# Usage: scripts/install-deps.sh [test|run|bench]   (default: run)
set -euo pipefail
purpose="${1:-run}"

packages=(pkg-config libxml2-dev libsqlite3-dev)
case "$purpose" in
  # python3-venv: scripts/test/python-venv.sh makes a venv with the independent SARIF/JSON Schema validators;
  # chromium and chromium-driver: the browser end-to-end test (scripts/e2e); curl: the docs' commands
  # (scripts/test/docs_commands.py runs the curl lines of README.md and docs/); nginx: the reverse proxy
  # scripts/test/wopi_forward_auth.py puts in front of a WOPI host (auth_request); glewlwyd: the OpenID Connect
  # provider scripts/test/external_idp.py runs as the host's own identity provider (JWT access tokens, JWKS).
  test)  packages+=(python3 python3-venv chromium chromium-driver curl nginx glewlwyd) ;;
  # valgrind, binutils (strip), bc: scripts/bench/protocol.sh --instructions and scripts/bench/lint.sh;
  # libxml2-utils (xmllint) and python3: scripts/bench/lint.sh; linux-perf: the profiles scripts/bench/all.sh takes.
  bench) packages+=(nginx wrk libxml2-utils python3 python3-venv valgrind binutils bc linux-perf) ;;
  run)   ;;
  *) echo "usage: $0 [test|run|bench]" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
echo "installing: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# Packages with a service (nginx, postgresql, glewlwyd) must not start it: the tests run their own instances on free loopback
# ports, and a stock nginx failing to bind port 80 would fail the install. policy-rc.d's exit 101 tells invoke-rc.d
# "action forbidden" (Debian Policy, /usr/share/doc/init-system-helpers/README.policy-rc.d).
policy=/usr/sbin/policy-rc.d
made_policy=""
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' | $sudo tee "$policy" >/dev/null && $sudo chmod +x "$policy" && made_policy=1
fi
status=0
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null || status=$?
[ -n "$made_policy" ] && $sudo rm -f "$policy"
exit $status
