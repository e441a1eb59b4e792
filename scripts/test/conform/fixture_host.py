"""A small WOPI host for the conformance suite's own tests: bootstrapper, authorize with a sign-in and a consent
page, token endpoint, OpenID discovery and userinfo, RFC 8414 metadata and /oauth/exchange (those in
fixture_tokens.py), DPoP and pushed authorization requests (fixture_dpop.py), the authorization challenge
endpoint of OAuth 2.0 for First-Party Applications (fixture_firstparty.py), Native SSO (fixture_tokens.py),
attestation-based client authentication (fixture_attestation.py), the WOPI ecosystem (fixture_ecosystem.py) and the
host's app approving app_to_app with its resume_uri (fixture_apptoapp.py), all correct by default. Each switch
(--break NAME, repeatable) breaks exactly one rule, so every check of `signin-bridge conform` can be shown to fail.
Standard library only, but for `cryptography` (the test venv's) to verify DPoP proofs.

Usage: fixture_host.py --port PORT [--break SWITCH]...   (prints "ready" on stdout when listening)
"""
import argparse
import html
import json
import secrets
import socket
import sys
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from fixture_apptoapp import AppToAppEndpoints
from fixture_attestation import AttestationAuthentication
from fixture_dpop import DPoPEndpoints
from fixture_ecosystem import EcosystemEndpoints
from fixture_firstparty import FirstPartyEndpoints
from fixture_tokens import CLIENTS, PASSWORD, SERVED_WOPI, USER, TokenEndpoints, b64url_decode

