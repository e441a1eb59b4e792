#!/usr/bin/env python3
"""Vipps/MobilePay Simple Login (requested_flow=app_to_app_v2) with this server as the provider, over the wire, with
a client library that is not ours: requests-oauth2client (PyPI) plays the merchant app (authorization request with
PKCE S256, state and nonce; the callback's state and iss checked by the library, RFC 9207 §2.4; the code redeemed with
the verifier) and the host's own app signing in for its access token. The host's app reads the parked request and
approves it over HTTP with that token; the decision's answer is the merchant's https redirect_uri with the code
(https://developer.vippsmobilepay.com/docs/APIs/login-api/api-guide/mobile-app-flows/simple-login/).

Then what must fail does, each with its error, never a 500, and no authorization code row written (the SQLite file
is read after each): no PKCE, plain PKCE, an http redirect_uri, an unregistered one (a page, never a redirect), a
replayed, foreign or unknown reference, and a denial (access_denied at the redirect_uri).

Run with the test venv's Python: .build/venv-test/bin/python scripts/test/simple_login_client.py --binary …
Prints one line per check and ends with "N passed, N failed"; exits 1 on any failure.
"""
import argparse
import json
import re
import sqlite3
import sys
import tempfile
import urllib.parse
from pathlib import Path

import requests
from requests_oauth2client import OAuth2Client

sys.path.insert(0, str(Path(__file__).resolve().parent))
from flows.bridge import Browser, Server, free_port, write_config  # noqa: E402
from flows.tally import expect as check, tally  # noqa: E402

REDIRECT = "https://merchant.example.com/app/callback"
HTTP_REDIRECT = "http://127.0.0.1/app/callback"  # plain http is registrable only for loopback hosts
PARTNER_REDIRECT = "com.example.partner:/oauth2redirect"
CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        port = free_port()
        config = write_config(Path(directory), port)
        # An http redirect URI registered too, to show Simple Login refuses it (the sample registers only https).
        config.write_text(config.read_text().replace(REDIRECT + "]", REDIRECT + ", " + HTTP_REDIRECT + "]", 1))
        server = Server(args.binary, config, port, Path(directory) / "server.log").start()
        try:
            run(port, Path(directory) / "bridge.sqlite")
        finally:
            server.stop()
    return tally.summary()


def codes(database):
    """How many authorization codes the server has written."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as connection:
        return connection.execute("SELECT count(*) FROM authorization_codes").fetchone()[0]


def library_client(base, client_id, redirect_uri):
    """The library's public client from our discovery document (testing=True only because the server is on http)."""
    return OAuth2Client.from_discovery_endpoint(
        url=base + "/.well-known/openid-configuration", issuer=base, testing=True, client_id=client_id,
        redirect_uri=redirect_uri)


def path_of(url):
    parts = urllib.parse.urlsplit(url)
    return parts.path + "?" + parts.query


def host_app_token(base, port):
    """The host's own app (first-party partner-app) signs the demo user in with the library and keeps its token."""
    host = library_client(base, "partner-app", PARTNER_REDIRECT)
    request = host.authorization_request(scope="openid")
    response = request.validate_callback(Browser(port).walk(path_of(request.uri), PARTNER_REDIRECT))
    return host.authorization_code(response, validate=False).access_token


def parked(port, url):
    """The merchant's browser tab opens the authorize URL: the parked page's deep-link reference, or None."""
    browser = Browser(port)
    status, _, page = browser.call("GET", path_of(url))
    link = re.search(r'id="open-app" href="([^"]*)"', page)
    if status != 200 or not link:
        return browser, None
    query = urllib.parse.urlsplit(link.group(1).replace("&amp;", "&")).query
    return browser, dict(urllib.parse.parse_qsl(query)).get("reference")


def decide(base, token, reference, decision="approve"):
    return requests.post(base + "/oauth2/app-to-app/decision", timeout=10, headers={"Authorization": "Bearer " + token},
                         data={"reference": reference, "decision": decision})


