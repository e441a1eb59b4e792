#!/usr/bin/env python3
"""DPoP (RFC 9449) with a client that is not ours: requests-oauth2client (PyPI) against a running `signin-bridge
serve` that requires nonces (`dpop.requireNonce`), as a public mobile app would use it.

Discovery → authorization code flow with PKCE, signing in through the server's own form as a browser does
(flows/bridge.py) → token request with a DPoP proof (the library retries on `use_dpop_nonce` with the server's
`DPoP-Nonce`) → UserInfo with the DPoP-bound token (the library retries on the resource's `use_dpop_nonce`
challenge) → refresh with a proof by the same key → UserInfo with the new token; once with the authorization request
in the browser's URL, once pushed first (RFC 9126: the browser's URL carries only client_id and request_uri). Then
the server's refusals: the bound refresh token without a proof, and the bound access token sent as a bearer token.
At the PAR endpoint (RFC 9449 §10.1), with proofs made by the library's DPoPKey: a proof and no dpop_jkt binds the
code to the proof's key (another key cannot redeem it); a dpop_jkt of another key, a forged signature and a header
that is no proof are refused with invalid_dpop_proof; a proof without the required nonce gets use_dpop_nonce.

Run with the test venv's Python: .build/venv-test/bin/python scripts/test/dpop_client.py --binary …
Prints one line per check and ends with "N passed, N failed"; exits 1 on any failure.
"""
import argparse
import sys
import urllib.parse
from pathlib import Path

import requests
from requests_oauth2client import BearerToken, DPoPKey, DPoPToken, OAuth2Client
from requests_oauth2client.exceptions import InvalidGrant

sys.path.insert(0, str(Path(__file__).resolve().parent))
from flows.bridge import Browser, serving  # noqa: E402
from flows.tally import check, tally  # noqa: E402

CLIENT = "partner-app"
REDIRECT = "com.example.partner:/oauth2redirect"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    args = parser.parse_args()
    with serving(args.binary, edit=lambda text: text + "\ndpop:\n  requireNonce: true\n") as port:
        run(port)
    return tally.summary()


def run(port):
    base = f"http://127.0.0.1:{port}"
    client = OAuth2Client.from_discovery_endpoint(
        base + "/.well-known/openid-configuration", client_id=CLIENT, redirect_uri=REDIRECT, testing=True)
    metadata = requests.get(base + "/.well-known/openid-configuration", timeout=10).json()
    check("ES256" in metadata.get("dpop_signing_alg_values_supported", []), "discovery lists the DPoP proof algorithms")

    for pushed in (False, True):
        refreshed, _ = bound_flow(client, port, pushed)

    # §5: the public client's refresh token is bound to the key, so without a proof it is refused.
    try:
        client.refresh_token(refreshed.refresh_token)
        check(False, "refresh without a proof is refused", "accepted")
    except InvalidGrant:
        check(True, "refresh without a proof is refused (invalid_grant)")
    # §10: the code of a request with dpop_jkt (sent by the library with dpop=True) needs a proof by that key.
    request = client.authorization_request(scope="openid wopi", dpop=True)
    parts = urllib.parse.urlsplit(str(request.uri))
    response = request.validate_callback(Browser(port).walk(parts.path + "?" + parts.query, REDIRECT))
    try:
        client.authorization_code(response.code, dpop=True, dpop_key=DPoPKey.generate(), validate=False,
                                  code_verifier=response.code_verifier, redirect_uri=REDIRECT)
        check(False, "a code bound with dpop_jkt, redeemed with another key, is refused", "accepted")
    except InvalidGrant:
        check(True, "a code bound with dpop_jkt, redeemed with another key, is refused (invalid_grant)")
    pushed_proofs(client, port, base)
    # §7.2: the bound access token presented as a bearer token is refused.
    answer = requests.get(metadata["userinfo_endpoint"], auth=BearerToken(refreshed.access_token), timeout=10)
    check(answer.status_code == 401 and 'error="invalid_token"' in answer.headers.get("WWW-Authenticate", ""),
          "the bound token as Bearer: 401 invalid_token", f"{answer.status_code} {answer.headers.get('WWW-Authenticate')}")


