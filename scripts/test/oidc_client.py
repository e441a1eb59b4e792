#!/usr/bin/env python3
"""OpenID Connect with a client that is not ours: Authlib (PyPI) against a running `signin-bridge serve`.

Discovery (`/.well-known/openid-configuration`) → authorization code flow with PKCE (S256) and nonce, signing in
through the server's own form as a browser does (flows/bridge.py) → ID token validated by Authlib against our JWKS
(signature, iss, aud, exp, iat, nonce, at_hash) → UserInfo with the access token. Then the negatives Authlib itself
must reject: a wrong nonce, an expired token, a wrong audience, a changed signature; and the server's own refusals:
a request without nonce from a client registered with requireNonce, UserInfo without or with a bad token (RFC 6750),
RP-initiated logout to an unregistered post_logout_redirect_uri.

Run with the test venv's Python (it has Authlib): .build/venv-test/bin/python scripts/test/oidc_client.py --binary …
Prints one line per check and ends with "N passed, N failed"; exits 1 on any failure.
"""
import argparse
import base64
import json
import sys
import time
import urllib.parse
from pathlib import Path

from authlib.integrations.requests_client import OAuth2Session
from authlib.jose import JsonWebKey, jwt
from authlib.jose.errors import BadSignatureError, ExpiredTokenError, InvalidClaimError
from authlib.oidc.core import CodeIDToken
import requests

sys.path.insert(0, str(Path(__file__).resolve().parent))
from flows.bridge import Browser, serving  # noqa: E402
from flows.tally import tally  # noqa: E402

CLIENT = "partner-app"
REDIRECT = "com.example.partner:/oauth2redirect"
SCOPE = "openid profile email"


def check(name, condition, detail=""):
    """The shared tally, with this script's argument order (the check's name first)."""
    tally.check(condition, name, detail)


def rejects(name, error_type, action):
    try:
        action()
    except error_type:
        check(name, True)
        return
    except Exception as error:  # noqa: BLE001 - any other error is a failure of this check
        check(name, False, f"raised {type(error).__name__}: {error}")
        return
    check(name, False, "accepted")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    args = parser.parse_args()
    with serving(args.binary) as port:
        run(port)
    return tally.summary()


