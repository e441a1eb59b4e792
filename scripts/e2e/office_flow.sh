#!/usr/bin/env bash
# End-to-end tests of the Office sign-in flow and of the app-to-app provider flow in a real browser (headless
# Chromium through selenium).
# Builds signin-bridge if needed, creates a Python venv under .venv-e2e/ (git-ignored) with selenium, and runs
# office_flow.py, which starts the server itself on a free loopback port with a temporary SQLite file and config.
# Screenshots of the sign-in and consent pages (phone 390x844, tablet 1024x1366) land in artifacts/e2e/.
# Usage: scripts/e2e/office_flow.sh            (SIGNIN_BRIDGE=path/to/signin-bridge to use another binary)
set -euo pipefail
cd "$(dirname "$0")/../.."

for tool in chromium chromedriver python3; do
  command -v "$tool" >/dev/null || { echo "e2e: $tool is missing; run: bash scripts/install-deps.sh test" >&2; exit 2; }
done

binary="${SIGNIN_BRIDGE:-}"
if [ -z "$binary" ]; then
  swift build --product signin-bridge >&2
  binary="$(swift build --show-bin-path)/signin-bridge"
fi

venv=.venv-e2e
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv" || /usr/bin/python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c 'import selenium' 2>/dev/null; then
  "$venv/bin/pip" install --quiet --disable-pip-version-check 'selenium>=4.20,<5'
fi

"$venv/bin/python" scripts/e2e/office_flow.py --binary "$binary" --artifacts artifacts/e2e
# The app-to-app flow with this server as the provider (parked page, host-app approval, resume in the same browser).
"$venv/bin/python" scripts/e2e/app_to_app_flow.py --binary "$binary" --artifacts artifacts/e2e
# Simple Login (app_to_app_v2) without the host's app: the deep link in the browser, sign-in, consent, the code.
"$venv/bin/python" scripts/e2e/simple_login_flow.py --binary "$binary" --artifacts artifacts/e2e
