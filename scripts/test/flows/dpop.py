"""DPoP proofs (RFC 9449 §4.2) as a client makes them, with any member changed on request, for the tests that drive
a running server (hostile.py, multi_instance.py). Needs `cryptography` (the system Python's, or the test venv's).
"""
import base64
import hashlib
import json
import time
import uuid

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def ath(access_token: str) -> str:
    """RFC 9449 §4.2: base64url(SHA-256(access token))."""
    return b64(hashlib.sha256(access_token.encode()).digest())


class Key:
    """A P-256 key and the proofs it signs (ES256)."""

    def __init__(self):
        self.private = ec.generate_private_key(ec.SECP256R1())
        numbers = self.private.public_key().public_numbers()
        self.jwk = {"kty": "EC", "crv": "P-256", "x": b64(numbers.x.to_bytes(32, "big")),
                    "y": b64(numbers.y.to_bytes(32, "big"))}
        self.private_jwk = dict(self.jwk, d=b64(self.private.private_numbers().private_value.to_bytes(32, "big")))

    def thumbprint(self) -> str:
        """RFC 7638: SHA-256 of the required members in order, no whitespace."""
        canonical = json.dumps({k: self.jwk[k] for k in ("crv", "kty", "x", "y")}, separators=(",", ":"))
        return b64(hashlib.sha256(canonical.encode()).digest())

    def sign(self, data: bytes) -> bytes:
        r, s = decode_dss_signature(self.private.sign(data, ec.ECDSA(hashes.SHA256())))
        return r.to_bytes(32, "big") + s.to_bytes(32, "big")

    def proof(self, method: str, url: str, access_token: str | None = None, nonce: str | None = None,
              header: dict | None = None, claims: dict | None = None, signature: bytes | None = None) -> str:
        """A proof for `method` and `url`; `header` and `claims` replace members (a value of None removes one), and
        `signature` replaces the signature."""
        head = {"typ": "dpop+jwt", "alg": "ES256", "jwk": self.jwk}
        body = {"jti": str(uuid.uuid4()), "htm": method, "htu": url, "iat": int(time.time())}
        if access_token is not None:
            body["ath"] = ath(access_token)
        if nonce is not None:
            body["nonce"] = nonce
        for target, changes in ((head, header), (body, claims)):
            for name, value in (changes or {}).items():
                if value is None:
                    target.pop(name, None)
                else:
                    target[name] = value
        signing_input = b64(json.dumps(head).encode()) + "." + b64(json.dumps(body).encode())
        return signing_input + "." + b64(self.sign(signing_input.encode()) if signature is None else signature)