SWITCHES = {
    "challenge-200": "the bootstrapper answers 200 without a token",
    "two-bearers": "two Bearer challenges",
    "relative-token-uri": "tokenIssuance_uri is a relative reference",
    "unresolvable-token-host": "tokenIssuance_uri names a host under .invalid (RFC 6761 §6.4), which never resolves",
    "bad-provider-id": "providerId has '-' and '!'",
    "android-incomplete-triple": "UrlSchemes has an Android triple without its activity",
    "android-plain-scheme": "UrlSchemes lists a plain Android scheme (the app-to-app page's example form)",
    "provider-id-underscore": "providerId has '_' (the docs' examples do, their rule does not allow it)",
    "comma-in-uri": "authorization_uri carries a ',' that the naive split cuts",
    "trailing-comma": "the challenge ends in ','",
    "duplicate-parameter": "providerId twice",
    "unquoted-provider-id": "providerId as a token",
    "operation-without-token": "an ecosystem operation without a token answers 200",
    "blank-token-400": "'Bearer ' answers 400",
    "malformed-500": "a junk token answers 500",
    "accept-expired": "only the token's jti is checked (no exp, no signature)",
    "accept-foreign-signed": "the claims are checked, the signature is not",
    "no-code": "the redirect to Office's client has no code",
    "drop-state": "the redirect has no state",
    "http-tk": "tk is a plain-http URL on a public host",
    "no-refresh-token": "the token response has no refresh_token",
    "expires-in-string": "expires_in is a string",
    "no-cache-control": "the token response has no Cache-Control",
    "bootstrap-text-plain": "the bootstrap JSON is sent as text/plain",
    "no-access-token-info": "GET_NEW_ACCESS_TOKEN is answered as a plain bootstrap",
    "mint-any-wopi-src": "GET_NEW_ACCESS_TOKEN mints a token for any WopiSrc",
    "no-root-container": "GET_ROOT_CONTAINER is answered as a plain bootstrap",
    "no-rotation": "a confidential client's refresh returns the same refresh token",
    "refresh-needs-scope": "Office's (the confidential client's) refresh without scope is refused with invalid_scope",
    "no-reuse-detection": "a confidential client's rotated refresh token stays valid",
    "code-reusable": "a code can be redeemed twice",
    "reuse-keeps-tokens": "a reused code leaves the first tokens valid",
    "redirect-any-uri": "any redirect_uri is accepted",
    "prefix-match": "redirect URIs are matched by prefix",
    "pkce-optional": "a public client may omit code_challenge",
    "pkce-broken-compare": "the verifier is compared to the challenge without hashing",
    "pkce-ignore-verifier": "any code_verifier is accepted",
    "pkce-verifier-optional": "a missing code_verifier is accepted",
    "metadata-mismatch": "the metadata names another token endpoint",
    "hang-metadata": "the metadata answers after 5 s (for --timeout)",
    "empty-header-400": "'Authorization:' with an empty value answers 400",
    "whitespace-token-500": "a token of only spaces and a tab answers 500",
    "lowercase-scheme-400": "the scheme is compared case-sensitively; anything but 'Bearer' answers 400",
    "two-headers-any": "with two Authorization fields, any valid one is accepted",
    "query-token": "an access_token in the query is accepted",
    "error-without-credentials": "an ecosystem operation without a token gets a challenge with error=invalid_token",
    "iss-missing-on-error": "the error redirect has no iss though the metadata advertises it",
    "public-no-rotation": "a public client's refresh returns the same refresh token",
    "public-no-reuse-detection": "a public client's rotated refresh token stays valid",
    "code-any-client": "any client may redeem any code",
    "redirect-ignore-query": "redirect URIs are compared without their query",
    "pkce-downgrade": "a code_verifier for a code issued without a challenge is ignored",
    "pkce-plain-accepted": "code_challenge_method=plain is honoured though the metadata lists only S256",
    "pkce-any-verifier-syntax": "a verifier outside RFC 7636's syntax is accepted when it matches",
    "pkce-challenge-cache": "a challenge verified once is trusted for every later code",
    "discovery-no-rs256": "openid-configuration lists only HS256 for ID tokens",
    "id-token-no-nonce": "the ID token has no nonce",
    "unstable-sub": "every ID token has a new sub",
    "userinfo-no-challenge": "userinfo without a token answers 401 without WWW-Authenticate",
    "app-callback-normalised": "app_callback_uri is compared after decoding, without a trailing '/', in lower case",
    "exchange-no-challenge": "/oauth/exchange without a token answers 400 without WWW-Authenticate",
    "exchange-code-reusable": "an exchange code can be redeemed twice",
    "error-description-charset": "error_description has a '\u00a7' (outside RFC 6749's characters)",
    "unregistered-error": "an unknown code answers error=bad_code",
    "association-excludes-callback": "apple-app-site-association excludes the partner app's https callback path",
    "dpop-bearer-type": "a code redeemed with a DPoP proof gets token_type Bearer",
    "dpop-ignore-signature": "a DPoP proof's signature is not verified",
    "dpop-accept-private-key": "a DPoP proof whose jwk has the private key is accepted",
    "dpop-ignore-htm": "a DPoP proof's htm is not compared",
    "dpop-ignore-htu": "a DPoP proof's htu is not compared",
    "dpop-ignore-iat": "a DPoP proof of any age is accepted",
    "dpop-no-replay-cache": "a DPoP proof's jti is not remembered",
    "dpop-unbound-refresh": "a public client's DPoP refresh token works with any proof or none",
    "dpop-no-ath": "userinfo does not check the proof's ath",
    "dpop-bearer-accepted": "userinfo accepts a DPoP-bound token as Bearer",
    "par-200": "the PAR endpoint answers 200 instead of 201",
    "par-no-client-auth": "the PAR endpoint does not check the client secret",
    "par-accept-request-uri": "a push carrying request_uri is accepted",
    "par-reusable": "a request_uri can be used again",
    "par-any-client": "a request_uri is accepted with any client_id",
    "par-no-validation": "a pushed request is not validated, at the push or at authorize",
    "par-drop-state": "authorize with a request_uri loses the pushed state",
    "fpa-code-field": "the challenge endpoint answers the code as 'code', not 'authorization_code'",
    "fpa-ignore-verifier": "a code from the challenge endpoint redeems with any code_verifier",
    "fpa-any-client": "any client may use the challenge endpoint",
    "fpa-ignore-session": "an unknown auth_session is ignored",
    "fpa-no-response-type": "a challenge request without response_type is accepted",
    "fpa-session-reusable": "an auth_session that led to a code can be used again",
    "nsso-no-ds-hash": "the device_sso ID token has no ds_hash",
    "nsso-no-exchange": "the token endpoint does not take the Native SSO token exchange",
    "nsso-any-secret": "any device_secret is accepted in the token exchange",
    "nsso-ignore-ds-hash": "the ID token's ds_hash is not compared with the device_secret",
    "v2-pkce-optional": "requested_flow=app_to_app_v2 is accepted without code_challenge",
    "resume-reusable": "resume_uri can be opened again and leads to a second code",
    "expiry-in-seconds": "AccessTokenExpiry of GET_NEW_ACCESS_TOKEN is in seconds since the epoch",
    "ecosystem-no-supports-containers": "CheckEcosystem answers {} (no SupportsContainers)",
    "ecosystem-pointer-without-token": "the root container pointer's Url carries no access_token",
    "ecosystem-any-token": "the ecosystem accepts any access_token",
    "attest-rejects-all": "every client attestation is refused",
    "attest-ignore-exp": "an expired client attestation is accepted",
    "attest-any-attester": "a client attestation's signature is not verified",
    "attest-ignore-pop-key": "the attestation PoP's signature is not verified with the cnf key",
    "attest-ignore-aud": "the attestation PoP's aud is not compared",
    "attest-ignore-client-id": "client_id may differ from the attestation's sub",
    "attest-accept-private-cnf": "an attestation whose cnf carries the private key is accepted",
    # Not a check's rule: hosts the run itself must survive (output as it goes, --timeout, --deadline).
    "http-authorize-uri": "authorization_uri is plain http on a public host name",
    "hang-authorize": "authorization_uri is a port that accepts connections and never answers",
    "hang-token": "the token endpoint answers after 30 s",
}