def run(port, database):
    base = f"http://127.0.0.1:{port}"
    token = host_app_token(base, port)
    check("the host's app holds its own first-party access token", bool(token))
    merchant = library_client(base, "merchant-app", REDIRECT)

    # Simple Login: the merchant's request parks; the host's app reads it and approves; the answer is the redirect.
    request = merchant.authorization_request(scope="openid profile", requested_flow="app_to_app_v2")
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(request.uri).query))
    check("the library's request carries requested_flow=app_to_app_v2 and an S256 challenge",
          query.get("requested_flow") == "app_to_app_v2" and query.get("code_challenge_method") == "S256", query)
    _, reference = parked(port, request.uri)
    check("the merchant's browser tab shows the parked page with the deep link", bool(reference))
    details = requests.get(base + "/oauth2/app-to-app/request", params={"reference": reference}, timeout=10,
                           headers={"Authorization": "Bearer " + token})
    check("the host's app reads who asks and for what",
          details.status_code == 200 and details.json().get("client_id") == "merchant-app", details.text)
    before = codes(database)
    answer = decide(base, token, reference)
    redirect_url = answer.json().get("redirect_url", "") if answer.status_code == 200 else ""
    check("approving answers the merchant's https redirect_uri (Simple Login: direct return, no resume_uri)",
          redirect_url.startswith(REDIRECT + "?") and "resume_uri" not in redirect_url, answer.text)
    check("one authorization code was written", codes(database) == before + 1)
    try:
        response = request.validate_callback(redirect_url)
        check("the library accepts the redirect's state and iss (RFC 9207 §2.4)", bool(response.code))
    except Exception as error:  # noqa: BLE001 - the library's refusal is the failure this test exists for
        check("the library accepts the redirect's state and iss (RFC 9207 §2.4)", False, f"{type(error).__name__}: {error}")
        return
    tokens = merchant.authorization_code(response, validate=False)
    check("the code is redeemed with the PKCE verifier (RFC 7636 §4.5) and brings an ID token",
          bool(tokens.access_token) and bool(tokens.id_token), tokens)
    claims = getattr(tokens.id_token, "claims", {}) or {}
    check("the ID token names the demo user, the merchant and the request's nonce",
          claims.get("sub") == "demo" and claims.get("aud") == "merchant-app" and claims.get("nonce") == request.nonce,
          claims)
    replay = decide(base, token, reference)
    check("the same reference again is invalid_request (single use)",
          replay.status_code == 400 and replay.json().get("error") == "invalid_request", replay.text)

    # A denial: access_denied with state and iss at the redirect_uri, and nothing issued.
    denied_request = merchant.authorization_request(scope="openid", requested_flow="app_to_app_v2")
    _, denied_reference = parked(port, denied_request.uri)
    before = codes(database)
    denied = decide(base, token, denied_reference, "deny")
    url = denied.json().get("redirect_url", "") if denied.status_code == 200 else ""
    parameters = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query))
    check("a denial answers redirect_uri?error=access_denied with the state and iss (RFC 6749 §4.1.2.1, RFC 9207)",
          url.startswith(REDIRECT + "?") and parameters.get("error") == "access_denied"
          and parameters.get("state") == denied_request.state and parameters.get("iss") == base, denied.text)
    approved_after = decide(base, token, denied_reference)
    check("a denied reference cannot be approved afterwards", approved_after.status_code == 400, approved_after.text)
    for label, bad in (("a foreign (unknown) reference", "not-one-of-ours"), ("an empty reference", "")):
        refused = decide(base, token, bad)
        check(f"{label} is invalid_request", refused.status_code == 400
              and refused.json().get("error") == "invalid_request", refused.text)
    check("the denial and the refused references wrote no code", codes(database) == before)

    # Requests that break Simple Login's rules: invalid_request at the registered redirect_uri, nothing parked.
    def authorize(redirect_uri, **extra):
        form = {"client_id": "merchant-app", "redirect_uri": redirect_uri, "response_type": "code", "scope": "openid",
                "state": "st-1", "nonce": "n-1", "requested_flow": "app_to_app_v2", **extra}
        return Browser(port).call("GET", "/oauth2/authorize?" + urllib.parse.urlencode(form))

    for label, redirect_uri, extra in (
            ("without PKCE", REDIRECT, {}),
            ("with plain PKCE", REDIRECT, {"code_challenge": CHALLENGE, "code_challenge_method": "plain"}),
            ("with an http redirect_uri", HTTP_REDIRECT, {"code_challenge": CHALLENGE, "code_challenge_method": "S256"})):
        status, headers, _ = authorize(redirect_uri, **extra)
        location = headers.get("location", "")
        error = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(location).query))
        check(f"Simple Login {label} is invalid_request at that registered redirect_uri with the state",
              status == 302 and location.startswith(redirect_uri + "?") and error.get("error") == "invalid_request"
              and error.get("state") == "st-1" and "code" not in error, (status, location))
    status, headers, page = authorize(REDIRECT + "/", code_challenge=CHALLENGE, code_challenge_method="S256")
    check("an unregistered redirect_uri is a 400 page, never a redirect (RFC 6749 §4.1.2.1)",
          status == 400 and "location" not in headers and "invalid_request" in page, status)
    check("none of them wrote a code", codes(database) == before)


if __name__ == "__main__":
    sys.exit(main())
