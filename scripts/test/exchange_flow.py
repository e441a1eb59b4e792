#!/usr/bin/env python3
"""Exchange codes and RFC 8693 token exchange against a live `signin-bridge serve` (the sample configuration, SQLite,
a free port), as the apps would use them: the demo user signs in to partner-app (PKCE) in a browser; the app asks
`POST /oauth/exchange` for a code its back end (files-backend, same merchant) redeems once, and for a session code a
second browser opens at /auth/session/{code}; the back end swaps the app's token by token exchange. Standard library
only. Ends with the line "N passed, N failed"; exits 1 on any failure.
"""
import argparse
import json
import sys
import tempfile
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from flows.bridge import Browser, Server, free_port, pkce_pair, request, token_request, write_config  # noqa: E402

BACKEND = ("files-backend", "backend-demo-secret")
TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange"
ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token"
from flows.tally import check, tally  # noqa: E402


def post_form(port, path, form, headers=None):
    status, response_headers, content = request(
        "127.0.0.1", port, "POST", path, urllib.parse.urlencode(form),
        {"Content-Type": "application/x-www-form-urlencoded", **(headers or {})})
    return status, json.loads(content or b"{}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    binary = parser.parse_args().binary
    with tempfile.TemporaryDirectory() as work:
        port = free_port()
        server = Server(binary, write_config(Path(work), port), port, Path(work) / "serve.log").start()
        try:
            run(port)
        finally:
            server.stop()
    return tally.summary()


def run(port):
    verifier, challenge = pkce_pair()
    redirect = "com.example.partner:/oauth2redirect"
    browser = Browser(port)
    code = browser.authorize(client_id="partner-app", redirect_uri=redirect, challenge=challenge)["code"]
    status, tokens = post_form(port, "/oauth2/token", {
        "grant_type": "authorization_code", "code": code, "redirect_uri": redirect, "client_id": "partner-app",
        "code_verifier": verifier})
    check(status == 200, "partner-app signs the demo user in (PKCE)")
    bearer = {"Authorization": "Bearer " + tokens["access_token"]}

    status, issued = post_form(port, "/oauth/exchange", {"clientId": "files-backend", "type": "code"}, bearer)
    check(status == 200 and issued.get("expires_in") == 30, "type=code: a 30 s code for files-backend")
    form = {"grant_type": "authorization_code", "code": issued["code"]}
    status, redeemed = token_request(port, form, BACKEND)
    check(status == 200 and "access_token" in redeemed, "files-backend redeems it with its own credentials")
    status, replay = token_request(port, form, BACKEND)
    check(status == 400 and replay.get("error") == "invalid_grant", "a second redemption is invalid_grant")
    status, refused = post_form(port, "/oauth/exchange", {"clientId": "office", "type": "code"}, bearer)
    # RFC 6750 §3.1: the app's token was good; only its request was not, so 400 and never a 401 for a good token.
    check(status == 400 and refused.get("error") == "invalid_request", "a client of no merchant is a 400 invalid_request")

    status, session = post_form(port, "/oauth/exchange", {"clientId": "files-backend", "type": "session"}, bearer)
    check(status == 200 and session.get("expires_in") == 60, "type=session: a 60 s code")
    web_view = Browser(port)
    status, headers, _ = web_view.call("GET", "/auth/session/" + session["code"])
    check(status == 302 and headers.get("location") == "https://files.example.com/signed-in",
          "the web view is sent to files-backend's registered redirect URI")
    check("sib_session" in web_view.cookies, "with the session cookie")
    status, headers, _ = Browser(port).call("GET", "/auth/session/" + session["code"])
    check(status == 400 and "set-cookie" not in headers, "a second opening is refused without a cookie")

    exchange = {"grant_type": TOKEN_EXCHANGE, "subject_token": tokens["access_token"],
                "subject_token_type": ACCESS_TOKEN_TYPE, "audience": "files-backend"}
    status, swapped = token_request(port, exchange, BACKEND)
    check(status == 200 and swapped.get("issued_token_type") == ACCESS_TOKEN_TYPE,
          "token exchange gives files-backend its own access token")
    status, target = token_request(port, {**exchange, "audience": "office"}, BACKEND)
    check(status == 400 and target.get("error") == "invalid_target", "an audience of no merchant is invalid_target")


if __name__ == "__main__":
    sys.exit(main())
