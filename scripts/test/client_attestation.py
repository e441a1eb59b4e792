#!/usr/bin/env python3
"""Attestation-based client authentication (draft-ietf-oauth-attestation-based-client-auth-11) against a running
`signin-bridge serve`, with the attester and the client played by code that is not ours: keys from `cryptography`,
JWTs signed by jwcrypto, the OAuth client requests-oauth2client (PyPI) with the two headers added by its own
extension point (a `requests` auth handler).

Two attested clients: `attested-app`, a public native app with `attestation.required` (authorization code with
PKCE, refresh, PAR, revocation), and `attested-service`, a client without a secret that authenticates with its
attestation alone (client_credentials). One attester's key is inline (JWK), the other's in a PEM file (`keyFile`).
Then the refusals: each is 401 with the draft's code (or `invalid_client`), a challenge, no token in the body, and
no access token in the store.

Run with the test venv's Python: .build/venv-test/bin/python scripts/test/client_attestation.py --binary …
Prints one line per check and ends with "N passed, N failed"; exits 1 on any failure.
"""
import argparse
import json
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.parse
import uuid
from pathlib import Path

import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from jwcrypto import jwk, jwt
from requests_oauth2client import DPoPKey, DPoPToken, OAuth2Client, PublicApp
from requests_oauth2client.exceptions import InvalidGrant

sys.path.insert(0, str(Path(__file__).resolve().parent))
from flows.bridge import Browser, Server, free_port, write_config  # noqa: E402
from flows.tally import check, tally  # noqa: E402

APP = "attested-app"
SERVICE = "attested-service"
APP_REDIRECT = "com.example.attested:/oauth2redirect"
ATTESTER = "https://attester.example.com"
PEM_ATTESTER = "https://platform-attester.example.com"


def key_pair():
    """A P-256 key from `cryptography`, as jwcrypto's JWK (private) and its public JWK (a dict)."""
    private = ec.generate_private_key(ec.SECP256R1())
    pem = private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
    key = jwk.JWK.from_pem(pem)
    return key, json.loads(key.export_public())


def pem_public(key):
    return key.export_to_pem(private_key=False, password=None).decode()


def sign(key, header, claims):
    token = jwt.JWT(header=dict(header, alg="ES256"), claims=claims)
    token.make_signed_token(key)
    return token.serialize()


class Attester:
    """The client's backend (§1 steps 2–4): signs Client Attestation JWTs binding a client instance key."""

    def __init__(self, name, key, kid=None):
        self.name, self.key, self.kid = name, key, kid

    def attest(self, client_id, instance_public, lifetime=3600, issued=None, **extra):
        now = int(time.time()) if issued is None else issued
        header = {"typ": "oauth-client-attestation+jwt"}
        if self.kid:
            header["kid"] = self.kid
        claims = {"iss": self.name, "sub": client_id, "iat": now, "exp": now + lifetime,
                  "cnf": {"jwk": instance_public}}
        claims.update(extra)
        return sign(self.key, header, claims)


def pop(instance_key, audience, **extra):
    """A Client Attestation PoP JWT (§5.1), fresh `jti` and `iat`."""
    claims = {"aud": audience, "jti": str(uuid.uuid4()), "iat": int(time.time())}
    claims.update(extra)
    return sign(instance_key, {"typ": "oauth-client-attestation-pop+jwt"}, claims)


class ClientAttestationAuth(requests.auth.AuthBase):
    """requests-oauth2client's `none` method (its PublicApp) plus the two headers of §7.5, a new PoP every request."""

    def __init__(self, client_id, attestation, instance_key, audience):
        self.client_id, self.public = client_id, PublicApp(client_id)
        self.attestation, self.instance_key, self.audience = attestation, instance_key, audience

    def __call__(self, request):
        request = self.public(request)
        request.headers["OAuth-Client-Attestation"] = self.attestation
        request.headers["OAuth-Client-Attestation-PoP"] = pop(self.instance_key, self.audience)
        return request