class State:
    def __init__(self, broken):
        self.broken = set(broken)
        self.requests = {}      # request id -> authorize parameters
        self.codes = {}         # code -> {client, redirect, challenge, used, tokens}
        self.access = {}        # access token -> {"jti", "claims", "revoked"}
        self.refresh = {}       # refresh token -> {"family", "rotated", "client"}
        self.families = {}      # family -> revoked?
        self.sessions = {}      # sc -> True
        self.verified = set()   # challenges answered once (only pkce-challenge-cache trusts them again)
        self.grace = 0          # seconds a rotated refresh token still refreshes (--refresh-grace)
        self.proofs = set()     # (key thumbprint, jti) of every DPoP proof accepted
        self.pushed = {}        # request_uri -> {"request", "expires", "used"}
        self.auth_sessions = {} # auth_session -> {"client", "request", "username", "used"}
        self.device_secrets = {}  # device_secret -> {"sid", "sub", "group"}
        self.ecosystem_tokens = set()  # the tokens of every EcosystemUrl handed out
        self.references = {}    # app-to-app deep link reference -> request id
        self.resumes = {}       # resume_uri token -> {"request", "used"}


class Handler(TokenEndpoints, DPoPEndpoints, FirstPartyEndpoints, AttestationAuthentication, EcosystemEndpoints,
              AppToAppEndpoints, BaseHTTPRequestHandler):
    server_version = "conform-fixture"
    state: State = None
    origin = ""
    silent_port = 0

    def log_message(self, *args):
        pass

    def broken(self, name):
        return name in self.state.broken

    # --- plumbing

    def send(self, status, body=b"", headers=()):
        if isinstance(body, str):
            body = body.encode()
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def send_json(self, status, obj, extra=()):
        headers = [("Content-Type", "application/json")] + list(extra)
        self.send(status, json.dumps(obj), headers)

    def form(self):
        length = int(self.headers.get("Content-Length") or 0)
        return dict(urllib.parse.parse_qsl(self.rfile.read(length).decode()))

    def do_GET(self):
        self.route("GET")

    def do_POST(self):
        self.route("POST")

    def route(self, method):
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        routes = {
            "/wopibootstrapper": self.bootstrapper,
            "/authorize": self.authorize,
            "/signin": self.signin,
            "/consent": self.consent,
            "/token": self.token,
            "/par": self.par,
            "/authorize-challenge": self.authorize_challenge,
            "/.well-known/oauth-authorization-server": self.metadata,
            "/.well-known/openid-configuration": self.openid_configuration,
            "/userinfo": self.userinfo,
            "/oauth/exchange": self.exchange,
            "/.well-known/apple-app-site-association": self.apple_app_site_association,
            "/.well-known/assetlinks.json": self.asset_links,
            "/wopi/ecosystem": self.check_ecosystem,
            "/wopi/ecosystem/root_container_pointer": self.root_container_pointer,
            "/app-to-app/decision": self.app_to_app_decision,
            "/app-to-app/resume": self.app_to_app_resume,
        }
        handler = routes.get(url.path)
        if not handler:
            return self.send(404, "not found")
        handler(method, query)

    # --- the association files that open the partner app's https callback (/app/callback) in the app

    def apple_app_site_association(self, method, query):
        components = [{"/": "/app/callback", "exclude": True}] if self.broken("association-excludes-callback") else []
        app = "ABCDE12345.com.example.partner"
        self.send_json(200, {
            "applinks": {"details": [{"appIDs": [app], "components": components + [{"/": "/app/*"}]}]},
            "webcredentials": {"apps": [app]},
        })

    def asset_links(self, method, query):
        self.send_json(200, [{
            "relation": ["delegate_permission/common.handle_all_urls", "delegate_permission/common.get_login_creds"],
            "target": {"namespace": "android_app", "package_name": "com.example.partner", "sha256_cert_fingerprints": [
                "14:6D:E9:83:C5:73:06:50:D8:EE:B9:95:2F:34:FC:64:16:A0:83:42:E6:1D:BE:A8:8A:04:96:B2:3F:CF:44:E5"]},
        }])

    # --- the bootstrapper

    def challenge_lines(self):
        authorize = self.origin + "/authorize" + ("?x=1,2" if self.broken("comma-in-uri") else "")
        if self.broken("http-authorize-uri"):
            authorize = "http://signin.example.com/authorize"
        if self.broken("hang-authorize"):
            authorize = f"http://127.0.0.1:{self.silent_port}/authorize"
        token = "/token" if self.broken("relative-token-uri") else self.origin + "/token"
        if self.broken("unresolvable-token-host"):
            token = "http://token.invalid/token"
        provider = "tp-contoso!" if self.broken("bad-provider-id") else "TPCONTOSO"
        if self.broken("provider-id-underscore"):
            provider = "TP_CONTOSO"
        android = ["1200", "com.contoso"] if self.broken("android-incomplete-triple") else [
            "1200", "com.contoso", "com.contoso.AuthActivity"]
        if self.broken("android-plain-scheme"):
            android = ["contoso"]
        schemes = {"iOS": ["contoso"], "Android": android}
        encoded = urllib.parse.quote(json.dumps(schemes, separators=(",", ":")), safe="")
        provider_part = f"providerId={provider}" if self.broken("unquoted-provider-id") else f'providerId="{provider}"'
        parts = [f'authorization_uri="{authorize}"', f'tokenIssuance_uri="{token}"', provider_part,
                 f'UrlSchemes="{encoded}"']
        if self.broken("duplicate-parameter"):
            parts.append('providerId="TPOTHER"')
        line = "Bearer " + ",".join(parts) + ("," if self.broken("trailing-comma") else "")
        lines = [line]
        if self.broken("two-bearers"):
            lines.append('Bearer realm="other"')
        return lines

    def send_challenge(self, error=None):
        lines = self.challenge_lines()
        if error:
            lines[0] += f',error="{error}"'
        self.send(401, "", [("WWW-Authenticate", line) for line in lines])

    @staticmethod
    def bearer_token(authorization):
        """The token of 'Bearer <token>' (the scheme in any case, RFC 9110 §11.1), or None."""
        scheme, _, token = (authorization or "").partition(" ")
        return token.strip() if scheme.lower() == "bearer" else None

    def verify(self, authorization):
        """The access token record, or None."""
        token = self.bearer_token(authorization)
        if not token:
            return None
        record = self.state.access.get(token)
        if record is None and token.count(".") == 2 and (self.broken("accept-expired") or self.broken("accept-foreign-signed")):
            try:
                claims = json.loads(b64url_decode(token.split(".")[1]))
            except ValueError:
                return None
            for candidate in self.state.access.values():
                if self.broken("accept-expired") and candidate["claims"]["jti"] == claims.get("jti"):
                    record = candidate
                elif self.broken("accept-foreign-signed") and candidate["claims"] == claims:
                    record = candidate
        if record is None or record["revoked"]:
            return None
        if not (self.broken("accept-expired")) and record["claims"]["exp"] < time.time():
            return None
        return record

    def bootstrapper(self, method, query):
        authorizations = self.headers.get_all("Authorization") or []
        authorization = authorizations[0] if authorizations else None
        operation = self.headers.get("X-WOPI-EcosystemOperation") if method == "POST" else None
        if authorization is None and self.broken("query-token") and query.get("access_token"):
            authorization = "Bearer " + query["access_token"]
        if authorization is None:
            if self.broken("challenge-200") and operation is None:
                return self.send_json(200, {"hello": "anonymous"})
            if self.broken("operation-without-token") and operation:
                return self.send_json(200, self.bootstrap_body())
            return self.send_challenge("invalid_token" if self.broken("error-without-credentials") and operation else None)
        if len(authorizations) > 1:
            valid = [a for a in authorizations if self.verify(a)]
            if not (self.broken("two-headers-any") and valid):
                return self.send(400, "two Authorization fields")
            authorization = valid[0]
        if authorization == "":
            return self.send(400, "empty Authorization") if self.broken("empty-header-400") else self.send_challenge()
        if "\t" in authorization and self.broken("whitespace-token-500"):
            return self.send(500, "boom")
        if not authorization.startswith("Bearer") and self.broken("lowercase-scheme-400"):
            return self.send(400, "unsupported scheme")
        token = self.bearer_token(authorization) or ""
        if token == "" and "\t" not in authorization and self.broken("blank-token-400"):
            return self.send(400, "blank token")
        if "%" in token and self.broken("malformed-500"):
            return self.send(500, "boom")
        record = self.verify(authorization)
        if record is None:
            return self.send_challenge()
        body = self.bootstrap_body()
        if operation == "GET_NEW_ACCESS_TOKEN" and not self.broken("no-access-token-info"):
            wopi_src = self.headers.get("X-WOPI-WopiSrc") or ""
            if not wopi_src.startswith(self.origin + SERVED_WOPI) and not self.broken("mint-any-wopi-src"):
                return self.send(404, "unknown WopiSrc")
            expiry = int(time.time() * 1000) + 36000000
            body["AccessTokenInfo"] = {"AccessToken": secrets.token_urlsafe(16),
                                       "AccessTokenExpiry": expiry // 1000 if self.broken("expiry-in-seconds") else expiry}
        if operation == "GET_ROOT_CONTAINER" and not self.broken("no-root-container"):
            body["RootContainerInfo"] = {
                "ContainerPointer": {"Url": self.origin + "/wopi/containers/root", "Name": "Files"},
                "ContainerInfo": {"Name": "Files"}}
        content_type = "text/plain" if self.broken("bootstrap-text-plain") else "application/json"
        self.send(200, json.dumps(body), [("Content-Type", content_type)])

    def bootstrap_body(self):
        return {"Bootstrap": {"EcosystemUrl": self.ecosystem_url(), "UserId": "demo",
                              "SignInName": USER, "UserFriendlyName": "Demo User"}}

    # --- authorize, sign-in, consent

    def redirect_allowed(self, client, uri):
        if self.broken("redirect-any-uri"):
            return True
        if self.broken("prefix-match"):
            return uri.startswith(client["redirect"]) and "?" not in uri
        if self.broken("redirect-ignore-query"):
            return uri.split("?")[0] == client["redirect"]
        return uri == client["redirect"]

    def authorize(self, method, query):
        pushed = "request_uri" in query
        if pushed:
            query = self.pushed_request(query)
            if query is None:
                return self.send(400, "<p>Unknown, used or expired request_uri</p>", [("Content-Type", "text/html")])
        client = CLIENTS.get(query.get("client_id"))
        unchecked = pushed and self.broken("par-no-validation")
        if not client or not (unchecked or self.redirect_allowed(client, query.get("redirect_uri", ""))):
            return self.send(400, "<p>Unknown client or redirect URI</p>", [("Content-Type", "text/html")])
        if query.get("response_type") != "code":
            return self.redirect_back(query, {"error": "unsupported_response_type"})
        if client["public"] and not query.get("code_challenge") and not self.broken("pkce-optional"):
            return self.redirect_back(query, {"error": "invalid_request"})
        method = query.get("code_challenge_method", "plain")
        if query.get("code_challenge") and method != "S256" and not (method == "plain" and self.broken("pkce-plain-accepted")):
            return self.redirect_back(query, {"error": "invalid_request", "error_description": "only S256"})
        request_id = secrets.token_urlsafe(8)
        self.state.requests[request_id] = query
        if query.get("requested_flow"):
            return self.app_to_app(client, query, request_id)
        self.send(302, "", [("Location", "/signin?request=" + request_id)])

    def app_to_app(self, client, query, request_id):
        """Vipps-style requested_flow=app_to_app: the page that offers the host's app, for a registered callback."""
        if query["requested_flow"] == "app_to_app_v2":  # Simple Login: PKCE required, no app_callback_uri
            if not query.get("code_challenge") and not self.broken("v2-pkce-optional"):
                return self.redirect_back(query, {"error": "invalid_request", "error_description": "PKCE is required"})
            return self.send(200, f'<a href="contoso-app://approve?request={request_id}">Continue in the app</a>',
                             [("Content-Type", "text/html")])
        callback, registered = query.get("app_callback_uri", ""), client.get("app_callback")
        if self.broken("app-callback-normalised") and registered:
            callback = urllib.parse.unquote(callback).rstrip("/").lower()
            registered = registered.lower()
        if query["requested_flow"] != "app_to_app" or not registered or callback != registered:
            return self.redirect_back(query, {"error": "invalid_request", "error_description": "app_callback_uri"})
        self.send(200, self.parked_page(request_id), [("Content-Type", "text/html")])

    def signin(self, method, query):
        if method == "GET":
            page = f"""<html><body><form method="post" action="/signin">
                <input type="hidden" name="request" value="{html.escape(query.get('request', ''))}">
                <input type="text" name="username"><input type="password" name="password">
                <button type="submit">Sign in</button></form></body></html>"""
            return self.send(200, page, [("Content-Type", "text/html")])
        form = self.form()
        request_id = form.get("request", "")
        if request_id not in self.state.requests or form.get("username") != USER or form.get("password") != PASSWORD:
            return self.send(200, "<form method=post action=/signin><input type=password name=password></form>",
                             [("Content-Type", "text/html")])
        query = self.state.requests[request_id]
        if CLIENTS[query["client_id"]]["public"]:
            return self.issue_code(request_id)
        page = f"""<html><body><form method="post" action="/consent">
            <input type="hidden" name="request" value="{html.escape(request_id)}">
            <button type="submit" name="decision" value="deny">Deny</button>
            <button type="submit" name="decision" value="allow">Allow</button></form></body></html>"""
        self.send(200, page, [("Content-Type", "text/html"), ("Set-Cookie", "fixture=1; Path=/")])

    def consent(self, method, query):
        form = self.form()
        if form.get("decision") != "allow" or form.get("request") not in self.state.requests:
            return self.send(400, "consent refused")
        self.issue_code(form["request"])

    def issue_code(self, request_id):
        query = self.state.requests.pop(request_id)
        code = secrets.token_urlsafe(16)
        sc = secrets.token_urlsafe(8)
        self.state.codes[code] = {"client": query["client_id"], "redirect": query["redirect_uri"],
                                  "challenge": query.get("code_challenge"), "method": query.get("code_challenge_method"),
                                  "scope": query.get("scope", ""), "nonce": query.get("nonce"),
                                  "used": False, "tokens": [], "sc": sc}
        public = CLIENTS[query["client_id"]]["public"]
        params = {} if self.broken("no-code") and not public else {"code": code}
        if not public:
            params["tk"] = ("http://files.example.com/token" if self.broken("http-tk") else self.origin + "/token")
            params["sc"] = sc
        self.redirect_back(query, params)

    def redirect_back(self, query, params):
        if "state" in query and not self.broken("drop-state"):
            params["state"] = query["state"]
        if not ("error" in params and self.broken("iss-missing-on-error")):
            params["iss"] = self.origin  # RFC 9207, advertised in the metadata
        self.send(302, "", [("Location", query["redirect_uri"] + "?" + urllib.parse.urlencode(params))])

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--break", dest="broken", action="append", default=[], choices=sorted(SWITCHES))
    parser.add_argument("--refresh-grace", type=float, default=0, help="a documented grace window for rotated refresh tokens")
    args = parser.parse_args()
    Handler.state = State(args.broken)
    Handler.state.grace = args.refresh_grace
    Handler.origin = f"http://127.0.0.1:{args.port}"
    if "hang-authorize" in args.broken:
        silent = socket.socket()  # listens, never accepts: connections open and then nothing comes back
        silent.bind(("127.0.0.1", 0))
        silent.listen(64)
        Handler.silent_port = silent.getsockname()[1]
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
    print("ready", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
