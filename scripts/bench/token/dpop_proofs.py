#!/usr/bin/env python3
"""Prints N DPoP proofs (RFC 9449 §4.2) for POST to the token endpoint URL, one a line, all by one P-256 key, each
with its own jti and the current iat, for flow.sh's DPOP=1 run (flow.lua sends one with each token request; the
server accepts a proof once and within five minutes of its iat). Needs `cryptography` (the test venv's Python).
Usage: dpop_proofs.py TOKEN_URL N
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "test" / "flows"))
import dpop  # noqa: E402

url, count = sys.argv[1], int(sys.argv[2])
key = dpop.Key()
sys.stdout.write("".join(key.proof("POST", url) + "\n" for _ in range(count)))
