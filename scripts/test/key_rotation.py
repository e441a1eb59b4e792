#!/usr/bin/env python3
"""Signing-key rotation with two real `signin-bridge serve` processes sharing one key file (docs/keys-and-secrets.md):
- started at the same moment on an empty key file, both publish one and the same key set;
- `keys rotate` publishes a next key at both within the reload interval, and nothing signs with it yet;
- a second `keys rotate` is refused (published too recently); with --force both sign with the new key, and a token
  signed before the rotation still opens both bootstrappers;
- `keys retire` is refused while that token may live; with --force the old key leaves both JWKS and its token is
  refused.
With SIGNIN_BRIDGE_TEST_POSTGRES_URL set (scripts/test/postgres.sh run), both instances use one fresh PostgreSQL
database, as behind a load balancer; without it each has its own SQLite store. The keys live in the shared file either
way; each instance's bootstrapper is given the tokens it issued itself, which works for both stores.
Ends with the line "N passed, N failed"; exits 1 on any failure.
"""
import argparse
import base64
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from flows.bridge import Browser, Server, bootstrap, free_port, redeem, request, write_config  # noqa: E402

from flows.tally import check, tally  # noqa: E402
from multi_instance import fresh_database  # noqa: E402

RELOAD_WAIT = 8.0   # the server checks the key file every 5 s


def published_kids(port):
    status, _, body = request("127.0.0.1", port, "GET", "/.well-known/jwks.json")
    return sorted(key["kid"] for key in json.loads(body)["keys"]) if status == 200 else []


def header_kid(token):
    header = token.split(".")[0]
    return json.loads(base64.urlsafe_b64decode(header + "=" * (-len(header) % 4)))["kid"]


def token_at(port):
    _, body = redeem(port, Browser(port).authorize()["code"])
    return body["access_token"]


def keys(binary, config, *arguments):
    return subprocess.run([binary, "keys", *arguments, "--config", str(config)], capture_output=True, text=True)


def until(condition, timeout=RELOAD_WAIT):
    deadline = time.monotonic() + timeout
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.25)
    return condition()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    arguments = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="signin-bridge-keys-"))
    key_file = root / "shared" / "signing-keys.json"
    postgres = os.environ.get("SIGNIN_BRIDGE_TEST_POSTGRES_URL")
    environment = dict(os.environ, SIGNIN_BRIDGE_STORE_URL=fresh_database(postgres)) if postgres else None
    servers = []
    for name in ("a", "b"):
        directory = root / name
        directory.mkdir()
        port = free_port()
        servers.append(Server(arguments.binary, write_config(directory, port, keys=key_file), port,
                              directory / "server.log", env=environment))
    config = servers[0].config
    try:
        with ThreadPoolExecutor(max_workers=2) as pool:
            list(pool.map(lambda server: server.start(), servers))
        a, b = (server.port for server in servers)
        first = published_kids(a)
        store = "one PostgreSQL database" if postgres else "their own SQLite stores"
        check(len(first) == 2 and published_kids(b) == first,
              f"two instances started together over {store} publish one key set")

        old_tokens = {port: token_at(port) for port in (a, b)}
        old_kid = header_kid(old_tokens[a])
        check(header_kid(old_tokens[b]) == old_kid, "both sign with the one current key")
        check(all(bootstrap(port, token) == 200 for port, token in old_tokens.items()), "each opens its bootstrapper")

        result = keys(arguments.binary, config, "rotate")
        check(result.returncode == 0 and "added next key" in result.stdout, f"keys rotate adds next keys: {result.stdout}{result.stderr}")
        check(until(lambda: len(published_kids(a)) == 4 and published_kids(b) == published_kids(a)),
              "both instances publish the next keys within the reload interval")
        check(header_kid(token_at(b)) == old_kid, "a next key does not sign")

        result = keys(arguments.binary, config, "rotate")
        check(result.returncode == 1 and "may sign from" in result.stderr, f"a second rotate at once is refused: {result.stderr}")
        result = keys(arguments.binary, config, "rotate", "--force")
        check(result.returncode == 0, f"keys rotate --force promotes: {result.stdout}{result.stderr}")
        check(until(lambda: header_kid(token_at(a)) != old_kid and header_kid(token_at(b)) != old_kid),
              "both instances sign with the new current key")
        check(all(bootstrap(port, token) == 200 for port, token in old_tokens.items()),
              "tokens signed before the rotation still open both bootstrappers")

        result = keys(arguments.binary, config, "retire")
        check(result.returncode == 1 and "may be verified until" in result.stderr, f"retire is refused while tokens live: {result.stderr}")
        check(old_kid in published_kids(a), "the previous key is still published after the refusal")
        result = keys(arguments.binary, config, "retire", "--force")
        check(result.returncode == 0 and "retired key" in result.stdout, f"keys retire --force: {result.stdout}{result.stderr}")
        check(until(lambda: old_kid not in published_kids(a) and old_kid not in published_kids(b)
                    and len(published_kids(a)) == 2), "the retired key leaves both JWKS")
        check(all(bootstrap(port, token) == 401 for port, token in old_tokens.items()), "its tokens are refused at both")
        listed = keys(arguments.binary, config, "list")
        check(listed.returncode == 0 and listed.stdout.count(" current ") == 2, f"keys list: {listed.stdout}")
    finally:
        for server in servers:
            server.stop()
    return tally.summary()


if __name__ == "__main__":
    sys.exit(main())
