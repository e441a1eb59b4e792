"""What the WOPI host scripts (wopi_forward_auth.py, wopi_introspection.py) share: the sample configuration with a
WOPI server client, a second user and a WopiSrc prefix of the test's choosing; WOPI access tokens from a real
bootstrap (GET_NEW_ACCESS_TOKEN, Microsoft's "Ecosystem operations" page); and a token resealed with another expiry
from the documented format (docs/wopi-access-tokens.md), computed here from the key file. Needs `cryptography`
(the test venv) only for `resealed`.
"""
import base64
import hashlib
import hmac
import json
import urllib.parse
from pathlib import Path

from flows.bridge import Browser, REDIRECT, redeem, request

WOPI_HOST = ("wopi-host", "wopi-host-secret")
BOB = ("bob@example.com", "demo-password")
DEMO_PASSWORD_HASH = "$2b$12$spZMyuggXL3hVlAEWn6Ji.2/o./7RYcPQD49gPV/Me1vHSjTCvTuS"


def configure(text: str, wopi_src_prefix: str) -> str:
    """The sample configuration with `wopi-host` (wopiServer: true), user bob and `wopi_src_prefix` served."""
    digest = hashlib.sha256(WOPI_HOST[1].encode()).hexdigest()
    client = (f"  - id: {WOPI_HOST[0]}\n    secretHash: sha256:{digest}\n    wopiServer: true\n"
              "    redirectUris: [https://wopi-host.example/unused]\n    grants: [client_credentials]\n")
    user = (f"  - id: bob\n    signInName: {BOB[0]}\n    friendlyName: Bob\n    passwordHash: {DEMO_PASSWORD_HASH}\n")
    for old, new in [
        ("  # wopiSrcPrefixes: [<issuer>/wopi/files/]", f"  wopiSrcPrefixes: [{wopi_src_prefix}]"),
        ("\n# Apps that receive sign-in", "\n" + client + "\n# Apps that receive sign-in"),
        (f"    passwordHash: {DEMO_PASSWORD_HASH}\n", f"    passwordHash: {DEMO_PASSWORD_HASH}\n" + user),
    ]:
        if old not in text:
            raise RuntimeError(f"the sample configuration changed: {old.strip()!r} is gone")
        text = text.replace(old, new, 1)
    return text


def signed_in(port, user=None):
    """Office's tokens for the demo user (or `user`, a (name, password) pair): code flow, then the token endpoint."""
    browser = Browser(port) if user is None else Browser(port, user=user[0], password=user[1])
    status, tokens = redeem(port, browser.authorize()["code"], REDIRECT)
    if status != 200:
        raise RuntimeError(f"token request failed: {status} {tokens}")
    return tokens


def bootstrap(port, access_token, wopi_src=None):
    """The bootstrapper's answer: with `wopi_src`, GET_NEW_ACCESS_TOKEN for that file."""
    headers = {"Authorization": f"Bearer {access_token}"}
    if wopi_src:
        headers.update({"X-WOPI-EcosystemOperation": "GET_NEW_ACCESS_TOKEN", "X-WOPI-WopiSrc": wopi_src})
    status, _, body = request("127.0.0.1", port, "POST", "/wopibootstrapper", headers=headers)
    if status != 200:
        raise RuntimeError(f"bootstrap failed: {status} {body[:200]!r}")
    return json.loads(body)


def file_token(port, access_token, wopi_src):
    return bootstrap(port, access_token, wopi_src)["AccessTokenInfo"]["AccessToken"]


def ecosystem_token(port, access_token):
    url = bootstrap(port, access_token)["Bootstrap"]["EcosystemUrl"]
    return urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)["access_token"][0]


def forged(token):
    """The token with its seal's first character changed (every bit of it is the MAC's)."""
    head, seal = token.rsplit(".", 1)
    return head + "." + ("A" if seal[0] != "A" else "B") + seal[1:]


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def resealed(token, key_file: Path, expires_ms: int):
    """`token` with its expiry set to `expires_ms`, sealed again as docs/wopi-access-tokens.md describes: HMAC-SHA256
    under HKDF-SHA256(the ES256 key's private scalar, salt "SignInBridge", info "WOPI access token seal v1")."""
    from cryptography.hazmat.primitives import serialization
    version, tag, payload, _ = token.split(".")
    fields = _unb64(payload).decode().split("\n")
    fields[2] = str(expires_ms)
    entry = next(k for k in json.loads(key_file.read_text())["keys"] if k["alg"] == "ES256" and k["kid"].startswith(tag))
    private = serialization.load_pem_private_key(entry["privateKeyPEM"].encode(), password=None)
    scalar = private.private_numbers().private_value.to_bytes(32, "big")
    prk = hmac.new(b"SignInBridge", scalar, hashlib.sha256).digest()  # RFC 5869 §2.2
    key = hmac.new(prk, b"WOPI access token seal v1" + b"\x01", hashlib.sha256).digest()  # §2.3, one block
    sealed = ".".join([version, tag, _b64("\n".join(fields).encode())])
    return sealed + "." + _b64(hmac.new(key, sealed.encode(), hashlib.sha256).digest())
