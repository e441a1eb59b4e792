"""The bootstrapper in front of the host's own identity provider (`identityProvider:`, docs/server.md), proved with
two providers nobody here wrote, run as processes this script owns: glewlwyd (Debian package; JWT access tokens
checked against its JWKS) and django-oauth-toolkit (PyPI; opaque access tokens checked through its RFC 7662
introspection). For each, the script plays the person's browser at the provider and Microsoft's cloud redeeming the
code there with requests-oauth2client (a client library that is not ours), then calls /wopibootstrapper over plain
HTTP as Office does (Microsoft's "WOPI bootstrapper" and "Ecosystem operations" pages).

Provider set-up: scripts/test/idp/. glewlwyd comes from scripts/install-deps.sh test.

Usage: .build/venv-test/bin/python scripts/test/external_idp.py --binary PATH/signin-bridge
Ends with "N passed, M failed" (scripts/test/flows/tally.py).
"""
import argparse
import json
import re
import secrets
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from flows import wopi  # noqa: E402
from flows.bridge import Server, free_port, request, write_config  # noqa: E402
from flows.tally import check, tally  # noqa: E402
from idp import glewlwyd as glewlwyd_idp  # noqa: E402
from idp.django_toolkit import DjangoToolkit, bridge_block  # noqa: E402
from idp.django_toolkit import OFFICE as DOT_OFFICE, USER as DOT_USER  # noqa: E402
from jwcrypto import jwk, jwt  # noqa: E402
from jwcrypto.common import base64url_decode  # noqa: E402
from requests_oauth2client import ClientSecretBasic, OAuth2Client  # noqa: E402

WOPI_SRC_PREFIX = "https://wopi.example/wopi/files/"
WOPI_SRC = WOPI_SRC_PREFIX + "doc-1"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        work = Path(directory)
        if check(glewlwyd_idp.available(), "glewlwyd is installed (scripts/install-deps.sh test)"):
            (work / "glewlwyd").mkdir()
            with_glewlwyd(args.binary, work / "glewlwyd")
        (work / "django").mkdir()
        with_django_toolkit(args.binary, work / "django")
    return tally.summary()


# -- SignInBridge ----------------------------------------------------------------------------------------------------
def start_bridge(binary, work: Path, block: str):
    """`signin-bridge serve` on the sample configuration with a WOPI host's prefix and the `identityProvider:` block."""
    port = free_port()
    config = write_config(work, port)
    config.write_text(wopi.configure(config.read_text(), WOPI_SRC_PREFIX) + block)
    return Server(binary, config, port, work / "serve.log").start(timeout=120), port


def bootstrap(port, token=None, wopi_src=None):
    """Office's call: POST /wopibootstrapper with the provider's token; with `wopi_src`, GET_NEW_ACCESS_TOKEN."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    if wopi_src:
        headers.update({"X-WOPI-EcosystemOperation": "GET_NEW_ACCESS_TOKEN", "X-WOPI-WopiSrc": wopi_src})
    status, response_headers, body = request("127.0.0.1", port, "POST", "/wopibootstrapper", headers=headers,
                                             timeout=60)
    try:
        document = json.loads(body)
    except ValueError:
        document = {"raw": body[:300]}
    return status, response_headers, document


def challenge(headers) -> dict:
    """The WWW-Authenticate Bearer challenge's auth-params (RFC 6750 §3)."""
    value = headers.get("www-authenticate", "")
    params = dict(re.findall(r'([A-Za-z_]+)="([^"]*)"', value))
    params["scheme"] = value.split(" ", 1)[0]
    return params


