#!/usr/bin/env python3
"""OpenID Connect with a second client library that is not ours and that enforces OpenID Connect Discovery 1.0 §3:
idpyoidc (PyPI, the Identity Python project's OP/RP library). Its ProviderConfigurationResponse.verify refuses a
discovery document without RS256 in id_token_signing_alg_values_supported, as Discovery §3 requires ("The algorithm
RS256 MUST be included"); Authlib (scripts/test/oidc_client.py) does not check that, which is how an ES256-only
server once passed our own tests.

Per run: discovery (verified by idpyoidc) → authorization code flow with PKCE (S256), state and nonce, signing in
through the server's own form as a browser does (flows/bridge.py) → the token response and its ID token verified by
idpyoidc against our JWKS (signature, iss, aud, azp, exp, iat, at_hash; RFC 7515 / Core §3.1.3.7) → UserInfo
(Core §5.3.2: the same sub) → refresh (Core §12.2) → RP-initiated logout. Once for a client that names no algorithm
(RS256 by default, Dynamic Client Registration §2) and once for a client registered for ES256.

Run with the test venv's Python: .build/venv-test/bin/python scripts/test/oidc_idpyoidc.py --binary …
Prints one line per check and ends with "N passed, N failed"; exits 1 on any failure.
"""
import argparse
import base64
import hashlib
import json
import secrets
import sys
import urllib.parse
from pathlib import Path

import requests
from cryptojwt.key_jar import KeyJar
from idpyoidc import verified_claim_name
from idpyoidc.message.oidc import (AccessTokenResponse, AuthorizationRequest, AuthorizationResponse,
                                   OpenIDSchema, ProviderConfigurationResponse)

sys.path.insert(0, str(Path(__file__).resolve().parent))
from flows.bridge import Browser, serving  # noqa: E402
from flows.tally import tally  # noqa: E402

SCOPE = "openid profile email"
# Where idpyoidc puts the ID token's claims once it has verified them.
VERIFIED = verified_claim_name("id_token")
# A public client registered for ES256 ID tokens, beside the sample's partner-app (which names no algorithm).
ES256_CLIENT = """clients:
  - id: es256-app
    name: ES256 app
    public: true
    redirectUris: [com.example.es256:/oauth2redirect]
    grants: [authorization_code, refresh_token]
    scopes: [openid, profile, email]
    idTokenSignedResponseAlg: ES256
    postLogoutRedirectUris: [com.example.es256:/signed-out]
"""


def check(name, condition, detail=""):
    tally.check(condition, name, detail)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    args = parser.parse_args()
    with serving(args.binary, lambda text: text.replace("clients:\n", ES256_CLIENT, 1)) as port:
        provider, keyjar = discover(port)
        sign_in(port, provider, keyjar, "partner-app", "com.example.partner:/oauth2redirect", "RS256")
        sign_in(port, provider, keyjar, "es256-app", "com.example.es256:/oauth2redirect", "ES256")
    return tally.summary()


def discover(port):
    base = f"http://127.0.0.1:{port}"
    text = requests.get(base + "/.well-known/openid-configuration", timeout=10).text
    provider = ProviderConfigurationResponse().from_json(text)
    try:
        # Discovery §3's MUSTs as idpyoidc checks them; http is allowed only because the test server is on loopback.
        check("idpyoidc accepts the discovery document (Discovery §3, RS256 included)", provider.verify(allow_http=True))
    except Exception as error:  # noqa: BLE001 - the library's refusal is the failure this test exists for
        check("idpyoidc accepts the discovery document (Discovery §3, RS256 included)", False,
              f"{type(error).__name__}: {error}")
        raise
    algs = provider["id_token_signing_alg_values_supported"]
    check("discovery lists RS256 and ES256 for ID tokens", "RS256" in algs and "ES256" in algs, algs)
    jwks = requests.get(provider["jwks_uri"], timeout=10).json()
    check("every JWKS key has kid, alg and use=sig (RFC 7517 §4)",
          all(key.get("kid") and key.get("alg") and key.get("use") == "sig" for key in jwks["keys"]), jwks)
    keyjar = KeyJar()
    keyjar.import_jwks(json.loads(json.dumps(jwks)), provider["issuer"])  # a copy: import_jwks edits what it reads
    kinds = {(key["kty"], key.get("alg")) for key in jwks["keys"]}
    check("JWKS publishes an RSA key for RS256 and an EC key for ES256",
          ("RSA", "RS256") in kinds and ("EC", "ES256") in kinds, kinds)
    rsa = [key for key in jwks["keys"] if key["kty"] == "RSA"]
    modulus_bits = len(base64.urlsafe_b64decode(rsa[0]["n"] + "==")) * 8 if rsa else 0
    check("the RSA key has 2048 bits or more (RFC 7518 §3.3)", modulus_bits >= 2048, modulus_bits)
    return provider, keyjar


