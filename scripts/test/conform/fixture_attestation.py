"""OAuth 2.0 Attestation-Based Client Authentication (draft-ietf-oauth-attestation-based-client-auth) at the fixture
host's token endpoint, correct by default; each --break switch named here breaks one rule. The attester is the demo
key in attester-demo-key.pem (a test fixture, trusted by nothing else), which the suite signs with.
"""
import json
import time
from pathlib import Path

from cryptography.hazmat.primitives import serialization

from fixture_dpop import es256_verifies
from fixture_tokens import CLIENTS, b64url, b64url_decode

ATTESTER_KEY_FILE = Path(__file__).resolve().parent / "attester-demo-key.pem"


def attester_jwk():
    key = serialization.load_pem_private_key(ATTESTER_KEY_FILE.read_bytes(), password=None).public_key()
    numbers = key.public_numbers()
    return {"kty": "EC", "crv": "P-256", "x": b64url(numbers.x.to_bytes(32, "big")), "y": b64url(numbers.y.to_bytes(32, "big"))}


ATTESTER = attester_jwk()


def parts(token):
    head, body, signature = token.split(".")
    return json.loads(b64url_decode(head)), json.loads(b64url_decode(body)), f"{head}.{body}", signature


class AttestationAuthentication:
    def attested_client(self, form):
        """(client, None) for a good attestation and PoP (draft §7.1, §7.2, §7.5), (None, reason) for a bad one,
        (None, None) when the request carries none."""
        attestation = self.headers.get("OAuth-Client-Attestation")
        pop = self.headers.get("OAuth-Client-Attestation-PoP")
        if attestation is None and pop is None:
            return None, None
        if self.broken("attest-rejects-all"):
            return None, "attestations are not accepted"
        try:
            a_header, a_claims, a_input, a_signature = parts(attestation)
            p_header, p_claims, p_input, p_signature = parts(pop)
        except (AttributeError, ValueError):
            return None, "not two JWTs"
        if a_header.get("typ") != "oauth-client-attestation+jwt" or p_header.get("typ") != "oauth-client-attestation-pop+jwt":
            return None, "typ"
        if not es256_verifies(ATTESTER, a_input, a_signature) and not self.broken("attest-any-attester"):
            return None, "the attestation is not signed by a trusted attester"
        if a_claims.get("exp", 0) <= time.time() and not self.broken("attest-ignore-exp"):
            return None, "the attestation has expired"
        cnf = (a_claims.get("cnf") or {}).get("jwk") or {}
        if "d" in cnf and not self.broken("attest-accept-private-cnf"):
            return None, "cnf carries a private key"
        if not es256_verifies(cnf, p_input, p_signature) and not self.broken("attest-ignore-pop-key"):
            return None, "the PoP is not signed by the cnf key"
        if p_claims.get("aud") != self.origin and not self.broken("attest-ignore-aud"):
            return None, "the PoP's aud is not this issuer"
        client = CLIENTS.get(a_claims.get("sub"))
        if "client_id" in form and form["client_id"] != a_claims.get("sub") and not self.broken("attest-ignore-client-id"):
            return None, "client_id is not the attestation's sub"
        if client is None:
            return None, "the attestation names no client of this host"
        return client, None