def check_challenge(name, port, metadata):
    # Microsoft's "WOPI bootstrapper" page: the 401 names where Office signs in and redeems (authorization_uri,
    # tokenIssuance_uri) -- here the host's provider's endpoints from its discovery document (RFC 6750 §3).
    status, headers, _ = bootstrap(port)
    params = challenge(headers)
    check(status == 401 and params.get("scheme") == "Bearer", f"{name}: no token: 401 with a Bearer challenge",
          (status, headers.get("www-authenticate")))
    check(params.get("authorization_uri") == metadata["authorization_endpoint"],
          f"{name}: the challenge's authorization_uri is the provider's authorization endpoint", params)
    check(params.get("tokenIssuance_uri") == metadata["token_endpoint"],
          f"{name}: the challenge's tokenIssuance_uri is the provider's token endpoint", params)
    check(bool(params.get("providerId")), f"{name}: the challenge carries the providerId", params)


def check_bootstrap(name, port, token, expected):
    """The bootstrap answers the person the provider signed in; GET_NEW_ACCESS_TOKEN gives a WOPI access token."""
    status, _, document = bootstrap(port, token)
    answer = document.get("Bootstrap", {}) if status == 200 else {}
    # WOPI bootstrapper "Bootstrap" response: UserId, SignInName, UserFriendlyName, here from the provider's claims.
    check(status == 200 and {k: answer.get(k) for k in expected} == expected,
          f"{name}: the bootstrap with the provider's token answers the person's UserId, SignInName and "
          "UserFriendlyName", (status, document))
    status, _, document = bootstrap(port, token, WOPI_SRC)
    info = document.get("AccessTokenInfo", {}) if status == 200 else {}
    # "Ecosystem operations", GET_NEW_ACCESS_TOKEN: an AccessToken for the WopiSrc and its expiry.
    check(bool(info.get("AccessToken")) and isinstance(info.get("AccessTokenExpiry"), int),
          f"{name}: GET_NEW_ACCESS_TOKEN gives a WOPI access token for the file", (status, document))


def check_refused(name, port, token, what):
    # RFC 6750 §3.1: a token that is revoked, expired or otherwise invalid is answered with error="invalid_token".
    status, headers, document = bootstrap(port, token)
    params = challenge(headers)
    check(status == 401 and params.get("error") == "invalid_token", f"{name}: {what}: 401 error=\"invalid_token\"",
          (status, headers.get("www-authenticate"), document))


def check_unavailable(name, port, token, what):
    # RFC 6749 §4.1.2.1's temporarily_unavailable, with Retry-After (RFC 9110 §10.2.3): the provider cannot be
    # asked, which says nothing about the token, so it is no refusal (401) and no server error (500).
    status, headers, document = bootstrap(port, token)
    check(status == 503 and "temporarily_unavailable" in json.dumps(document) + headers.get("www-authenticate", "")
          and headers.get("retry-after", "").isdigit(), f"{name}: {what}: 503 temporarily_unavailable with "
          "Retry-After", (status, headers, document))


def office_client(metadata_url, issuer, client):
    """Microsoft's cloud as the provider's confidential client: Basic authentication, no PKCE (Office sends none)."""
    return OAuth2Client.from_discovery_endpoint(url=metadata_url, issuer=issuer, testing=True,
                                                auth=ClientSecretBasic(client[0], client[1]), redirect_uri=client[2],
                                                code_challenge_method=None)


def signed_in(provider, oauth, scope):
    """The code flow: authorization request built by the library, the browser at the provider, the code redeemed."""
    authorization = oauth.authorization_request(scope=scope)
    callback = provider.sign_in(str(authorization.uri))
    return oauth.authorization_code(authorization.validate_callback(callback), validate=False)