def sign_in(port, provider, keyjar, client_id, redirect_uri, expected_alg):
    label = f"{client_id} ({expected_alg})"
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    state, nonce = secrets.token_urlsafe(16), secrets.token_urlsafe(16)
    request = AuthorizationRequest(
        client_id=client_id, redirect_uri=redirect_uri, response_type="code", scope=SCOPE, state=state, nonce=nonce,
        code_challenge=challenge, code_challenge_method="S256")
    url = request.request(provider["authorization_endpoint"])
    parts = urllib.parse.urlsplit(url)
    callback = Browser(port).walk(parts.path + "?" + parts.query, redirect_uri)
    answer = AuthorizationResponse().from_urlencoded(urllib.parse.urlsplit(callback).query)
    check(f"{label}: authorization response verified, state returned",
          answer.verify() and answer["state"] == state, callback)

    token = requests.post(provider["token_endpoint"], data={
        "grant_type": "authorization_code", "code": answer["code"], "redirect_uri": redirect_uri,
        "client_id": client_id, "code_verifier": verifier}, timeout=10)
    response = AccessTokenResponse().from_json(token.text)
    verified = verify_tokens(response, keyjar, provider, client_id, label)
    claims = response.get(VERIFIED, {})
    check(f"{label}: the ID token carries the request's nonce", claims.get("nonce") == nonce, claims)
    header = json.loads(base64.urlsafe_b64decode(response["id_token"].split(".")[0] + "=="))
    check(f"{label}: the ID token is signed with {expected_alg}", header.get("alg") == expected_alg, header)

    userinfo = requests.get(provider["userinfo_endpoint"], timeout=10,
                            headers={"Authorization": f"Bearer {response['access_token']}"})
    info = OpenIDSchema().from_json(userinfo.text)
    check(f"{label}: UserInfo verified, same sub as the ID token (Core §5.3.2)",
          userinfo.status_code == 200 and info.verify() and verified and info["sub"] == claims.get("sub"),
          userinfo.text)

    refreshed = requests.post(provider["token_endpoint"], data={
        "grant_type": "refresh_token", "refresh_token": response["refresh_token"], "client_id": client_id}, timeout=10)
    renewed = AccessTokenResponse().from_json(refreshed.text)
    check(f"{label}: refresh gives a new access token", refreshed.status_code == 200
          and renewed.verify() and renewed["access_token"] != response["access_token"], refreshed.text[:200])
    if "id_token" in renewed:
        # Core §12.2: an ID token from a refresh keeps iss, sub and aud, and is verified like the first.
        verify_tokens(renewed, keyjar, provider, client_id, label + " after refresh")
        check(f"{label}: the refreshed ID token has the same sub",
              renewed.get(VERIFIED, {}).get("sub") == claims.get("sub"))

    logout = requests.get(provider["end_session_endpoint"], allow_redirects=False, timeout=10, params={
        "id_token_hint": response["id_token"], "post_logout_redirect_uri": redirect_uri.replace("oauth2redirect", "signed-out"),
        "state": "bye"})
    check(f"{label}: RP-initiated logout with id_token_hint returns to the registered URI",
          logout.status_code == 302 and logout.headers.get("location", "").endswith("signed-out?state=bye"),
          logout.headers)


def verify_tokens(response, keyjar, provider, client_id, label):
    """idpyoidc verifies the token response and its ID token: signature against our JWKS, iss, aud, azp, exp, iat and
    at_hash (Core §3.1.3.7, §3.1.3.8)."""
    try:
        verified = response.verify(keyjar=keyjar, iss=provider["issuer"], client_id=client_id, check_hash=True,
                                   skew=60)
    except Exception as error:  # noqa: BLE001 - any refusal by the library is the failure
        check(f"{label}: idpyoidc verifies the ID token", False, f"{type(error).__name__}: {error}")
        return False
    check(f"{label}: idpyoidc verifies the ID token (signature, iss, aud, azp, exp, iat, at_hash)",
          verified and VERIFIED in response)
    return verified


if __name__ == "__main__":
    sys.exit(main())