def config_edit(inline_public, pem_path):
    clients = f"""clients:
  - id: {APP}
    name: Attested App
    public: true
    firstParty: true
    attestation: {{required: true}}
    redirectUris: [{APP_REDIRECT}]
    grants: [authorization_code, refresh_token]
    scopes: [wopi, openid]
  - id: {SERVICE}
    attestation: {{required: true}}
    redirectUris: [https://service.example.com/cb]
    grants: [client_credentials]
"""
    attestation = f"""
clientAttestation:
  attesters:
    - issuer: {ATTESTER}
      jwks: [{json.dumps(inline_public)}]
    - issuer: {PEM_ATTESTER}
      keyFile: {pem_path}
"""

    def edit(text):
        return text.replace("clients:\n", clients, 1) + attestation
    return edit


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    args = parser.parse_args()
    attester_key, attester_public = key_pair()
    attester_public["kid"] = "attester-1"
    pem_key, _ = key_pair()
    with tempfile.TemporaryDirectory() as directory:
        folder = Path(directory)
        pem_path = folder / "platform-attester.pem"
        pem_path.write_text(pem_public(pem_key))
        port = free_port()
        config = write_config(folder, port)
        config.write_text(config_edit(attester_public, pem_path)(config.read_text()))
        server = Server(args.binary, config, port, folder / "server.log").start()
        try:
            attesters = (Attester(ATTESTER, attester_key, kid="attester-1"), Attester(PEM_ATTESTER, pem_key))
            run(port, folder / "bridge.sqlite", args.binary, *attesters)
        finally:
            server.stop()
    return tally.summary()


def run(port, database, binary, attester, pem_attester):
    base = f"http://127.0.0.1:{port}"
    metadata = requests.get(base + "/.well-known/oauth-authorization-server", timeout=10).json()
    issuer, token_endpoint = metadata["issuer"], metadata["token_endpoint"]
    # §8: the method and the algorithms are advertised once an attester is configured.
    for member in ("token_endpoint_auth_methods_supported", "revocation_endpoint_auth_methods_supported",
                   "introspection_endpoint_auth_methods_supported"):
        check("attest_jwt_client_auth" in metadata.get(member, []), f"metadata: {member} has attest_jwt_client_auth")
    check("ES256" in metadata.get("client_attestation_signing_alg_values_supported", []) and
          "ES256" in metadata.get("client_attestation_pop_signing_alg_values_supported", []),
          "metadata: client_attestation(_pop)_signing_alg_values_supported list ES256 (section 8)")

    app_flow(base, issuer, attester)
    attested_refresh_needs_attestation(base, issuer, attester)
    service_key, service_public = key_pair()
    service_attestation = pem_attester.attest(SERVICE, service_public)
    service = OAuth2Client(token_endpoint, auth=ClientAttestationAuth(SERVICE, service_attestation, service_key, issuer),
                           testing=True)
    token = service.client_credentials(scope="wopi")
    check(bool(token.access_token), "client_credentials with an attestation from the PEM-configured attester")

    refusals(token_endpoint, issuer, database, attester, pem_attester)
    conformance(base, binary, attester.key, database.parent)


def conformance(base, binary, attester_key, folder):
    """`signin-bridge conform --only attestation`, playing the inline attester: every check passes against us."""
    key_file = folder / "attester-private.pem"
    key_file.write_bytes(attester_key.export_to_pem(private_key=True, password=None))
    run = subprocess.run([binary, "conform", "--issuer", base, "--insecure-http-loopback", "--only", "attestation",
                          "--attester-key", str(key_file), "--attested-client-id", APP,
                          "--public-client-id", "partner-app", "--public-redirect-uri", "com.example.partner:/oauth2redirect",
                          "--format", "json"], capture_output=True, text=True, timeout=120)
    results = json.loads(run.stdout)["results"] if run.stdout.strip() else []
    statuses = {r["check"]["id"]: r["status"] for r in results if r["check"]["id"].startswith("attestation.")}
    check(len(statuses) >= 7 and set(statuses.values()) == {"PASS"},
          f"conform --only attestation: all {len(statuses)} checks pass against this server", f"{statuses} {run.stderr[-300:]}")