# -- glewlwyd: JWT access tokens -------------------------------------------------------------------------------------
def with_glewlwyd(binary, work: Path):
    name = "glewlwyd"
    provider = glewlwyd_idp.Glewlwyd(work, free_port())
    bridge = None
    try:
        provider.start()
        metadata_url = provider.issuer + "/.well-known/openid-configuration"
        oauth = office_client(metadata_url, provider.issuer, glewlwyd_idp.OFFICE)
        metadata = oauth.session.get(metadata_url, timeout=30).json()
        # glewlwyd's aud is the granted scope list when no RFC 8707 resource is asked for (its OIDC.md, "Resource
        # Indicators"); Office asks for exactly these scopes, so that is the audience the host configures.
        bridge, port = start_bridge(binary, work, f"""
identityProvider:
  issuer: {provider.issuer}
  audience: openid wopi
  profile: generic
  requiredScope: wopi
  clockSkewSeconds: 60
  allowInsecureHTTP: true
  claims: {{ userId: sub, signInName: preferred_username, friendlyName: name }}
  userInfo: true
""")
        check_challenge(name, port, metadata)

        token = signed_in(provider, oauth, "openid wopi")
        header = json.loads(base64url_decode(token.access_token.split(".")[0]))
        # RFC 9068 §2.1: a JWT access token, typed at+jwt, naming its key (RFC 7515 §4.1.4) in the provider's JWKS.
        check(header.get("typ") == "at+jwt" and header.get("kid") == provider.keys[0].get("kid"),
              f"{name}: Office's code is redeemed at the provider for a JWT access token", header)
        claims = json.loads(base64url_decode(token.access_token.split(".")[1]))
        expected = {"UserId": claims.get("sub"), "SignInName": glewlwyd_idp.USER["username"],
                    "UserFriendlyName": glewlwyd_idp.USER["name"]}
        check_bootstrap(name, port, token.access_token, expected)

        # The provider's own key and claims, the expiry two hours past: beyond any clock skew (RFC 7519 §4.1.4).
        expired = sign(provider.keys[0], dict(claims, iat=claims["iat"] - 7200, nbf=claims["iat"] - 7200,
                                              exp=claims["iat"] - 3600))
        check_refused(name, port, expired, "an expired token signed by the provider's key")
        # RFC 9068 §4 / RFC 8725 §3.11: the ID token of the same sign-in (aud: Office's client id) is no access token.
        id_token = str(token.id_token) if token.id_token else ""
        check(bool(id_token), f"{name}: the token response carries an ID token (scope openid)", token)
        check_refused(name, port, id_token, "the provider's ID token offered as an access token")
        stranger = glewlwyd_idp.rsa_key("never-published")
        check_refused(name, port, sign(stranger, claims, kid=provider.keys[0].get("kid")),
                      "a token whose signature the named key does not verify")

        # RFC 7517 §5 / OpenID Connect Core §10.1.1: the provider rotates; a token naming the new kid makes the
        # verifier fetch the JWKS again, without a restart. The verifier may bound how often a kid it does not know
        # makes it fetch, so this waits for the acceptance (an event), however long that bound is on this machine.
        new_key = provider.rotate("glewlwyd-key-2")
        rotated = signed_in(provider, oauth, "openid wopi")
        rotated_kid = json.loads(base64url_decode(rotated.access_token.split(".")[0])).get("kid")
        check(rotated_kid == new_key.get("kid"), f"{name}: after rotation the provider signs with its new key",
              rotated_kid)
        first, waited = eventually(lambda: bootstrap(port, rotated.access_token), lambda answer: answer[0] == 200)
        print(f"     (the first answer to the new kid: {first[0]}; accepted after {waited:.0f} s)")
        # A rotation is the provider's doing, not the token's: until the verifier may fetch, ask again (503), never
        # send Office's user to sign in again (401).
        check(first[0] in (200, 503), f"{name}: the first answer to the new kid is 200 or 503, never 401", first[0])
        check_bootstrap(f"{name} (rotated key)", port, rotated.access_token, expected)

        unseen = signed_in(provider, oauth, "openid wopi")  # a token of the provider's that the bridge never saw
        provider.stop()
        # The provider is down: a key the verifier already has still verifies (no fetch is needed) ...
        status, _, document = bootstrap(port, unseen.access_token)
        check(status == 200 and document.get("Bootstrap", {}).get("UserId") == expected["UserId"],
              f"{name} stopped: a new token signed by a key already fetched is accepted", (status, document))
        # ... but a kid it never saw cannot be looked up: 503, not a refusal of a token that may be good. A fresh
        # token each time, so that no answer kept for an earlier one is what is seen.
        unknown = lambda: sign(stranger, dict(claims, iat=int(time.time()), jti=secrets.token_urlsafe(8)))  # noqa: E731
        first, waited = eventually(lambda: bootstrap(port, unknown()), lambda answer: answer[0] == 503)
        print(f"     (the first answer to an unknown kid with the provider down: {first[0]}; 503 after {waited:.0f} s)")
        check(first[0] == 503, f"{name} stopped: the first answer to an unknown kid is 503, not 401", first[0])
        check_unavailable(f"{name} stopped", port, unknown(), "a token naming an unknown kid")
    except Exception as error:  # noqa: BLE001 - a broken harness is a failed check with its reason, not a crash
        check(False, f"{name}: the flow ran to the end", f"{type(error).__name__}: {error}")
    finally:
        if bridge:
            bridge.stop()
        provider.stop()


