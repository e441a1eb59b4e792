#!/usr/bin/env python3
"""Hostile HTTP input against a running `signin-bridge serve` over raw sockets: malformed and oversized request
lines and headers, invalid UTF-8 and percent-encoding, duplicate and empty parameters, content types the endpoints
do not take, CRLF in parameters, a huge `state`, forged and `alg: none` JWTs, DPoP proofs wrong in one member each
(hostile_dpop.py), WopiSrc path tricks and a client that dribbles its request. Every answer must be a 4xx (or the
endpoint's documented 401/302), never a 5xx, never a redirect to a URI the client did not register, and nothing
secret may appear in a response or in the server's log. Runs with the test venv's Python (DPoP proofs need
`cryptography`).

Usage: hostile.py --binary .build/debug/signin-bridge        Prints "hostile: N passed, M failed"; exit 1 on a failure.
"""
import argparse
import base64
import json
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "flows"))
import bridge  # noqa: E402
import hostile_dpop  # noqa: E402

REGISTERED = ("https://localhost", "com.example.partner:/oauth2redirect")
IDLE_TIMEOUT = 3  # seconds, set in the config below
OAUTH_ERRORS = {"invalid_request", "invalid_client", "invalid_grant", "unauthorized_client",
                "unsupported_grant_type", "invalid_scope", "invalid_token", "unsupported_token_type",
                "invalid_dpop_proof", "use_dpop_nonce", "invalid_session", "insufficient_authorization",
                "redirect_to_web"}
# RFC 6749 §5.2 / §4.1.2.1: error_description is %x20-21 / %x23-5B / %x5D-7E.
DESCRIPTION_CHARSET = re.compile(r'^[\x20\x21\x23-\x5B\x5D-\x7E]*$')


def descriptions_in(headers: dict, body: bytes):
    """Every error_description the answer carries: in a JSON body, a WWW-Authenticate challenge and a Location."""
    found = []
    try:
        document = json.loads(body)
        if isinstance(document, dict) and "error_description" in document:
            found.append(("body", document["error_description"]))
    except ValueError:
        pass
    for challenge in headers.get("www-authenticate", []):
        found += [("WWW-Authenticate", m) for m in re.findall(r'error_description="([^"]*)"', challenge)]
    for location in headers.get("location", []):
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(location).query)
        found += [("Location", value) for value in query.get("error_description", [])]
    return found


class Results:
    def __init__(self):
        self.passed = 0
        self.failures = []

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
        else:
            self.failures.append(f"{name}: {detail}")
            print(f"FAIL {name}: {detail}")


