#!/usr/bin/env python3
"""Two `signin-bridge serve` instances on two ports over one PostgreSQL database, as a host runs them behind a load
balancer: one issuer, one signing key file, one database. Checks over real sockets:
- a code issued by A is redeemed at B, and a token minted at A opens B's bootstrapper;
- 100 concurrent redemptions of one code spread over A and B give exactly one 200, and the winner's tokens are then
  refused at both (RFC 9700 §4.2.4);
- a refresh token rotated at A and presented again at B is a replay: the grant is revoked at both;
- a token revoked at A is refused at B's bootstrapper at the next request, and by B's introspection within
  tokens.statusCacheMilliseconds;
- DPoP (RFC 9449): a nonce minted by A is accepted by B (one secret in the shared key file), and a proof used at one
  instance is refused at the other (the store's replay step).
Needs SIGNIN_BRIDGE_TEST_POSTGRES_URL (scripts/test/postgres.sh starts a cluster); without it the run fails.
Ends with the line "N passed, N failed"; exits 1 on any failure.
"""
import argparse
import os
import secrets
import subprocess
import sys
import tempfile
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from flows.bridge import (Browser, Server, basic, bootstrap, free_port, pkce_pair, redeem, refresh,  # noqa: E402
                          request, write_config)
from flows import dpop  # noqa: E402

from flows.tally import check, tally  # noqa: E402


def fresh_database(url):
    """A new database on the cluster of `url`, so the run starts empty; returns its URL."""
    name = "signin_multi_" + secrets.token_hex(4)
    subprocess.run(["psql", url, "-v", "ON_ERROR_STOP=1", "-qc", f"CREATE DATABASE {name}"], check=True)
    parts = urllib.parse.urlsplit(url)
    return urllib.parse.urlunsplit(parts._replace(path="/" + name))


def revoke(port, token):
    status, _, _ = request("127.0.0.1", port, "POST", "/oauth2/revoke", urllib.parse.urlencode({"token": token}),
                           {"Content-Type": "application/x-www-form-urlencoded", "Authorization": basic()})
    return status


def introspect_active(port, token):
    import json
    status, _, body = request("127.0.0.1", port, "POST", "/oauth2/introspect",
                              urllib.parse.urlencode({"token": token}),
                              {"Content-Type": "application/x-www-form-urlencoded", "Authorization": basic()})
    return status == 200 and json.loads(body).get("active") is True


def dpop_token(port, code, verifier, proof):
    """partner-app's code redeemed at `port` with `proof`: (status, DPoP-Nonce, error)."""
    import json
    form = {"grant_type": "authorization_code", "code": code, "redirect_uri": "com.example.partner:/oauth2redirect",
            "client_id": "partner-app", "code_verifier": verifier}
    status, headers, body = request("127.0.0.1", port, "POST", "/oauth2/token", urllib.parse.urlencode(form),
                                    {"Content-Type": "application/x-www-form-urlencoded", "DPoP": proof})
    return status, headers.get("dpop-nonce"), json.loads(body).get("error")


