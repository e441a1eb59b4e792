#!/usr/bin/env python3
"""Pushed authorization requests (RFC 9126) and the authorization response's `iss` (RFC 9207) with a client library
that is not ours: requests-oauth2client (PyPI). It reads the server's metadata, pushes the authorization request
(PKCE S256, state, nonce) with the client's credentials, sends the browser to the authorization endpoint with only
`client_id` and the `request_uri`, checks the callback's `state` and `iss` itself (RFC 9207 §2.4), and redeems the
code with the PKCE verifier.

Per run: a confidential client whose configuration requires PAR (client_secret_basic) and the sample's public
partner-app (no secret) each go PAR → authorize (signing in through the server's own form, flows/bridge.py) → token.
Then what must fail does: a `request_uri` used twice, one taken by another client, an authorize request without PAR
for the client that requires it, a wrong secret at the PAR endpoint, and `request_uri` pushed in a pushed request.

Run with the test venv's Python: .build/venv-test/bin/python scripts/test/par_client.py --binary …
Prints one line per check and ends with "N passed, N failed"; exits 1 on any failure.
"""
import argparse
import sys
import urllib.parse
from datetime import datetime, timezone
from pathlib import Path

import requests
from requests_oauth2client import OAuth2Client
from requests_oauth2client.exceptions import InvalidClient, InvalidRequest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from flows.bridge import Browser, serving  # noqa: E402
from flows.tally import expect as check, tally  # noqa: E402

# A confidential client that must use PAR (RFC 9126 §5), with the sample office client's secret hash.
PAR_CLIENT = """clients:
  - id: par-app
    name: PAR app
    secretHash: sha256:6e15e3912e04b1b7a42a4b562c390a7054a80b3092cc2283c9e74dd9eada34b7
    redirectUris: [https://par.example.com/cb]
    grants: [authorization_code]
    scopes: [openid, profile]
    requirePushedAuthorizationRequests: true
"""
PAR_SECRET = "office-demo-secret"
PAR_REDIRECT = "https://par.example.com/cb"
PARTNER_REDIRECT = "com.example.partner:/oauth2redirect"
REQUEST_URI_PREFIX = "urn:ietf:params:oauth:request_uri:"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    args = parser.parse_args()
    with serving(args.binary, lambda text: text.replace("clients:\n", PAR_CLIENT, 1)) as port:
        base = f"http://127.0.0.1:{port}"
        metadata = requests.get(base + "/.well-known/oauth-authorization-server", timeout=10).json()
        check("metadata names the PAR endpoint (RFC 9126 §5)",
              metadata.get("pushed_authorization_request_endpoint") == base + "/oauth2/par", metadata)
        check("metadata: PAR is not required server-wide",
              metadata.get("require_pushed_authorization_requests") is False, metadata)
        check("metadata: iss is sent on authorization responses (RFC 9207 §3)",
              metadata.get("authorization_response_iss_parameter_supported") is True, metadata)
        confidential = client(base, "par-app", PAR_REDIRECT, PAR_SECRET)
        flow(port, confidential, "par-app (client_secret_basic)", PAR_REDIRECT)
        public = client(base, "partner-app", PARTNER_REDIRECT, None)
        flow(port, public, "partner-app (public)", PARTNER_REDIRECT)
        refusals(port, base, confidential, public)
    return tally.summary()


def client(base, client_id, redirect_uri, secret):
    """The library's client from our discovery document (testing=True only because the server is on http loopback)."""
    return OAuth2Client.from_discovery_endpoint(
        url=base + "/.well-known/openid-configuration", issuer=base, testing=True, client_id=client_id,
        client_secret=secret, redirect_uri=redirect_uri)