def run(port):
    base = f"http://127.0.0.1:{port}"
    discovery = requests.get(base + "/.well-known/openid-configuration", timeout=10).json()
    oauth_metadata = requests.get(base + "/.well-known/oauth-authorization-server", timeout=10).json()
    check("discovery: issuer is the server", discovery["issuer"] == base, discovery["issuer"])
    check("discovery equals the RFC 8414 document", discovery == oauth_metadata)
    for member in ["userinfo_endpoint", "end_session_endpoint", "jwks_uri", "claims_supported"]:
        check(f"discovery lists {member}", member in discovery)
    # Discovery §3: RS256 MUST be included; ES256 stays available per client.
    check("discovery: RS256 and ES256 ID tokens", discovery["id_token_signing_alg_values_supported"] == ["RS256", "ES256"])
    check("discovery: public subjects", discovery["subject_types_supported"] == ["public"])
    jwks = JsonWebKey.import_key_set(requests.get(discovery["jwks_uri"], timeout=10).json())

    session = OAuth2Session(CLIENT, redirect_uri=REDIRECT, scope=SCOPE, code_challenge_method="S256")
    verifier = "v" * 10 + "-independent-client-code-verifier-of-enough-length"
    nonce = "n-" + str(time.time_ns())
    url, state = session.create_authorization_url(
        discovery["authorization_endpoint"], code_verifier=verifier, nonce=nonce)
    browser = Browser(port)
    parts = urllib.parse.urlsplit(url)
    callback = browser.walk(parts.path + "?" + parts.query, REDIRECT)
    token = session.fetch_token(
        discovery["token_endpoint"], authorization_response=callback, code_verifier=verifier, state=state)
    id_token = token.get("id_token")
    check("token response has an id_token", bool(id_token), json.dumps(token)[:200])

    def decode(client_id=CLIENT, expected_nonce=nonce, now=None, token_text=id_token):
        claims = jwt.decode(
            token_text, jwks, claims_cls=CodeIDToken, claims_options={"iss": {"value": discovery["issuer"]}},
            claims_params={"nonce": expected_nonce, "client_id": client_id, "access_token": token["access_token"]})
        claims.validate(now=now)
        return claims

    claims = decode()
    check("Authlib validates the ID token (signature, iss, aud, exp, nonce, at_hash)", claims["sub"] == "demo")
    header = json.loads(base64.urlsafe_b64decode(id_token.split(".")[0] + "=="))
    # Dynamic Client Registration §2: a client that names no id_token_signed_response_alg gets RS256.
    check("ID token header: RS256 with a kid from the JWKS",
          header.get("alg") == "RS256" and header.get("kid") in [k["kid"] for k in jwks.as_dict()["keys"]], header)
    check("ID token: auth_time present", isinstance(claims.get("auth_time"), int))
    check("ID token: azp is the client", claims.get("azp") == CLIENT)

    rejects("Authlib rejects a wrong nonce", InvalidClaimError, lambda: decode(expected_nonce="other-nonce"))
    rejects("Authlib rejects an expired ID token", ExpiredTokenError, lambda: decode(now=claims["exp"] + 3600))
    rejects("Authlib rejects a wrong audience", InvalidClaimError, lambda: decode(client_id="someone-else"))
    head, payload, signature = id_token.split(".")
    flipped = ("A" if signature[0] != "A" else "B") + signature[1:]
    rejects("Authlib rejects a changed signature", BadSignatureError,
            lambda: decode(token_text=".".join([head, payload, flipped])))

    userinfo = session.get(discovery["userinfo_endpoint"], timeout=10)
    info = userinfo.json()
    check("UserInfo GET: 200 with the ID token's sub", userinfo.status_code == 200 and info.get("sub") == claims["sub"],
          userinfo.text)
    check("UserInfo: profile and email claims", info.get("name") == "Demo User" and info.get("email") == "demo@example.com",
          info)
    check("UserInfo: no phone claim without scope phone", "phone_number" not in info, info)
    posted = session.post(discovery["userinfo_endpoint"], timeout=10)
    check("UserInfo POST: same claims", posted.status_code == 200 and posted.json() == info, posted.text)
    bare = requests.get(discovery["userinfo_endpoint"], timeout=10)
    check("UserInfo without a token: 401 Bearer challenge without error",
          bare.status_code == 401 and bare.headers.get("WWW-Authenticate", "").startswith("Bearer realm=")
          and "error=" not in bare.headers.get("WWW-Authenticate", ""), bare.headers)
    bad = requests.get(discovery["userinfo_endpoint"], headers={"Authorization": "Bearer not.a.token"}, timeout=10)
    check("UserInfo with a bad token: 401 invalid_token",
          bad.status_code == 401 and 'error="invalid_token"' in bad.headers.get("WWW-Authenticate", ""), bad.headers)

    # requireNonce: merchant-app registers it, so a request without nonce goes back with invalid_request.
    merchant = OAuth2Session("merchant-app", redirect_uri="com.example.merchant:/oauth2redirect", scope="openid",
                             code_challenge_method="S256")
    url, _ = merchant.create_authorization_url(discovery["authorization_endpoint"], code_verifier=verifier)
    parts = urllib.parse.urlsplit(url)
    status, headers, _ = browser.call("GET", parts.path + "?" + parts.query)
    location = headers.get("location", "")
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(location).query))
    check("requireNonce: a request without nonce is refused with invalid_request",
          status == 302 and location.startswith("com.example.merchant:/oauth2redirect")
          and query.get("error") == "invalid_request", location)

    # RP-initiated logout: an unregistered post_logout_redirect_uri is refused; a registered one ends the session.
    logout = urllib.parse.urlsplit(discovery["end_session_endpoint"]).path
    status, _, _ = browser.call("GET", logout + "?" + urllib.parse.urlencode(
        {"id_token_hint": id_token, "post_logout_redirect_uri": "com.example.partner:/elsewhere"}))
    check("logout to an unregistered post_logout_redirect_uri: 400 page", status == 400, status)
    status, headers, _ = browser.call("GET", logout + "?" + urllib.parse.urlencode(
        {"id_token_hint": id_token, "post_logout_redirect_uri": "com.example.partner:/signed-out", "state": "bye"}))
    check("logout with id_token_hint: redirect with state",
          status == 302 and headers.get("location") == "com.example.partner:/signed-out?state=bye", headers)
    again, _ = session.create_authorization_url(
        discovery["authorization_endpoint"], code_verifier=verifier, nonce="n2", prompt="none")
    parts = urllib.parse.urlsplit(again)
    status, headers, _ = browser.call("GET", parts.path + "?" + parts.query)
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(headers.get("location", "")).query))
    check("after logout, prompt=none answers login_required", query.get("error") == "login_required", headers)


if __name__ == "__main__":
    sys.exit(main())