def app_flow(base, issuer, attester):
    """§7.5: a public native app authenticated by its attestation through code + PKCE, PAR, refresh, revocation."""
    instance_key, instance_public = key_pair()
    attestation = attester.attest(APP, instance_public)
    auth = ClientAttestationAuth(APP, attestation, instance_key, issuer)
    client = OAuth2Client.from_discovery_endpoint(
        base + "/.well-known/openid-configuration", auth=auth, redirect_uri=APP_REDIRECT, testing=True)
    for pushed in (False, True):
        label = "PAR, " if pushed else ""
        request = client.authorization_request(scope="openid wopi")
        uri = str(client.pushed_authorization_request(request).uri) if pushed else str(request.uri)
        parts = urllib.parse.urlsplit(uri)
        response = request.validate_callback(Browser(urllib.parse.urlsplit(base).port).walk(
            parts.path + "?" + parts.query, APP_REDIRECT))
        token = client.authorization_code(response, validate=False)
        check(bool(token.access_token) and bool(token.refresh_token),
              label + "attested public app: code + PKCE gives an access and a refresh token")
    refreshed = client.refresh_token(token)
    check(bool(refreshed.access_token), "attested public app: refresh with a new PoP")
    # §9.3: the refresh token is bound to the client instance key; another instance of the same app cannot use it.
    other_key, other_public = key_pair()
    other = OAuth2Client(client.token_endpoint, auth=ClientAttestationAuth(
        APP, attester.attest(APP, other_public), other_key, issuer), testing=True)
    try:
        other.refresh_token(refreshed.refresh_token)
        check(False, "refresh from another client instance is refused (section 9.3)", "accepted")
    except InvalidGrant:
        check(True, "refresh from another client instance is refused: invalid_grant (section 9.3)")
    check(client.revoke_refresh_token(refreshed.refresh_token) is True, "attested public app: revocation")


def attested_refresh_needs_attestation(base, issuer, attester):
    """§9.3, refresh token binding: a client that authenticated with an attestation must refresh with one. partner-app
    may attest but need not; its app proves DPoP with its instance key. Refreshing with client_id and a proof by that
    same key (the library reuses the token's DPoP key), but no attestation, is refused."""
    instance_key, instance_public = key_pair()
    instance_dpop = DPoPKey(private_key=json.loads(instance_key.export_private()), alg="ES256")
    redirect = "com.example.partner:/oauth2redirect"
    auth = ClientAttestationAuth("partner-app", attester.attest("partner-app", instance_public), instance_key, issuer)
    client = OAuth2Client.from_discovery_endpoint(
        base + "/.well-known/openid-configuration", auth=auth, redirect_uri=redirect, testing=True)
    request = client.authorization_request(scope="wopi")
    parts = urllib.parse.urlsplit(str(request.uri))
    response = request.validate_callback(Browser(urllib.parse.urlsplit(base).port).walk(
        parts.path + "?" + parts.query, redirect))
    token = client.authorization_code(response, validate=False, dpop=True, dpop_key=instance_dpop)
    check(isinstance(token, DPoPToken) and bool(token.refresh_token),
          "attested partner-app with a DPoP proof by its instance key: a DPoP token and a refresh token", repr(token)[:200])
    plain = OAuth2Client(client.token_endpoint, client_id="partner-app", testing=True)
    try:
        plain.refresh_token(token)
        check(False, "refresh of an attestation-bound token with client_id and a DPoP proof only is refused "
                     "(section 9.3)", "accepted")
    except InvalidGrant:
        check(True, "refresh of an attestation-bound token with client_id and a DPoP proof only: invalid_grant "
                    "(section 9.3)")
    refreshed = client.refresh_token(token)
    check(bool(refreshed.access_token), "the same refresh with an attestation and a new PoP is taken")


