"""The DPoP part of hostile.py (RFC 9449): proofs wrong in one member each, at the token endpoint and at UserInfo,
against a server that requires nonces. Each must get the RFC's error (`invalid_dpop_proof`, `use_dpop_nonce`,
`invalid_token`), never a 5xx. Run by hostile.py, which passes its request and check functions in.
"""
import hashlib
import hmac
import json
import sys
import time
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "flows"))
import bridge  # noqa: E402
import dpop  # noqa: E402

PARTNER = ("partner-app", "com.example.partner:/oauth2redirect")


def error_of(body: bytes):
    try:
        return json.loads(body).get("error")
    except ValueError:
        return None


def run(port, expect, get, post, results):
    status, _, body = get(port, "/.well-known/openid-configuration")
    metadata = json.loads(body)
    results.check("DPoP: metadata lists the proof algorithms", "ES256" in metadata.get("dpop_signing_alg_values_supported", []),
                  metadata.get("dpop_signing_alg_values_supported"))
    token_url, userinfo_url = metadata["token_endpoint"], metadata["userinfo_endpoint"]
    key, other = dpop.Key(), dpop.Key()
    verifier, challenge = bridge.pkce_pair()
    code = bridge.Browser(port).authorize(client_id=PARTNER[0], redirect_uri=PARTNER[1], challenge=challenge)["code"]
    form = urllib.parse.urlencode({"grant_type": "authorization_code", "code": code, "redirect_uri": PARTNER[1],
                                   "client_id": PARTNER[0], "code_verifier": verifier}).encode()

    def token(proof):
        return post(port, "/oauth2/token", form, "application/x-www-form-urlencoded", {"DPoP": proof})

    def refused(name, answer, status, error):
        got, headers, body = expect(name, answer, {status}, oauth_json=True)
        results.check(f"{name}: {error}", error_of(body) == error, body[:200])
        return headers

    # §8: the server wants a nonce; it says which in DPoP-Nonce. The proof checks below carry it, so each is refused
    # for its own fault.
    headers = refused("DPoP token: no nonce", token(key.proof("POST", token_url)), 400, "use_dpop_nonce")
    nonce = (headers.get("dpop-nonce") or [""])[0]
    results.check("DPoP token: DPoP-Nonce sent with use_dpop_nonce", nonce != "", headers)
    refused("DPoP token: stale nonce", token(key.proof("POST", token_url, nonce="c3RhbGU")), 400, "use_dpop_nonce")

    now = int(time.time())
    hs256 = lambda data: hmac.new(b"\x00" * 32, data, hashlib.sha256).digest()  # noqa: E731
    header_only = f"{dpop.b64(json.dumps({'typ': 'dpop+jwt', 'alg': 'HS256', 'jwk': {'kty': 'oct', 'k': 'AAAA'}}).encode())}"
    claims = dpop.b64(json.dumps({"jti": "x", "htm": "POST", "htu": token_url, "iat": now, "nonce": nonce}).encode())
    bad = {
        "wrong htm": key.proof("GET", token_url, nonce=nonce),
        "wrong htu path": key.proof("POST", token_url + "/other", nonce=nonce),
        "htu of another host": key.proof("POST", "https://evil.example/oauth2/token", nonce=nonce),
        "iat ten minutes ago": key.proof("POST", token_url, nonce=nonce, claims={"iat": now - 600}),
        "iat ten minutes ahead": key.proof("POST", token_url, nonce=nonce, claims={"iat": now + 600}),
        "alg none": key.proof("POST", token_url, nonce=nonce, header={"alg": "none"}, signature=b""),
        "HS256": key.proof("POST", token_url, nonce=nonce, header={"alg": "HS256"}, signature=hs256(b"x")),
        "HS256 with a symmetric jwk": header_only + "." + claims + "." + dpop.b64(hs256((header_only + "." + claims).encode())),
        "private key in jwk": key.proof("POST", token_url, nonce=nonce, header={"jwk": key.private_jwk}),
        "typ JWT": key.proof("POST", token_url, nonce=nonce, header={"typ": "JWT"}),
        "no jti": key.proof("POST", token_url, nonce=nonce, claims={"jti": None}),
        "jwk of another key": key.proof("POST", token_url, nonce=nonce, header={"jwk": other.jwk}),
        "not a JWS": "a.b.c",
        "7 KB": "a" * 7_000,
    }
    for name, proof in bad.items():
        refused(f"DPoP token: {name}", token(proof), 400, "invalid_dpop_proof")
    # Over limits.maxHeaderValueBytes, the framing refuses the header before any endpoint reads it.
    expect("DPoP token: 16 KB", token("a" * 16_000), {431})

    good = key.proof("POST", token_url, nonce=nonce)
    status, headers, body = expect("DPoP token: a good proof", token(good), {200})
    tokens = json.loads(body) if status == 200 else {}
    results.check("DPoP token: token_type DPoP", tokens.get("token_type") == "DPoP", tokens)
    refused("DPoP token: the same proof again", token(good), 400, "invalid_dpop_proof")
    access = tokens.get("access_token", "")

    def userinfo(authorization, proof=None):
        fields = {"Authorization": authorization}
        if proof:
            fields["DPoP"] = proof
        return get(port, "/userinfo", fields)

    # §7: the code asked for scope wopi only, so a request the proof lets through is refused for its scope (403).
    accepted = key.proof("GET", userinfo_url, access_token=access, nonce=nonce)
    expect("DPoP userinfo: a good proof gets past the credential check", userinfo(f"DPoP {access}", accepted), {403})
    refused("DPoP userinfo: the same proof again", userinfo(f"DPoP {access}", accepted), 401, "invalid_dpop_proof")
    refused("DPoP userinfo: ath of another token",
            userinfo(f"DPoP {access}", key.proof("GET", userinfo_url, access_token="other", nonce=nonce)), 401, "invalid_dpop_proof")
    refused("DPoP userinfo: no ath", userinfo(f"DPoP {access}", key.proof("GET", userinfo_url, nonce=nonce)), 401, "invalid_dpop_proof")
    refused("DPoP userinfo: no proof", userinfo(f"DPoP {access}"), 401, "invalid_dpop_proof")
    refused("DPoP userinfo: no nonce", userinfo(f"DPoP {access}", key.proof("GET", userinfo_url, access_token=access)),
            401, "use_dpop_nonce")
    refused("DPoP userinfo: a proof by another key",
            userinfo(f"DPoP {access}", other.proof("GET", userinfo_url, access_token=access, nonce=nonce)), 401, "invalid_token")
    headers = refused("DPoP userinfo: the bound token as Bearer", userinfo(f"Bearer {access}"), 401, "invalid_token")
    results.check("DPoP userinfo: a DPoP challenge with algs beside Bearer",
                  any(c.startswith("DPoP ") and "algs=" in c for c in headers.get("www-authenticate", [])), headers)
    expect("DPoP bootstrapper: the bound token as Bearer", get(port, "/wopibootstrapper", {"Authorization": f"Bearer {access}"}), {401})
    return [code, access, tokens.get("refresh_token", "?")]
