#!/usr/bin/env python3
"""OpenID Connect Native SSO for Mobile Apps 1.0 (draft 07) with clients that are not ours: requests-oauth2client
(PyPI) plays two apps of one vendor, jwcrypto verifies the ID tokens against the server's JWKS, and `ds_hash` and
`sid` are checked here, independently of the server's code.

App A signs in (code + PKCE, scope `openid profile device_sso`) and gets a `device_secret` with an ID token carrying `sid`
and `ds_hash` (§3.4). App B exchanges that ID token and the secret (§4.2: subject_token = the ID token, actor_token
= the device secret) for its own tokens and calls UserInfo. Then the refusals of §4.3, each with its error code and
no grant recorded in the store: another device's secret, another user's ID token, a client of another SSO group, a
client without a group, a secret ended by logout, by revocation (RFC 7009, hint `device_secret`) and by expiry.

Run with the test venv's Python: .build/venv-test/bin/python scripts/test/native_sso.py --binary …
Prints one line per check and ends with "N passed, N failed"; exits 1 on any failure.
"""
import argparse
import base64
import hashlib
import json
import re
import sqlite3
import sys
import time
import urllib.parse
from pathlib import Path

import requests
from jwcrypto import jwk, jwt
from requests_oauth2client import BearerToken, OAuth2Client

sys.path.insert(0, str(Path(__file__).resolve().parent))
from flows.bridge import DEMO_PASSWORD, Browser, serving  # noqa: E402
from flows.tally import check, tally  # noqa: E402

DEVICE_SECRET = "urn:openid:params:token-type:device-secret"
GROUP_CLIENTS = """
  - id: nsso-app-a
    public: true
    firstParty: true
    ssoGroup: example-merchant
    redirectUris: [com.example.ssoa:/cb]
    grants: [authorization_code, refresh_token]
    scopes: [openid, profile, email, device_sso]
    postLogoutRedirectUris: [com.example.ssoa:/signed-out]
  - id: nsso-app-b
    public: true
    firstParty: true
    ssoGroup: example-merchant
    redirectUris: [com.example.ssob:/cb]
    grants: [authorization_code, refresh_token, "urn:ietf:params:oauth:grant-type:token-exchange"]
    scopes: [openid, profile, email, device_sso]
  - id: nsso-other-vendor
    public: true
    ssoGroup: other-merchant
    redirectUris: [com.example.other:/cb]
    grants: [authorization_code, "urn:ietf:params:oauth:grant-type:token-exchange"]
    scopes: [openid, device_sso]
  - id: nsso-no-group
    public: true
    merchant: lonely
    redirectUris: [com.example.nogroup:/cb]
    grants: [authorization_code, "urn:ietf:params:oauth:grant-type:token-exchange"]
    scopes: [openid]
"""
# A second account (same demo password hash) for "an ID token of another user".
OTHER_USER = """
  - id: other
    signInName: other@example.com
    passwordHash: $2b$12$spZMyuggXL3hVlAEWn6Ji.2/o./7RYcPQD49gPV/Me1vHSjTCvTuS
"""


def edit(database):
    def apply(text):
        database.append(re.search(r"path: (\S+bridge\.sqlite)", text).group(1))
        text = text.replace("\nclients:\n", "\nclients:\n" + GROUP_CLIENTS.lstrip("\n"), 1)
        return text.replace("\nusers:\n", "\nusers:\n" + OTHER_USER.lstrip("\n"), 1)
    return apply


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    args = parser.parse_args()
    database = []
    with serving(args.binary, edit=edit(database)) as port:
        run(port, database[0])
    return tally.summary()


class App:
    """One native app: a public client of the server, as requests-oauth2client is configured for it."""

    def __init__(self, base, client_id, redirect):
        self.id, self.redirect = client_id, redirect
        self.client = OAuth2Client.from_discovery_endpoint(
            base + "/.well-known/openid-configuration", client_id=client_id, redirect_uri=redirect, testing=True)

    def sign_in(self, port, user="demo@example.com", scope="openid profile device_sso"):
        request = self.client.authorization_request(scope=scope)
        parts = urllib.parse.urlsplit(str(request.uri))
        browser = Browser(port, user=user, password=DEMO_PASSWORD)
        response = request.validate_callback(browser.walk(parts.path + "?" + parts.query, self.redirect))
        return self.client.authorization_code(
            response.code, validate=False, code_verifier=response.code_verifier, redirect_uri=self.redirect)

    def exchange(self, id_token, device_secret, **extra):
        return self.client.token_exchange(
            subject_token=str(id_token), subject_token_type="id_token", actor_token=device_secret,
            actor_token_type=DEVICE_SECRET, **extra)