def eventually(call, done, within=240.0):
    """Calls `call` until `done(answer)` or `within` seconds (a bound for a hang, not a deadline); returns the first
    answer and the seconds waited."""
    started = time.monotonic()
    first = answer = call()
    while not done(answer) and time.monotonic() - started < within:
        time.sleep(1)
        answer = call()
    return first, time.monotonic() - started


def sign(key: jwk.JWK, claims: dict, kid: str | None = None) -> str:
    """A JWT access token as glewlwyd makes them (RS256, typ at+jwt), signed with `key`, naming `kid`."""
    token = jwt.JWT(header={"alg": "RS256", "typ": "at+jwt", "kid": kid or key.get("kid")}, claims=claims)
    token.make_signed_token(key)
    return token.serialize()


# -- django-oauth-toolkit: opaque tokens and introspection -----------------------------------------------------------
def with_django_toolkit(binary, work: Path):
    name = "django-oauth-toolkit"
    provider = DjangoToolkit(work, free_port())
    bridge = None
    try:
        provider.start()
        # The toolkit's OpenID discovery omits introspection_endpoint; its RFC 8414 metadata (§3.1 path form) has it.
        metadata_url = provider.base + "/.well-known/oauth-authorization-server/o"
        oauth = office_client(metadata_url, provider.issuer, DOT_OFFICE)
        metadata = oauth.session.get(metadata_url, timeout=30).json()
        bridge, port = start_bridge(binary, work, bridge_block(provider, metadata_url))
        check_challenge(name, port, metadata)

        token = signed_in(provider, oauth, "openid profile wopi")
        check(token.access_token.count(".") == 0 and token.token_type.lower() == "bearer",
              f"{name}: Office's code is redeemed at the provider for an opaque bearer token", token)
        username = DOT_USER["username"]
        check_bootstrap(name, port, token.access_token,
                        {"UserId": username, "SignInName": username, "UserFriendlyName": username})

        # RFC 7009 §2.1 revocation at the provider; RFC 7662 §2.2: introspection then says active=false.
        revoked = signed_in(provider, oauth, "openid profile wopi")
        check(oauth.revoke_access_token(revoked.access_token), f"{name}: the provider revokes a token (RFC 7009)")
        check_refused(name, port, revoked.access_token, "a token the provider revoked")
        check_refused(name, port, "not-a-token-the-provider-issued", "a token the provider never issued")
        # RFC 6750 §3.1: a token without the required scope is refused, insufficient_scope (403) or invalid_token.
        narrow = signed_in(provider, oauth, "openid profile")
        status, headers, document = bootstrap(port, narrow.access_token)
        check((status, challenge(headers).get("error")) in ((403, "insufficient_scope"), (401, "invalid_token")),
              f"{name}: a token without the required scope wopi is refused", (status, headers, document))
    except Exception as error:  # noqa: BLE001 - a broken harness is a failed check with its reason, not a crash
        check(False, f"{name}: the flow ran to the end", f"{type(error).__name__}: {error}")
    finally:
        if bridge:
            bridge.stop()
        provider.stop()


if __name__ == "__main__":
    sys.exit(main())
