"""DPoP (RFC 9449) and pushed authorization requests (RFC 9126) for the fixture host, correct by default; each
--break switch named here breaks one rule. A mixin of fixture_host.Handler like fixture_tokens.TokenEndpoints.
Proof signatures are verified with `cryptography` (the test venv's, which Authlib brings).
"""
import hashlib
import json
import secrets
import time

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

from fixture_tokens import CLIENTS, b64url, b64url_decode

PAR_LIFETIME = 60
IAT_WINDOW = 300


def thumbprint(jwk):
    """RFC 7638 for an EC key."""
    canonical = json.dumps({k: jwk[k] for k in ("crv", "kty", "x", "y")}, separators=(",", ":"), sort_keys=True)
    return b64url(hashlib.sha256(canonical.encode()).digest())


def es256_verifies(jwk, signing_input, signature):
    """Whether `signature` (base64url, r||s) is jwk's ES256 signature of `signing_input` (RFC 7518 §3.4)."""
    try:
        key = ec.EllipticCurvePublicNumbers(
            int.from_bytes(b64url_decode(jwk["x"]), "big"), int.from_bytes(b64url_decode(jwk["y"]), "big"),
            ec.SECP256R1()).public_key()
        raw = b64url_decode(signature)
        der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
        key.verify(der, signing_input.encode(), ec.ECDSA(hashes.SHA256()))
        return True
    except (InvalidSignature, KeyError, TypeError, ValueError):
        return False


class DPoPEndpoints:
    def dpop_proof(self, method, url, access_token=None):
        """(thumbprint, None) for a good proof, (None, reason) for a bad one, (None, None) when there is none."""
        header_value = self.headers.get("DPoP")
        if header_value is None:
            return None, None
        try:
            head, body, signature = header_value.split(".")
            header, claims = json.loads(b64url_decode(head)), json.loads(b64url_decode(body))
        except ValueError:
            return None, "not a JWT"
        jwk = header.get("jwk") or {}
        if header.get("typ") != "dpop+jwt" or header.get("alg") != "ES256" or jwk.get("crv") != "P-256":
            return None, "typ, alg or jwk"
        if "d" in jwk and not self.broken("dpop-accept-private-key"):
            return None, "jwk carries a private key"
        if not self.broken("dpop-ignore-signature") and not es256_verifies(jwk, f"{head}.{body}", signature):
            return None, "signature"
        if claims.get("htm") != method and not self.broken("dpop-ignore-htm"):
            return None, "htm"
        if claims.get("htu") != url and not self.broken("dpop-ignore-htu"):
            return None, "htu"
        if abs(time.time() - claims.get("iat", 0)) > IAT_WINDOW and not self.broken("dpop-ignore-iat"):
            return None, "iat"
        if access_token is not None and not self.broken("dpop-no-ath"):
            if claims.get("ath") != b64url(hashlib.sha256(access_token.encode()).digest()):
                return None, "ath"
        jti = (thumbprint(jwk), claims.get("jti"))
        if jti in self.state.proofs and not self.broken("dpop-no-replay-cache"):
            return None, "jti replayed"
        self.state.proofs.add(jti)
        return thumbprint(jwk), None

    # --- pushed authorization requests

    def par(self, method, query):
        if method != "POST":
            return self.send(405, "", [("Allow", "POST")])
        form = self.form()
        client = CLIENTS.get(form.get("client_id"))
        if not client or (not client["public"] and form.get("client_secret") != client["secret"]
                          and not self.broken("par-no-client-auth")):
            return self.token_error("invalid_client", 401)
        if "request_uri" in form and not self.broken("par-accept-request-uri"):
            return self.token_error("invalid_request", description="request_uri is not allowed in a push")
        if not self.redirect_allowed(client, form.get("redirect_uri", "")) and not self.broken("par-no-validation"):
            return self.token_error("invalid_request", description="redirect_uri is not registered")
        request_uri = "urn:ietf:params:oauth:request_uri:" + secrets.token_urlsafe(16)
        form.pop("client_secret", None)
        self.state.pushed[request_uri] = {"request": form, "expires": time.time() + PAR_LIFETIME, "used": False}
        self.send_json(200 if self.broken("par-200") else 201, {"request_uri": request_uri, "expires_in": PAR_LIFETIME},
                       [("Cache-Control", "no-store")])

    def pushed_request(self, query):
        """The authorize parameters for `request_uri` (RFC 9126 §4), or None when it is unknown, used or expired."""
        record = self.state.pushed.get(query.get("request_uri"))
        if record is None or record["expires"] < time.time():
            return None
        if record["used"] and not self.broken("par-reusable"):
            return None
        if record["request"].get("client_id") != query.get("client_id") and not self.broken("par-any-client"):
            return None
        record["used"] = True
        pushed = dict(record["request"])
        if self.broken("par-drop-state"):
            pushed.pop("state", None)
        return pushed

    def dpop_challenge(self, error=None):
        value = 'DPoP algs="ES256"' + (f', error="{error}"' if error else "")
        return [("WWW-Authenticate", value), ("WWW-Authenticate", 'Bearer realm="fixture"')]
