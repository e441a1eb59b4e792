"""A host identity provider for the bootstrap benchmark: an OpenID discovery document and a JWKS on loopback
(Python's http.server), and one ES256 access token it signed (RFC 9068 shape, typ at+jwt), written to a file.

Usage: local_idp.py PORT TOKEN_FILE   (serves until killed)
"""
import base64
import http.server
import json
import sys
import time

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


port, token_file = int(sys.argv[1]), sys.argv[2]
origin = f"http://127.0.0.1:{port}"
key = ec.generate_private_key(ec.SECP256R1())
public = key.public_key().public_numbers()
jwks = json.dumps({"keys": [{"kty": "EC", "crv": "P-256", "kid": "bench", "alg": "ES256", "use": "sig",
                             "x": b64(public.x.to_bytes(32, "big")), "y": b64(public.y.to_bytes(32, "big"))}]})
discovery = json.dumps({"issuer": origin, "authorization_endpoint": origin + "/authorize",
                        "token_endpoint": origin + "/token", "jwks_uri": origin + "/jwks"})
now = int(time.time())
header = b64(json.dumps({"alg": "ES256", "typ": "at+jwt", "kid": "bench"}).encode())
claims = b64(json.dumps({"iss": origin, "aud": "signin-bridge", "sub": "bench-user", "client_id": "office",
                         "preferred_username": "bench@host.example", "name": "Bench User", "scope": "wopi",
                         "iat": now, "exp": now + 3600, "jti": "bench-1"}).encode())
r, s = decode_dss_signature(key.sign(f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256())))
with open(token_file, "w") as out:
    out.write(f"{header}.{claims}." + b64(r.to_bytes(32, "big") + s.to_bytes(32, "big")))


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = {"/.well-known/openid-configuration": discovery, "/jwks": jwks}.get(self.path)
        self.send_response(200 if body else 404)
        self.send_header("Content-Type", "application/json")
        self.send_header("Cache-Control", "max-age=300")
        self.end_headers()
        self.wfile.write((body or "").encode())

    def log_message(self, *args):
        pass


http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