def flow(port, oauth, label, redirect_uri):
    request = oauth.authorization_request(scope="openid profile")
    pushed = oauth.pushed_authorization_request(request)
    lifetime = (pushed.expires_at - datetime.now(timezone.utc)).total_seconds() if pushed.expires_at else 0
    check(f"{label}: PAR answers a request_uri URN and its lifetime (RFC 9126 §2.2)",
          pushed.request_uri.startswith(REQUEST_URI_PREFIX) and 0 < lifetime <= 600, (pushed.request_uri, lifetime))
    query = urllib.parse.urlsplit(pushed.uri).query
    check(f"{label}: the browser's URL carries only client_id and request_uri",
          sorted(key for key, _ in urllib.parse.parse_qsl(query)) == ["client_id", "request_uri"], query)
    callback = Browser(port).walk("/oauth2/authorize?" + query, redirect_uri)
    try:
        response = request.validate_callback(callback)
        check(f"{label}: the library accepts the callback's state and iss (RFC 9207 §2.4)", bool(response.code))
    except Exception as error:  # noqa: BLE001 - the library's refusal is the failure this test exists for
        check(f"{label}: the library accepts the callback's state and iss (RFC 9207 §2.4)", False,
              f"{type(error).__name__}: {error}: {callback}")
        return
    # The same callback naming another issuer is what a mix-up looks like (RFC 9207 §2.4): the library must refuse it.
    parameters = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(callback).query))
    forged = redirect_uri + "?" + urllib.parse.urlencode({**parameters, "iss": "https://evil.example"})
    try:
        request.validate_callback(forged)
        check(f"{label}: a callback with another iss is refused by the library", False, "accepted")
    except Exception as error:  # noqa: BLE001 - which refusal it is, is the check
        check(f"{label}: a callback with another iss is refused by the library",
              type(error).__name__ == "MismatchingIssuer", type(error).__name__)
    token = oauth.authorization_code(response, validate=False)
    check(f"{label}: the code is redeemed with the PKCE verifier (RFC 7636 §4.5)",
          bool(token.access_token) and token.token_type.lower() == "bearer", token)
    check(f"{label}: scope=openid brings an ID token", bool(token.id_token))
    again = Browser(port).call("GET", "/oauth2/authorize?" + query)
    check(f"{label}: a used request_uri is refused (single use) with invalid_request_uri",
          again[0] == 400 and "invalid_request_uri" in again[2], again[:2])


def refusals(port, base, confidential, public):
    stolen = confidential.pushed_authorization_request(confidential.authorization_request(scope="openid"))
    query = urllib.parse.urlencode({"client_id": "partner-app", "request_uri": stolen.request_uri})
    status, _, page = Browser(port).call("GET", "/oauth2/authorize?" + query)
    check("another client's request_uri is invalid_request_uri", status == 400 and "invalid_request_uri" in page,
          status)
    direct = urllib.parse.urlsplit(confidential.authorization_request(scope="openid").uri).query
    status, headers, page = Browser(port).call("GET", "/oauth2/authorize?" + direct)
    check("a client that requires PAR is refused without it (RFC 9126 §5)",
          status == 400 and "location" not in headers and "invalid_request" in page, status)
    wrong = OAuth2Client.from_discovery_endpoint(
        url=base + "/.well-known/openid-configuration", issuer=base, testing=True, client_id="par-app",
        client_secret="wrong-secret", redirect_uri=PAR_REDIRECT)
    try:
        wrong.pushed_authorization_request(wrong.authorization_request(scope="openid"))
        check("a wrong client secret at the PAR endpoint is invalid_client", False, "accepted")
    except InvalidClient:
        check("a wrong client secret at the PAR endpoint is invalid_client", True)
    answer = requests.post(base + "/oauth2/par", timeout=10, data={
        "client_id": "partner-app", "response_type": "code", "redirect_uri": PARTNER_REDIRECT,
        "request_uri": "urn:example:x", "code_challenge": "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
        "code_challenge_method": "S256"})
    check("request_uri inside a pushed request is invalid_request (RFC 9126 §2.1)",
          answer.status_code == 400 and answer.json().get("error") == "invalid_request", answer.text)
    try:
        public.pushed_authorization_request(public.authorization_request(scope="openid", redirect_uri="https://evil.example/cb"))
        check("an unregistered redirect_uri is refused at push time", False, "accepted")
    except InvalidRequest:
        check("an unregistered redirect_uri is refused at push time", True)


if __name__ == "__main__":
    sys.exit(main())