def check_dpop(browser, port_a, port_b, token_url):
    key = dpop.Key()

    def partner_code():
        verifier, challenge = pkce_pair()
        code = browser.authorize(client_id="partner-app", redirect_uri="com.example.partner:/oauth2redirect",
                                 challenge=challenge)["code"]
        return code, verifier

    code, verifier = partner_code()
    status, nonce, error = dpop_token(port_a, code, verifier, key.proof("POST", token_url))
    check(status == 400 and error == "use_dpop_nonce" and nonce, f"A asks for a DPoP nonce ({status} {error})")
    # Each proof is first used at one instance (200, with the nonce the other minted), then replayed at the other.
    for (first, first_port), (then, then_port) in ((("B", port_b), ("A", port_a)), (("A", port_a), ("B", port_b))):
        code, verifier = partner_code()
        proof = key.proof("POST", token_url, nonce=nonce)
        status, _, error = dpop_token(first_port, code, verifier, proof)
        check(status == 200, f"{first} accepts a proof with A's nonce ({status} {error})")
        code, verifier = partner_code()
        status, _, error = dpop_token(then_port, code, verifier, proof)
        check(status == 400 and error == "invalid_dpop_proof", f"the proof used at {first} is refused at {then} ({status} {error})")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    arguments = parser.parse_args()
    base = os.environ.get("SIGNIN_BRIDGE_TEST_POSTGRES_URL")
    if not base:
        print("SIGNIN_BRIDGE_TEST_POSTGRES_URL is not set: start a cluster with "
              "`eval \"$(bash scripts/test/postgres.sh start)\"` (make test does it)", file=sys.stderr)
        tally.check(False, "a PostgreSQL cluster to test against")
        return tally.summary()
    url = fresh_database(base)
    directory = Path(tempfile.mkdtemp(prefix="signin-bridge-multi-"))
    port_a, port_b = free_port(), free_port()
    keys = directory / "signing-keys.json"
    issuer = f"http://127.0.0.1:{port_a}"
    environment = dict(os.environ, SIGNIN_BRIDGE_STORE_URL=url)
    servers = []
    try:
        for port in (port_a, port_b):
            # One issuer for both, as behind a load balancer.
            config = write_config(directory, port, keys=keys, issuer=issuer, extra="\ndpop:\n  requireNonce: true\n")
            servers.append(Server(arguments.binary, config, port, directory / f"server-{port}.log",
                                  env=environment).start())
        browser = Browser(port_a)

        code = browser.authorize()["code"]
        status, body = redeem(port_b, code)
        check(status == 200, "a code issued by A is redeemed at B")
        check(bootstrap(port_b, body.get("access_token", "")) == 200 and bootstrap(port_a, body.get("access_token", "")) == 200,
              "a token minted from B's redemption opens both bootstrappers (shared signing key)")

        code = browser.authorize()["code"]
        ports = [port_a if index % 2 == 0 else port_b for index in range(100)]
        with ThreadPoolExecutor(max_workers=32) as pool:
            answers = list(pool.map(lambda port: redeem(port, code), ports))
        winners = [body for status, body in answers if status == 200]
        check(len(winners) == 1, f"100 concurrent redemptions over A and B: exactly one 200 (got {len(winners)})")
        if winners:
            token, refresh_token = winners[0]["access_token"], winners[0]["refresh_token"]
            check(bootstrap(port_a, token) == 401 and bootstrap(port_b, token) == 401,
                  "the winner's access token is refused at both after the replays")
            check(refresh(port_a, refresh_token)[0] == 400 and refresh(port_b, refresh_token)[0] == 400,
                  "the winner's refresh token is refused at both")

        code = browser.authorize()["code"]
        _, body = redeem(port_a, code)
        first = body["refresh_token"]
        status, body = refresh(port_a, first)
        check(status == 200, "a refresh at A rotates")
        second = body.get("refresh_token", "")
        status, _ = refresh(port_b, first)
        check(status == 400, "the rotated token presented at B is a replay")
        check(refresh(port_a, second)[0] == 400, "the replay at B revoked the grant for A too")

        code = browser.authorize()["code"]
        _, body = redeem(port_a, code)
        token = body["access_token"]
        check(bootstrap(port_b, token) == 200 and introspect_active(port_b, token), "B accepts A's token")
        check(revoke(port_a, token) == 200, "A revokes it")
        check(bootstrap(port_b, token) == 401, "B's bootstrapper refuses it at the next request")
        deadline = time.monotonic() + 1.5   # tokens.statusCacheMilliseconds is 1000 in the sample
        while introspect_active(port_b, token) and time.monotonic() < deadline:
            time.sleep(0.05)
        check(not introspect_active(port_b, token), "B's introspection reports it inactive within the status cache time")

        check_dpop(browser, port_a, port_b, issuer + "/oauth2/token")
    finally:
        for server in servers:
            server.stop()
    return tally.summary()


if __name__ == "__main__":
    sys.exit(main())