def pushed_proofs(client, port, base):
    """RFC 9449 §10.1 at the PAR endpoint, with proofs the library makes (DPoPKey.proof) sent by requests."""
    par = base + "/oauth2/par"
    key, other = DPoPKey.generate(), DPoPKey.generate()

    def push(proof, dpop_jkt=None):
        request = client.authorization_request(scope="openid wopi")
        form = {name: value for name, value in request.args.items() if name != "dpop_jkt"}
        form["client_id"] = CLIENT
        if dpop_jkt:
            form["dpop_jkt"] = dpop_jkt
        return request, requests.post(par, data=form, headers={"DPoP": str(proof)}, timeout=10)

    _, first = push(key.proof("POST", par))
    nonce = first.headers.get("DPoP-Nonce")
    check(first.status_code == 400 and first.json().get("error") == "use_dpop_nonce" and bool(nonce),
          "PAR: a proof without the required nonce gets use_dpop_nonce and DPoP-Nonce (§8)", first.text)
    for label, make_key in (("another key", lambda: other), ("the proof's key", lambda: key)):
        request, pushed = push(key.proof("POST", par, nonce=nonce))
        check(pushed.status_code == 201, f"PAR: a proof and no dpop_jkt is accepted (to be redeemed with {label})", pushed.text)
        query = urllib.parse.urlencode({"client_id": CLIENT, "request_uri": pushed.json().get("request_uri", "")})
        response = request.validate_callback(Browser(port).walk("/oauth2/authorize?" + query, REDIRECT))
        redeemer = make_key()
        redeemer.as_nonce = nonce
        try:
            token = client.authorization_code(response.code, dpop=True, dpop_key=redeemer, validate=False,
                                              code_verifier=response.code_verifier, redirect_uri=REDIRECT)
            check(redeemer is key and isinstance(token, DPoPToken),
                  f"PAR: the code is bound to the proof's key; redeemed with {label}", repr(token)[:200])
        except InvalidGrant:
            check(redeemer is other, f"PAR: the code is bound to the proof's key; redeemed with {label}", "invalid_grant")
    _, mismatched = push(key.proof("POST", par, nonce=nonce), dpop_jkt=other.dpop_jkt)
    check(mismatched.status_code == 400 and mismatched.json().get("error") == "invalid_dpop_proof",
          "PAR: a dpop_jkt of another key than the proof's is refused (invalid_dpop_proof)", mismatched.text)
    signing_input = str(key.proof("POST", par, nonce=nonce)).rsplit(".", 1)[0]
    zeros = signing_input + "." + "A" * 86
    for label, proof in (("an all-zero signature", zeros), ("DPoP: garbage", "garbage")):
        _, answer = push(proof)
        check(answer.status_code == 400 and answer.json().get("error") == "invalid_dpop_proof",
              f"PAR: {label} is refused (invalid_dpop_proof)", answer.text)


def bound_flow(client, port, pushed):
    """Authorize (in the URL, or pushed first) → token with DPoP → userinfo → refresh with DPoP → userinfo."""
    label = "PAR, " if pushed else ""
    request = client.authorization_request(scope="openid wopi", dpop=True)
    uri = str(request.uri)
    if pushed:
        uri = str(client.pushed_authorization_request(request).uri)
        query = urllib.parse.urlsplit(uri).query
        check(sorted(key for key, _ in urllib.parse.parse_qsl(query)) == ["client_id", "request_uri"],
              "PAR: the browser's URL carries only client_id and request_uri", query)
    parts = urllib.parse.urlsplit(uri)
    callback = Browser(port).walk(parts.path + "?" + parts.query, REDIRECT)
    response = request.validate_callback(callback)

    # validate=False: requests-oauth2client 1.8.0's ID token validation rebuilds a DPoPToken without its key
    # (TypeError: missing '_dpop_key'); oidc_client.py and oidc_idpyoidc.py check ID tokens.
    token = client.authorization_code(response, validate=False)
    check(isinstance(token, DPoPToken) and token.token_type == "DPoP", label + "token: a DPoP token", repr(token)[:200])
    check(token.access_token_jwt.claims.get("cnf") == {"jkt": request.dpop_key.dpop_jkt},
          label + "token: bound to the client's key", token.access_token_jwt.claims)
    check(bool(token.refresh_token), label + "token: a refresh token")

    claims = client.userinfo(token)
    check(bool(claims.get("sub")), label + "userinfo with the DPoP token", claims)

    refreshed = client.refresh_token(token)
    check(isinstance(refreshed, DPoPToken), label + "refresh with a proof by the same key: a DPoP token",
          repr(refreshed)[:200])
    check(refreshed.access_token != token.access_token and refreshed.refresh_token != token.refresh_token,
          label + "refresh: a new access and refresh token")
    check(client.userinfo(refreshed).get("sub") == claims.get("sub"), label + "userinfo with the refreshed token")
    return refreshed, claims


if __name__ == "__main__":
    sys.exit(main())