def raw(port, data: bytes, timeout=5.0):
    """Sends bytes as they are and reads until the server closes or stops answering; returns (status, headers, body)."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(data)
        chunks = []
        try:
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                chunks.append(chunk)
                if parse(b"".join(chunks)) is not None:
                    break
        except (socket.timeout, ConnectionResetError):
            pass
    return parse(b"".join(chunks)) or (0, {}, b"".join(chunks))


def parse(response: bytes):
    """One complete HTTP/1.1 response (Content-Length framed), or None while incomplete."""
    head, sep, body = response.partition(b"\r\n\r\n")
    if not sep:
        return None
    lines = head.decode("latin-1").split("\r\n")
    match = re.match(r"HTTP/1\.[01] (\d{3})", lines[0])
    if not match:
        return None
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers.setdefault(name.strip().lower(), []).append(value.strip())
    length = int(headers.get("content-length", ["0"])[0])
    if len(body) < length:
        return None
    return int(match.group(1)), headers, body[:length]


def get(port, target: str, headers: dict | None = None):
    lines = [f"GET {target} HTTP/1.1", "Host: 127.0.0.1", "Connection: close"]
    lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
    return raw(port, ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))


def post(port, target: str, body: bytes, content_type: str | None, headers: dict | None = None):
    lines = [f"POST {target} HTTP/1.1", "Host: 127.0.0.1", "Connection: close", f"Content-Length: {len(body)}"]
    if content_type:
        lines.append(f"Content-Type: {content_type}")
    lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
    return raw(port, ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)


def authorize_query(**overrides):
    query = {"client_id": "office", "redirect_uri": "https://localhost", "response_type": "code", "scope": "wopi",
             "state": "s1"}
    query.update(overrides)
    return "/oauth2/authorize?" + urllib.parse.urlencode({k: v for k, v in query.items() if v is not None})


def jwt(header: dict, payload: dict, signature: bytes = b"") -> str:
    encode = lambda data: base64.urlsafe_b64encode(data).rstrip(b"=").decode()  # noqa: E731
    return ".".join([encode(json.dumps(header).encode()), encode(json.dumps(payload).encode()), encode(signature)])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    args = parser.parse_args()
    results = Results()
    secrets_seen = ["office-demo-secret", bridge.DEMO_PASSWORD]

    with tempfile.TemporaryDirectory() as tmp:
        directory = Path(tmp)
        port = bridge.free_port()
        # Nonces required, so that the DPoP cases (hostile_dpop.py) can send missing and stale ones.
        config = bridge.write_config(directory, port, extra="\ndpop:\n  requireNonce: true\n")
        config.write_text(config.read_text().replace("idleTimeoutSeconds: 60", f"idleTimeoutSeconds: {IDLE_TIMEOUT}"))
        log = directory / "server.log"
        server = bridge.Server(args.binary, config, port, log).start()
        try:
            # A real flow first, so that real codes and tokens exist whose leaking the log check below would see.
            browser = bridge.Browser(port)
            query = browser.authorize()
            status, tokens = bridge.redeem(port, query["code"])
            results.check("setup: a real flow works", status == 200, f"{status} {tokens}")
            secrets_seen += [query["code"], tokens.get("access_token", "?"), tokens.get("refresh_token", "?")]
            access_token = tokens.get("access_token", "")

            def expect(name, answer, statuses, oauth_json=False):
                status, headers, body = answer
                results.check(name, status in statuses, f"status {status}, wanted one of {sorted(statuses)}: {body[:200]!r}")
                for location in headers.get("location", []):
                    ok = location.startswith("/") or any(location.startswith(uri) for uri in REGISTERED)
                    results.check(f"{name}: redirect target", ok, f"redirects to unregistered {location!r}")
                if oauth_json and 400 <= status < 500 and status != 404:
                    try:
                        error = json.loads(body).get("error")
                    except ValueError:
                        error = None
                    results.check(f"{name}: RFC error code", error in OAUTH_ERRORS, f"error {error!r} in {body[:200]!r}")
                for where, description in descriptions_in(headers, body):
                    results.check(f"{name}: error_description in {where} within the RFC 6749 §5.2 charset",
                                  DESCRIPTION_CHARSET.match(description) is not None, repr(description))
                text = body.decode("utf-8", "replace")
                for secret in secrets_seen:
                    results.check(f"{name}: no secret in the response", secret not in text, f"{secret[:8]}… echoed")
                return status, headers, body

            # Request line and headers.
            expect("request line of 100 KiB", raw(port, b"GET /" + b"a" * 100_000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"), {400, 414, 431})
            expect("garbage request line", raw(port, b"\x16\x03\x01\x02\x00 hello\r\n\r\n"), {400})
            expect("no HTTP version", raw(port, b"GET /auth/health\r\n\r\n"), {400})
            expect("HTTP/9.9", raw(port, b"GET /auth/health HTTP/9.9\r\nHost: x\r\n\r\n"), {400, 505})
            expect("header value of 64 KiB", get(port, "/auth/health", {"X-Big": "v" * 65536}), {400, 431})
            expect("1,000 headers", get(port, "/auth/health", {f"X-H{i}": "v" for i in range(1000)}), {400, 431})
            expect("header without a colon", raw(port, b"GET /auth/health HTTP/1.1\r\nHost: x\r\nNoColonHere\r\n\r\n"), {400})
            expect("two Content-Length values", raw(
                port, b"POST /oauth2/token HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\nabcde"), {400})
            expect("body larger than the limit", post(port, "/oauth2/token", b"a=" + b"b" * 200_000,
                                                        "application/x-www-form-urlencoded"), {400, 413})

            # Authorization endpoint: bad parameters get the error page or a redirect to the registered URI only.
            expect("authorize: invalid UTF-8", get(port, "/oauth2/authorize?client_id=%FF%FE&response_type=code"), {400})
            expect("authorize: invalid percent-encoding", get(port, "/oauth2/authorize?client_id=off%zzice&x=%"), {400})
            expect("authorize: duplicate client_id", get(port, authorize_query() + "&client_id=partner-app"), {400})
            expect("authorize: duplicate redirect_uri", get(port, authorize_query() + "&redirect_uri=https%3A%2F%2Fevil.example"), {400})
            expect("authorize: empty client_id", get(port, authorize_query(client_id="")), {400})
            expect("authorize: unregistered redirect_uri", get(port, authorize_query(redirect_uri="https://evil.example/cb")), {400})
            expect("authorize: prefix of the registered URI", get(port, authorize_query(redirect_uri="https://localhost.evil.example")), {400})
            status, headers, _ = expect("authorize: CRLF in state", get(port, authorize_query(state="a\r\nSet-Cookie: pwned=1")), {200, 302, 303, 400})
            results.check("authorize: CRLF in state injects no header", "pwned=1" not in " ".join(headers.get("set-cookie", [])),
                          f"{headers.get('set-cookie')}")
            expect("authorize: state of 100 KB", get(port, authorize_query(state="s" * 100_000)), {400, 414, 431})
            expect("authorize: state of 6 KB", get(port, authorize_query(state="s" * 6000)), {200, 302, 303, 400})
            expect("authorize: unknown response_type", get(port, authorize_query(response_type="token")), {302, 303, 400})
            expect("authorize: POST with JSON", post(port, "/oauth2/authorize", b'{"client_id":"office"}', "application/json"), {400, 405, 415})

            # Token endpoint: RFC 6749 §5.2 JSON errors for everything it cannot use.
            form = urllib.parse.urlencode({"grant_type": "authorization_code", "code": "x", "redirect_uri": "https://localhost"}).encode()
            auth = {"Authorization": bridge.basic()}
            for content_type in [None, "application/json", "text/plain", "multipart/form-data; boundary=x",
                                 "application/xml", "application/x-www-form-urlencoded; charset=latin-1-nonsense"]:
                expect(f"token: Content-Type {content_type}", post(port, "/oauth2/token", form, content_type, auth), {400, 401, 415}, oauth_json=True)
            expect("token: JSON body", post(port, "/oauth2/token", json.dumps({"grant_type": "client_credentials"}).encode(),
                                            "application/json", auth), {400, 415}, oauth_json=True)
            expect("token: duplicate grant_type", post(port, "/oauth2/token", form + b"&grant_type=refresh_token",
                                                       "application/x-www-form-urlencoded", auth), {400}, oauth_json=True)
            expect("token: empty grant_type", post(port, "/oauth2/token", b"grant_type=&code=x",
                                                   "application/x-www-form-urlencoded", auth), {400}, oauth_json=True)
            expect("token: invalid UTF-8", post(port, "/oauth2/token", b"grant_type=authorization_code&code=%FF%FE",
                                                "application/x-www-form-urlencoded", auth), {400}, oauth_json=True)
            expect("token: invalid percent-encoding", post(port, "/oauth2/token", b"grant_type=authorization_code&code=%G1",
                                                           "application/x-www-form-urlencoded", auth), {400}, oauth_json=True)
            expect("token: CRLF in a parameter", post(port, "/oauth2/token", b"grant_type=refresh_token&refresh_token=a%0D%0AX-Injected:%201",
                                                      "application/x-www-form-urlencoded", auth), {400}, oauth_json=True)
            expect("token: malformed Basic credentials", post(port, "/oauth2/token", form, "application/x-www-form-urlencoded",
                                                              {"Authorization": "Basic !!!not-base64"}), {400, 401}, oauth_json=True)
            expect("token: wrong client secret", post(port, "/oauth2/token", form, "application/x-www-form-urlencoded",
                                                      {"Authorization": bridge.basic(("office", "wrong"))}), {401}, oauth_json=True)

            # The authorization challenge endpoint (draft-ietf-oauth-first-party-apps-04): JSON errors, never a 500.
            challenge = "/oauth2/authorize-challenge"
            for name, body, content_type in [
                ("no parameters", b"", "application/x-www-form-urlencoded"),
                ("JSON body", b'{"client_id":"partner-app"}', "application/json"),
                ("invalid UTF-8", b"client_id=%FF%FE&response_type=code", "application/x-www-form-urlencoded"),
                ("duplicate auth_session", b"client_id=partner-app&auth_session=a&auth_session=b",
                 "application/x-www-form-urlencoded"),
                ("garbage auth_session", b"client_id=partner-app&auth_session=" + b"%00" * 300,
                 "application/x-www-form-urlencoded"),
                ("unknown upstream", b"client_id=partner-app&response_type=code&code_challenge=" + b"a" * 43
                 + b"&code_challenge_method=S256&upstream=nope", "application/x-www-form-urlencoded"),
                ("huge username", b"client_id=partner-app&response_type=code&code_challenge=" + b"a" * 43
                 + b"&code_challenge_method=S256&username=" + b"u" * 60_000 + b"&password=x",
                 "application/x-www-form-urlencoded"),
            ]:
                expect(f"authorize-challenge: {name}", post(port, challenge, body, content_type), {400, 401, 413, 415},
                       oauth_json=True)

            # Bearer tokens at the bootstrapper and introspection: forged, unsigned, garbage.
            claims = {"iss": f"http://127.0.0.1:{port}", "sub": "demo", "aud": "office", "exp": int(time.time()) + 3600}
            forged = {
                "alg none": jwt({"alg": "none", "typ": "JWT"}, claims),
                "alg none, upper case": jwt({"alg": "NONE"}, claims),
                "HS256 with the public key as secret": jwt({"alg": "HS256", "kid": "x"}, claims, b"\x00" * 32),
                "ES256 with a random signature": jwt({"alg": "ES256"}, claims, bytes(64)),
                "signature of a real token swapped": ".".join(access_token.split(".")[:2] + [jwt({}, {}, b"\x01" * 64).split(".")[2]]),
                "three empty segments": "..",
                "not a JWT": "hello",
                "token of 60 KB": "a" * 60_000,
                "invalid base64url": "###.###.###",
            }
            for name, token in forged.items():
                status, headers, _ = expect(f"bootstrap: {name}", get(port, "/wopibootstrapper", {"Authorization": f"Bearer {token}"}),
                                            {400, 401, 431})
                if status == 401:
                    results.check(f"bootstrap: {name}: challenge", any(v.startswith("Bearer") for v in headers.get("www-authenticate", [])),
                                  f"{headers.get('www-authenticate')}")
            expect("bootstrap: two Authorization headers", raw(
                port, f"GET /wopibootstrapper HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {access_token}\r\nAuthorization: Bearer x\r\n\r\n".encode()),
                {400, 401})

            # RFC 6750 §3 at every bearer-protected endpoint, the credential judged first: no usable credential is a
            # 401 with the bare challenge; a refused token is a 401 with error="invalid_token"; never a 400 or 403.
            revoked = bridge.redeem(port, bridge.Browser(port).authorize()["code"])[1]["access_token"]
            status, _, _ = bridge.request("127.0.0.1", port, "POST", "/oauth2/revoke", f"token={revoked}".encode(),
                                          {"Authorization": bridge.basic(),
                                           "Content-Type": "application/x-www-form-urlencoded"})
            results.check("setup: a token is revoked", status == 200, status)
            expiring = subprocess.run(
                [args.binary, "token", "issue", "--config", str(config), "--user", "demo", "--client", "partner-app",
                 "--scope", "openid", "--lifetime-seconds", "1"], capture_output=True, text=True, check=True).stdout.strip()
            time.sleep(2)
            credentials = {
                "no credential": (None, False),
                "blank bearer": ("Bearer ", False),
                "Basic": (bridge.basic(), False),
                "forged": (f"Bearer {forged['ES256 with a random signature']}", True),
                "expired": (f"Bearer {expiring}", True),
                "revoked": (f"Bearer {revoked}", True),
            }
            exchange = b"clientId=files-backend&type=code"
            protected = {
                "bootstrapper": lambda h: get(port, "/wopibootstrapper", h),
                "userinfo GET": lambda h: get(port, "/userinfo", h),
                "userinfo POST": lambda h: post(port, "/userinfo", b"", None, h),
                "exchange": lambda h: post(port, "/oauth/exchange", exchange, "application/x-www-form-urlencoded", h),
                "app-to-app request": lambda h: get(port, "/oauth2/app-to-app/request?reference=x", h),
                "app-to-app decision": lambda h: post(port, "/oauth2/app-to-app/decision", b'{"reference":"x"}',
                                                      "application/json", h),
                # The WOPI ecosystem takes only its own sealed tokens: a JWT is a malformed one, so invalid_token.
                "WOPI ecosystem": lambda h: get(port, "/wopi/ecosystem", h),
                "WOPI root container pointer": lambda h: get(port, "/wopi/ecosystem/root_container_pointer", h),
            }
            for endpoint, call in protected.items():
                for what, (authorization, refused) in credentials.items():
                    name = f"RFC 6750 {endpoint}, {what}"
                    status, headers, _ = expect(name, call({"Authorization": authorization} if authorization else {}), {401})
                    bearer = [c for c in headers.get("www-authenticate", []) if c.lower().startswith("bearer")]
                    results.check(f"{name}: one Bearer challenge", len(bearer) == 1, headers.get("www-authenticate"))
                    has_error = any('error="invalid_token"' in c for c in bearer)
                    results.check(f"{name}: {'invalid_token' if refused else 'no error code'}",
                                  has_error == refused and (refused or not any("error=" in c for c in bearer)), bearer)
            # The ecosystem's access_token query parameter, mangled: a 400 or 401 with a reason, never a 5xx.
            for what, query in {"invalid percent-encoding": "%zz", "a NUL byte": "w1.%00.x.y", "two values": "a&access_token=b",
                                "empty": "", "over 16 KiB": "w1." + "a" * 17000, "invalid UTF-8": "w1.%ff%fe.x.y"}.items():
                expect(f"WOPI ecosystem: access_token with {what}", get(port, f"/wopi/ecosystem?access_token={query}"),
                       {400, 401, 414, 431})
            # A good credential with a bad request is refused for the request, never with a 401 (RFC 6750 §3.1).
            for what, body in {"unknown clientId": b"clientId=nobody&type=code",
                               "clientId with a NUL byte": b"clientId=files%00backend&type=code",
                               "no type": b"clientId=files-backend"}.items():
                status, headers, _ = expect(
                    f"exchange, good token, {what}",
                    post(port, "/oauth/exchange", body, "application/x-www-form-urlencoded",
                         {"Authorization": f"Bearer {access_token}"}), {400}, oauth_json=True)
                results.check(f"exchange, good token, {what}: no Basic challenge",
                              not any(c.lower().startswith("basic") for c in headers.get("www-authenticate", [])), headers)

            secrets_seen += hostile_dpop.run(port, expect, get, post, results)

            # WopiSrc path tricks for GET_NEW_ACCESS_TOKEN: only the host's own WOPI prefixes are served.
            wopi = f"http://127.0.0.1:{port}/wopi/files/"
            served = post(port, "/wopibootstrapper", b"", None, {
                "Authorization": f"Bearer {access_token}", "X-WOPI-EcosystemOperation": "GET_NEW_ACCESS_TOKEN",
                "X-WOPI-WopiSrc": wopi + "1"})
            results.check("WopiSrc: a served one gets a token (the cases below can fail)", served[0] == 200, f"{served[0]} {served[2][:200]!r}")
            for name, source in {
                "dot segments": wopi + "../../oauth2/token",
                "encoded dot segments": wopi + "%2e%2e/%2e%2e/admin",
                "another host": "https://evil.example/wopi/files/1",
                "userinfo trick": f"http://127.0.0.1:{port}@evil.example/wopi/files/1",
                "backslashes": wopi.replace("/", "\\") + "1",
                "NUL byte": wopi + "1%00.txt",
                "8 KB": wopi + "a" * 8000,
                "not a URL": "::::",
            }.items():
                # Ecosystem operations are POSTs (Microsoft's bootstrapper docs); a GET is a plain bootstrap.
                expect(f"WopiSrc: {name}", post(port, "/wopibootstrapper", b"", None, {
                    "Authorization": f"Bearer {access_token}", "X-WOPI-EcosystemOperation": "GET_NEW_ACCESS_TOKEN",
                    "X-WOPI-WopiSrc": source}), {400, 401, 404, 431})

            # A request dribbled one byte a second is cut at the idle timeout, not held open.
            with socket.create_connection(("127.0.0.1", port), timeout=IDLE_TIMEOUT * 4) as s:
                started = time.monotonic()
                closed_after = None
                try:
                    for byte in b"GET /auth/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"x" * 60:
                        s.sendall(bytes([byte]))
                        time.sleep(1.0)
                        if time.monotonic() - started > IDLE_TIMEOUT * 4:
                            break
                except (BrokenPipeError, ConnectionResetError):
                    closed_after = time.monotonic() - started
                if closed_after is None:
                    try:
                        s.settimeout(1)
                        closed_after = time.monotonic() - started if s.recv(1) == b"" else None
                    except (socket.timeout, ConnectionResetError):
                        closed_after = time.monotonic() - started
                results.check("slow client is cut off", closed_after is not None and closed_after <= IDLE_TIMEOUT * 4,
                              f"connection still open after {time.monotonic() - started:.0f} s")

            status, _, _ = bridge.request("127.0.0.1", port, "GET", "/auth/health")
            results.check("server still healthy after all of it", status == 200, f"health {status}")
        finally:
            server.stop()
        text = log.read_text(errors="replace")
        results.check("log has request lines", "status=" in text or '"status"' in text, text[:200])
        for secret in secrets_seen:
            results.check("no secret in the log", secret not in text, f"{secret[:8]}… logged")
        results.check("no 5xx in the log", not re.search(r"status[=\":]+5\d\d", text), "a 5xx was logged")

    print(f"hostile: {results.passed} passed, {len(results.failures)} failed")
    return 1 if results.failures else 0


if __name__ == "__main__":
    sys.exit(main())