def refusals(token_endpoint, issuer, database, attester, pem_attester):
    """Each refusal: 401, the code, a challenge, no token, and no access token in the store."""
    instance_key, instance_public = key_pair()
    good = pem_attester.attest(SERVICE, instance_public)
    stranger_key, _ = key_pair()
    other_instance, _ = key_pair()

    def post(attestation=None, proof=None, form=None, extra_headers=None):
        headers = dict(extra_headers or {})
        if attestation:
            headers["OAuth-Client-Attestation"] = attestation
        if proof:
            headers["OAuth-Client-Attestation-PoP"] = proof
        return requests.post(token_endpoint, data=dict({"grant_type": "client_credentials"}, **(form or {})),
                             headers=headers, timeout=10)

    def refused(answer, label, codes, status=401):
        body = answer.json() if answer.headers.get("content-type", "").startswith("application/json") else {}
        ok = (answer.status_code == status and body.get("error") in codes and "access_token" not in body and
              (status != 401 or bool(answer.headers.get("WWW-Authenticate"))))
        check(ok, label, f"{answer.status_code} {body} {answer.headers.get('WWW-Authenticate')}")

    before = issued_tokens(database)
    now = int(time.time())
    refused(post(pem_attester.attest(SERVICE, instance_public, issued=now - 7200, lifetime=3600), pop(instance_key, issuer)),
            "expired attestation: use_fresh_attestation (section 4, 7.4)", {"use_fresh_attestation"})
    refused(post(Attester(PEM_ATTESTER, stranger_key).attest(SERVICE, instance_public), pop(instance_key, issuer)),
            "attestation signed by an unknown key: invalid_client_attestation (section 7.1)", {"invalid_client_attestation"})
    refused(post(good, pop(instance_key, "https://other-as.example.com")),
            "PoP with another audience: invalid_client_attestation (section 5.1, 7.2)", {"invalid_client_attestation"})
    refused(post(good, pop(other_instance, issuer)),
            "PoP signed by a key other than cnf: invalid_client_attestation (section 7.2)", {"invalid_client_attestation"})
    refused(post(pem_attester.attest("no-such-client", instance_public), pop(instance_key, issuer)),
            "attestation for a client this server does not know: invalid_client", {"invalid_client"})
    refused(post(attester.attest(APP, instance_public), pop(instance_key, issuer), form={"client_id": SERVICE}),
            "sub is another client than client_id: invalid_client_attestation (section 7.5)",
            {"invalid_client_attestation"})
    refused(post(good), "attestation without its PoP: invalid_client_attestation (section 7.2)",
            {"invalid_client_attestation"})
    refused(post(form={"client_id": SERVICE}), "attestation.required, only client_id: invalid_client", {"invalid_client"})
    refused(post(good, pop(instance_key, issuer), form={"client_id": SERVICE, "client_secret": "x"}),
            "attestation and client_secret: invalid_request (RFC 6749 section 2.3)", {"invalid_request"}, status=400)
    refused(post("not-a-jwt", pop(instance_key, issuer)),
            "a broken attestation: invalid_client_attestation", {"invalid_client_attestation"})
    check(issued_tokens(database) == before, "no access token was stored for any refusal",
          f"{before} -> {issued_tokens(database)}")

    # §11.1: the same PoP twice; the first use is good, the replay is refused.
    proof = pop(instance_key, issuer)
    first = post(good, proof)
    check(first.status_code == 200 and "access_token" in first.json(), "a fresh PoP is accepted", first.text)
    after_first = issued_tokens(database)
    check(after_first == before + 1, "the store count sees the accepted request's token", f"{before} -> {after_first}")
    refused(post(good, proof), "replayed PoP jti: invalid_client_attestation (section 11.1)", {"invalid_client_attestation"})
    check(issued_tokens(database) == after_first, "nothing stored for the replay")


def issued_tokens(database):
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as connection:
        return connection.execute("SELECT count(*) FROM access_tokens").fetchone()[0]


if __name__ == "__main__":
    sys.exit(main())
