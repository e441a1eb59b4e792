#!/usr/bin/env bash
# Creates .build/venv-test with the independent validators the end-to-end lint test uses (network: PyPI, once).
# Idempotent: does nothing when the venv already has exactly these requirements.
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=.build/venv-test
requirements=scripts/test/requirements.txt
stamp="$venv/.requirements"
if [ -x "$venv/bin/python" ] && cmp -s "$requirements" "$stamp"; then exit 0; fi
python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements"
cp "$requirements" "$stamp"