def run(port, database):
    base = f"http://127.0.0.1:{port}"
    metadata = requests.get(base + "/.well-known/openid-configuration", timeout=10).json()
    check(metadata.get("native_sso_supported") is True, "discovery: native_sso_supported (draft 07 section 5)")
    check("device_sso" in metadata["scopes_supported"], "discovery: device_sso in scopes_supported (section 3.1)")
    keys = jwk.JWKSet.from_json(requests.get(metadata["jwks_uri"], timeout=10).text)

    app_a = App(base, "nsso-app-a", "com.example.ssoa:/cb")
    app_b = App(base, "nsso-app-b", "com.example.ssob:/cb")

    # §3.4.2: the code grant with device_sso returns a device_secret; §3.4.1: the ID token carries sid and ds_hash.
    signed_in = app_a.sign_in(port)
    secret = signed_in.kwargs.get("device_secret")
    check(isinstance(secret, str) and len(base64.urlsafe_b64decode(secret + "=" * (-len(secret) % 4))) >= 32,
          "section 3.4.2: app A's token response has a device_secret of at least 256 bits", secret)
    claims_a = verified(keys, signed_in.id_token, metadata["issuer"], "nsso-app-a")
    check(claims_a.get("ds_hash") == ds_hash(secret, jose_alg(signed_in.id_token)),
          "section 3.4.1: ds_hash is the left half of SHA-256 of the device secret, base64url (computed here)",
          claims_a)
    check(bool(claims_a.get("sid")), "section 3.4.1: the ID token carries sid", claims_a)

    # §4.2 / §4.4: app B presents A's ID token and the secret and gets its own tokens.
    grants_before = grants(database, "nsso-app-b")
    tokens_b = app_b.exchange(signed_in.id_token, secret, audience=metadata["issuer"], scope="openid profile")
    check(tokens_b.kwargs.get("issued_token_type") == "urn:ietf:params:oauth:token-type:access_token",
          "section 4.4: issued_token_type is an access token", tokens_b.kwargs)
    claims_b = verified(keys, tokens_b.id_token, metadata["issuer"], "nsso-app-b")
    check(claims_b["sub"] == claims_a["sub"] and claims_b.get("sid") == claims_a["sid"]
          and claims_b.get("ds_hash") == claims_a["ds_hash"],
          "section 4.4: app B's ID token is for the same user, sid and ds_hash", claims_b)
    check(bool(tokens_b.refresh_token), "app B may refresh: its response has a refresh token")
    check("device_secret" not in tokens_b.kwargs, "the device secret is not rotated: none in the exchange response")
    check(grants(database, "nsso-app-b") == grants_before + 1, "the exchange recorded one grant for app B")
    info = requests.get(metadata["userinfo_endpoint"], auth=BearerToken(tokens_b.access_token), timeout=10)
    check(info.status_code == 200 and info.json().get("sub") == claims_a["sub"]
          and info.json().get("preferred_username") == "demo@example.com",
          "app B's access token works at UserInfo", f"{info.status_code} {info.text[:200]}")
    refreshed = app_b.client.refresh_token(tokens_b.refresh_token)
    check(bool(refreshed.access_token), "app B's refresh token works")
    # Without `scope`, app B gets openid only; without `audience` the request is as good.
    plain = app_b.exchange(signed_in.id_token, secret)
    check(plain.scope == "openid", "no scope asked: openid", plain.scope)

    # Refusals (§4.3): each with the error code, and no grant recorded for the client that asked.
    second = app_a.sign_in(port)
    other_user = app_a.sign_in(port, user="other@example.com")
    refused(database, app_b, "another device's secret (another sign-in's) with A's ID token", "invalid_grant",
            signed_in.id_token, second.kwargs["device_secret"])
    refused(database, app_b, "another user's ID token with A's secret", "invalid_grant",
            other_user.id_token, secret)
    refused(database, app_b, "another session's ID token (same user) with A's secret", "invalid_grant",
            second.id_token, secret)
    other_vendor = App(base, "nsso-other-vendor", "com.example.other:/cb")
    refused(database, other_vendor, "a client of another SSO group", "invalid_grant", signed_in.id_token, secret)
    theirs = other_vendor.sign_in(port, scope="openid device_sso")
    refused(database, app_b, "a device secret (and its ID token) of another SSO group", "invalid_grant",
            theirs.id_token, theirs.kwargs["device_secret"])
    refused(database, App(base, "nsso-no-group", "com.example.nogroup:/cb"),
            "a client without an SSO group", "unauthorized_client", signed_in.id_token, secret)
    refused(database, app_b, "a forged ID token (payload changed, signature kept)", "invalid_grant",
            forged(signed_in.id_token, sub="other"), secret)
    refused(database, app_b, "a scope wider than app A was granted", "invalid_scope",
            signed_in.id_token, secret, scope="openid email")
    refused(database, app_b, "an audience that is not this issuer", "invalid_target",
            signed_in.id_token, secret, audience="https://elsewhere.example")
    refused(database, app_b, "the device secret missing (actor_token)", "invalid_request",
            signed_in.id_token, None)

    # Revocation (RFC 7009 with our token_type_hint device_secret) makes the secret stale: it worked just before.
    check(bool(app_b.exchange(second.id_token, second.kwargs["device_secret"]).access_token),
          "the second device's secret works before its revocation")
    answer = requests.post(metadata["revocation_endpoint"], timeout=10, data={
        "token": second.kwargs["device_secret"], "token_type_hint": "device_secret", "client_id": "nsso-app-b"})
    check(answer.status_code == 200, "revocation of a device secret by a client of its group: 200", answer.status_code)
    refused(database, app_b, "a device secret after revocation", "invalid_grant",
            second.id_token, second.kwargs["device_secret"])

    # Logout with A's ID token as id_token_hint ends that device session (its sid).
    answer = requests.get(metadata["end_session_endpoint"], timeout=10, allow_redirects=False,
                          params={"id_token_hint": signed_in.id_token})
    check(answer.status_code in (200, 302, 303), "logout with app A's ID token", answer.status_code)
    refused(database, app_b, "a device secret after logout of its sid", "invalid_grant", signed_in.id_token, secret)

    expired_secret(database, app_a, app_b, port)


