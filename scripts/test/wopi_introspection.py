#!/usr/bin/env python3
"""RFC 7662 introspection of WOPI access tokens, asked with requests-oauth2client (PyPI) as a WOPI host written in
Python would: the host's client (`wopiServer: true`) learns a token's user, times, client and WopiSrc; a forged,
expired or revoked token is `{"active": false}`, and so is every WOPI token for a client without the permission.
Tokens come from a real bootstrap. Ends with "N passed, N failed"; exits 1 on any failure.

Usage: wopi_introspection.py --binary .build/debug/signin-bridge
"""
import argparse
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

from requests_oauth2client import ClientSecretBasic, OAuth2Client

sys.path.insert(0, str(Path(__file__).resolve().parent))
from flows.bridge import OFFICE, Server, basic, free_port, request, write_config  # noqa: E402
from flows.tally import check, tally  # noqa: E402
from flows.wopi import WOPI_HOST, configure, ecosystem_token, file_token, forged, resealed, signed_in  # noqa: E402


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        work = Path(work)
        port = free_port()
        prefix = "https://wopi.example.com/wopi/files/"
        config = write_config(work, port)
        config.write_text(configure(config.read_text(), prefix))
        server = Server(args.binary, config, port, work / "serve.log").start()
        try:
            run(port, prefix, work)
        finally:
            server.stop()
    return tally.summary()


def client(port, credentials):
    """The library's client for one of our clients, with client_secret_basic (RFC 6749 §2.3.1)."""
    base = f"http://127.0.0.1:{port}"
    return OAuth2Client(token_endpoint=base + "/oauth2/token", introspection_endpoint=base + "/oauth2/introspect",
                        auth=ClientSecretBasic(*credentials), testing=True)  # testing: http on loopback


def run(port, prefix, work):
    host, office = client(port, WOPI_HOST), client(port, OFFICE)
    demo = signed_in(port)
    wopi_src = prefix + "doc-a"
    token = file_token(port, demo["access_token"], wopi_src)
    before = int(time.time())

    answer = host.introspect_token(token)
    check(answer.get("active") is True, "the WOPI server's client: a file's token is active", answer)
    check(answer.get("sub") == "demo" and answer.get("username") == "demo@example.com",
          "sub is the bootstrap's UserId, username its SignInName", answer)
    check(answer.get("wopi_src") == wopi_src, "wopi_src is the WopiSrc it was handed out for", answer)
    check(answer.get("client_id") == "office" and answer.get("token_type") == "Bearer",
          "client_id is the grant's client, token_type Bearer", answer)
    check(isinstance(answer.get("exp"), int) and answer["exp"] > before + 3600
          and isinstance(answer.get("iat"), int) and answer["iat"] <= answer["exp"],
          "exp and iat are NumericDates (wopi.accessTokenLifetimeSeconds ahead)", answer)

    ecosystem = host.introspect_token(ecosystem_token(port, demo["access_token"]))
    check(ecosystem.get("active") is True and "wopi_src" not in ecosystem,
          "the ecosystem token is active and bound to no file (no wopi_src)", ecosystem)

    check(office.introspect_token(token) == {"active": False},
          "a client without wopiServer gets {active: false} for the same token")
    for name, value in [
        ("a forged token", forged(token)),
        ("an expired token", resealed(token, work / "signing-keys.json", int(time.time() * 1000) - 1000)),
        ("a malformed one", "w1.AAAAAAAA.not-base64!.x"),
    ]:
        check(host.introspect_token(value) == {"active": False}, f"{name}: {{active: false}}")
    later = resealed(token, work / "signing-keys.json", int(time.time() * 1000) + 600_000)
    check(host.introspect_token(later).get("active") is True,
          "resealed from the documented format with a later expiry it is active (the expired case is the expiry's)")

    status, _, _ = request("127.0.0.1", port, "POST", "/oauth2/revoke",
                           urllib.parse.urlencode({"token": demo["refresh_token"]}),
                           {"Content-Type": "application/x-www-form-urlencoded", "Authorization": basic(OFFICE)})
    check(status == 200, "the refresh token is revoked (RFC 7009), and with it the grant")
    check(host.introspect_token(token) == {"active": False}, "a revoked grant's WOPI token: {active: false}")

    status, _, body = request("127.0.0.1", port, "POST", "/oauth2/introspect", urllib.parse.urlencode({"token": token}),
                              {"Content-Type": "application/x-www-form-urlencoded"})
    check(status == 401, "without client authentication: 401 invalid_client (RFC 7662 §2.1)", (status, body[:200]))


if __name__ == "__main__":
    sys.exit(main())