def expired_secret(database, app_a, app_b, port):
    """An expired secret: the store's row is moved into the past (the schema's shortest lifetime is 5 minutes)."""
    signed_in = app_a.sign_in(port)
    check(bool(app_b.exchange(signed_in.id_token, signed_in.kwargs["device_secret"]).access_token),
          "a fresh device secret works before it expires")
    digest = hashlib.sha256(signed_in.kwargs["device_secret"].encode()).hexdigest()
    with sqlite3.connect(database, timeout=10) as connection:
        changed = connection.execute(
            "UPDATE device_sessions SET expires_at = ? WHERE digest = ?", (int(time.time() * 1000) - 1000, digest)).rowcount
    check(changed == 1, "the new device session is in the store, found by the secret's SHA-256 (never the secret)")
    refused(database, app_b, "an expired device secret", "invalid_grant", signed_in.id_token,
            signed_in.kwargs["device_secret"])


def refused(database, app, what, error, id_token, secret, **extra):
    before = grants(database, app.id)
    try:
        app.exchange(id_token, secret, **extra)
        check(False, f"refused: {what}", "tokens were issued")
        return
    except Exception as failure:  # requests-oauth2client raises one class per error code
        code = getattr(failure, "error", None)
        status = getattr(getattr(failure, "response", None), "status_code", None)
        check(code == error and status in (400, 401), f"refused: {what} ({error})", f"{status} {code} {failure!r}")
    check(grants(database, app.id) == before, f"nothing issued: {what}")


def grants(database, client_id):
    with sqlite3.connect(database, timeout=10) as connection:
        return connection.execute("SELECT count(*) FROM grants WHERE client_id = ?", (client_id,)).fetchone()[0]


def verified(keys, id_token, issuer, audience):
    """The ID token's claims after jwcrypto checked its signature with the server's JWKS, and iss and aud here."""
    token = jwt.JWT(jwt=str(id_token), key=keys, check_claims={"iss": issuer, "aud": audience})
    return json.loads(token.claims)


def jose_alg(id_token):
    header = str(id_token).split(".")[0]
    return json.loads(base64.urlsafe_b64decode(header + "=" * (-len(header) % 4)))["alg"]


def ds_hash(secret, alg):
    """at_hash's construction (OpenID Connect Core 3.1.3.6), the binding draft 07 §3.4.1 leaves to the AS."""
    digest = {"RS256": hashlib.sha256, "ES256": hashlib.sha256}[alg](secret.encode("ascii")).digest()
    return base64.urlsafe_b64encode(digest[: len(digest) // 2]).rstrip(b"=").decode()


def forged(id_token, **claims):
    header, payload, signature = str(id_token).split(".")
    data = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    data.update(claims)
    payload = base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()
    return ".".join([header, payload, signature])


if __name__ == "__main__":
    sys.exit(main())
