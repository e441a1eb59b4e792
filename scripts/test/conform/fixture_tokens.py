"""The fixture host's clients, its tokens and the endpoints that answer with them: token (codes, PKCE, refresh),
OpenID discovery and userinfo, RFC 8414 metadata and /oauth/exchange. A mixin of fixture_host.Handler, which supplies
`broken`, `send`, `send_json`, `form`, `verify`, `state` and `origin` (and fixture_dpop.DPoPEndpoints `dpop_proof` and
`dpop_challenge`). Standard library only.
"""
import base64
import hashlib
import hmac
import json
import re
import secrets
import time

SECRET_KEY = secrets.token_bytes(32)
OFFICE = {"id": "office", "secret": "office-demo-secret", "redirect": "https://localhost", "public": False}
PARTNER = {"id": "partner-app", "secret": None, "redirect": "com.example.partner:/oauth2redirect", "public": True}
MERCHANT = {"id": "merchant-app", "secret": None, "redirect": "com.example.merchant:/oauth2redirect", "public": True,
            "app_callback": "com.example.merchant:/app-callback"}
BACKEND = {"id": "files-backend", "secret": "backend-demo-secret", "redirect": None, "public": False}
FILES_APP = {"id": "files-app", "secret": None, "redirect": None, "public": True, "first_party": True}
# Two apps of one vendor for Native SSO (OpenID Connect Native SSO for Mobile Apps, draft 07).
SSO_APP_A = {"id": "sso-app-a", "secret": None, "redirect": "com.example.ssoa:/oauth2redirect", "public": True,
             "sso_group": "example"}
SSO_APP_B = {"id": "sso-app-b", "secret": None, "redirect": "com.example.ssob:/oauth2redirect", "public": True,
             "sso_group": "example"}
# A native app that authenticates with attestations (fixture_attestation.py).
ATTESTED_APP = {"id": "attested-app", "secret": None, "redirect": "com.example.attested:/oauth2redirect", "public": True}
# A confidential merchant whose app signs in with Vipps-style Simple Login (requested_flow=app_to_app_v2).
MERCHANT_WEB = {"id": "merchant-web", "secret": "merchant-web-secret", "redirect": "https://merchant.example/login/callback",
                "public": False}
CLIENTS = {c["id"]: c for c in (OFFICE, PARTNER, MERCHANT, BACKEND, FILES_APP, SSO_APP_A, SSO_APP_B, ATTESTED_APP,
                                MERCHANT_WEB)}
AUTH_METHODS = ["client_secret_post", "none", "attest_jwt_client_auth"]
TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange"
DEVICE_SECRET_TYPE = "urn:openid:params:token-type:device-secret"
USER, PASSWORD = "demo@example.com", "demo-password"
SERVED_WOPI = "/wopi/files/"
VERIFIER_SYNTAX = re.compile(r"[A-Za-z0-9._~-]{43,128}")


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def b64url_decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class TokenEndpoints:
    def token_error(self, error, status=400, description="the request was refused"):
        if self.broken("error-description-charset"):
            description += " (see RFC 6749 \u00a75.2)"
        self.send_json(status, {"error": error, "error_description": description}, [("Cache-Control", "no-store")])

    @staticmethod
    def sign(claims):
        """An HS256 JWS (the fixture has only the standard library; the suite does not verify ID token signatures)."""
        header = b64url(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
        payload = b64url(json.dumps(claims, separators=(",", ":")).encode())
        signature = b64url(hmac.new(SECRET_KEY, f"{header}.{payload}".encode(), hashlib.sha256).digest())
        return f"{header}.{payload}.{signature}"

    @staticmethod
    def half_hash(value):
        """OpenID Connect Core §3.1.3.8's at_hash construction, which ds_hash reuses (SHA-256 for HS256)."""
        return b64url(hashlib.sha256(value.encode()).digest()[:16])

    def id_token_claims(self, token):
        """The claims of an ID token this fixture signed, or None."""
        try:
            header, payload, signature = token.split(".")
        except (AttributeError, ValueError):
            return None
        expected = b64url(hmac.new(SECRET_KEY, f"{header}.{payload}".encode(), hashlib.sha256).digest())
        return json.loads(b64url_decode(payload)) if hmac.compare_digest(expected, signature) else None

    def mint(self, client_id, family, code=None, jkt=None, extra=None, sid=None):
        now = int(time.time())
        sub = secrets.token_hex(6) if self.broken("unstable-sub") else "demo"
        claims = {"jti": secrets.token_hex(8), "sub": sub, "client_id": client_id, "iat": now, "exp": now + 3600}
        access = self.sign(claims)
        self.state.access[access] = {"claims": claims, "revoked": False, "family": family, "jkt": jkt}
        refresh = secrets.token_urlsafe(24)
        # RFC 9449 §5: a public client's refresh token is bound to the proof's key.
        bound = jkt if CLIENTS[client_id]["public"] else None
        self.state.refresh[refresh] = {"family": family, "rotated": False, "client": client_id, "jkt": bound}
        token_type = "DPoP" if jkt and not self.broken("dpop-bearer-type") else "Bearer"
        body = {"access_token": access, "token_type": token_type,
                "expires_in": "3600" if self.broken("expires-in-string") else 3600}
        if not self.broken("no-refresh-token"):
            body["refresh_token"] = refresh
        body.update(extra or {})
        if code and "openid" in code["scope"].split():
            id_claims = {"iss": self.origin, "aud": client_id, "sub": sub, "iat": now, "exp": now + 600,
                         "at_hash": b64url(hashlib.sha256(access.encode()).digest()[:16])}
            if code["nonce"] and not self.broken("id-token-no-nonce"):
                id_claims["nonce"] = code["nonce"]
            group = CLIENTS[client_id].get("sso_group")
            if "device_sso" in code["scope"].split() and group and sid is None:  # Native SSO draft 07 §3
                sid, secret = secrets.token_hex(8), secrets.token_urlsafe(32)
                self.state.device_secrets[secret] = {"sid": sid, "sub": sub, "group": group}
                body["device_secret"] = secret
                if not self.broken("nsso-no-ds-hash"):
                    id_claims["ds_hash"] = self.half_hash(secret)
            if sid:
                id_claims["sid"] = sid
            body["id_token"] = self.sign(id_claims)
        headers = [] if self.broken("no-cache-control") else [("Cache-Control", "no-store")]
        self.send_json(200, body, headers)
        return access, refresh

    def revoke_family(self, family):
        self.state.families[family] = True
        for record in self.state.access.values():
            if record["family"] == family:
                record["revoked"] = True

    def token(self, method, query):
        if self.broken("hang-token"):
            time.sleep(30)
        form = self.form()
        attested, problem = self.attested_client(form)
        if problem:
            return self.token_error("invalid_client", 401, description="client attestation refused: " + problem)
        client = attested or CLIENTS.get(form.get("client_id"))
        if not attested and (not client or (not client["public"] and form.get("client_secret") != client["secret"])):
            return self.token_error("invalid_client", 401)
        jkt, problem = self.dpop_proof("POST", self.origin + "/token")
        if problem:
            return self.token_error("invalid_dpop_proof", description="the DPoP proof's " + problem + " is wrong")
        grant = form.get("grant_type")
        if grant == "authorization_code":
            record = self.state.codes.get(form.get("code", ""))
            if not record:
                return self.token_error("bad_code" if self.broken("unregistered-error") else "invalid_grant")
            if (record["client"] != client["id"] and not self.broken("code-any-client")) or \
                    record["redirect"] != form.get("redirect_uri"):
                return self.token_error("invalid_grant")
            if not CLIENTS[record["client"]]["public"] and self.headers.get("X-WOPI-SessionContext") != record["sc"]:
                return self.token_error("invalid_request")
            reusable = self.broken("exchange-code-reusable" if record.get("exchange") else "code-reusable")
            if record["used"] and not reusable:
                if not self.broken("reuse-keeps-tokens"):
                    for family in record["tokens"]:
                        self.revoke_family(family)
                return self.token_error("invalid_grant")
            problem = self.pkce_problem(record, form.get("code_verifier"))
            if problem:
                return self.token_error("invalid_grant", description=problem)
            record["used"] = True
            family = secrets.token_hex(4)
            record["tokens"].append(family)
            self.mint(client["id"], family, record, jkt=jkt)
        elif grant == "refresh_token":
            if self.broken("refresh-needs-scope") and not client["public"] and not form.get("scope"):
                return self.token_error("invalid_scope", description="scope is required")
            token = form.get("refresh_token", "")
            record = self.state.refresh.get(token)
            if not record or record["client"] != client["id"] or self.state.families.get(record["family"]):
                return self.token_error("invalid_grant")
            if record.get("jkt") and jkt != record["jkt"] and not self.broken("dpop-unbound-refresh"):
                return self.token_error("invalid_dpop_proof", description="the refresh token is bound to another key")
            kind = "public-" if client["public"] else ""
            in_grace = record["rotated"] and time.monotonic() - record["rotated_at"] < self.state.grace
            if in_grace:  # a retried refresh whose answer was lost: the documented window, then reuse detection
                return self.mint(client["id"], record["family"], jkt=jkt)
            if record["rotated"] and not self.broken(kind + "no-reuse-detection"):
                self.revoke_family(record["family"])
                return self.token_error("invalid_grant")
            if self.broken(kind + "no-rotation"):
                now = int(time.time())
                claims = {"jti": secrets.token_hex(8), "sub": "demo", "client_id": client["id"], "iat": now, "exp": now + 3600}
                access = "opaque-" + secrets.token_urlsafe(16)
                self.state.access[access] = {"claims": claims, "revoked": False, "family": record["family"]}
                return self.send_json(200, {"access_token": access, "token_type": "Bearer", "expires_in": 3600,
                                            "refresh_token": token}, [("Cache-Control", "no-store")])
            record["rotated"], record["rotated_at"] = True, time.monotonic()
            self.mint(client["id"], record["family"], jkt=jkt)
        elif grant == TOKEN_EXCHANGE and form.get("actor_token_type") == DEVICE_SECRET_TYPE \
                and not self.broken("nsso-no-exchange"):
            self.native_sso_exchange(client, form)
        else:
            self.token_error("unsupported_grant_type")

    def native_sso_exchange(self, client, form):
        """Native SSO draft 07 §4: the first app's ID token and the device secret, for the second app's tokens."""
        claims = self.id_token_claims(form.get("subject_token"))
        if claims is None or form.get("subject_token_type") != "urn:ietf:params:oauth:token-type:id_token":
            return self.token_error("invalid_request", description="subject_token is not an ID token of this host")
        secret = form.get("actor_token", "")
        record = self.state.device_secrets.get(secret)
        if not self.broken("nsso-any-secret"):
            if record is None or record["group"] != client.get("sso_group"):
                return self.token_error("invalid_grant", description="the device secret is not live for this client")
            if claims.get("ds_hash") != self.half_hash(secret) and not self.broken("nsso-ignore-ds-hash"):
                return self.token_error("invalid_grant", description="the ID token is not bound to this device secret")
        code = {"scope": "openid", "nonce": None}
        self.mint(client["id"], secrets.token_hex(4), code, sid=claims.get("sid") or secrets.token_hex(8),
                  extra={"issued_token_type": "urn:ietf:params:oauth:token-type:access_token"})

    def pkce_problem(self, record, verifier):
        """Why the code_verifier does not redeem this code (RFC 7636 §4.6, RFC 9700 §4.8.2), or None."""
        challenge = record["challenge"]
        if not challenge:
            return "code_verifier without a challenge" if verifier and not self.broken("pkce-downgrade") else None
        if verifier is None:
            return None if self.broken("pkce-verifier-optional") else "code_verifier missing"
        if self.broken("pkce-ignore-verifier") or (record.get("first_party") and self.broken("fpa-ignore-verifier")) or (self.broken("pkce-challenge-cache") and challenge in self.state.verified):
            return None
        if not VERIFIER_SYNTAX.fullmatch(verifier) and not self.broken("pkce-any-verifier-syntax"):
            return "code_verifier is not 43 to 128 unreserved characters"
        plain = self.broken("pkce-broken-compare") or record["method"] == "plain"
        if (verifier if plain else b64url(hashlib.sha256(verifier.encode()).digest())) != challenge:
            return "code_verifier does not match"
        self.state.verified.add(challenge)
        return None

    def openid_configuration(self, method, query):
        algorithms = ["HS256"] if self.broken("discovery-no-rs256") else ["RS256", "HS256"]
        self.send_json(200, {"issuer": self.origin, "authorization_endpoint": self.origin + "/authorize",
                             "token_endpoint": self.origin + "/token", "jwks_uri": self.origin + "/jwks",
                             "userinfo_endpoint": self.origin + "/userinfo", "scopes_supported": ["openid", "device_sso"],
                             "response_types_supported": ["code"], "subject_types_supported": ["public"],
                             "id_token_signing_alg_values_supported": algorithms,
                             "code_challenge_methods_supported": ["S256"],
                             "authorization_response_iss_parameter_supported": True,
                             "dpop_signing_alg_values_supported": ["ES256"],
                             "pushed_authorization_request_endpoint": self.origin + "/par",
                             "authorization_challenge_endpoint": self.origin + "/authorize-challenge",
                             "token_endpoint_auth_methods_supported": AUTH_METHODS})

    def exchange(self, method, query):
        """One-time exchange codes: the caller's token buys a code for a sibling confidential client."""
        form = self.form()
        record = self.verify(self.headers.get("Authorization"))
        if record is None:
            if self.broken("exchange-no-challenge"):
                return self.token_error("invalid_request")
            return self.send(401, "", [("WWW-Authenticate", 'Bearer realm="fixture"')])
        target = CLIENTS.get(form.get("clientId"))
        if form.get("type") != "code" or target is not BACKEND:
            return self.token_error("invalid_client", 401)
        code = secrets.token_urlsafe(16)
        self.state.codes[code] = {"client": target["id"], "redirect": None, "challenge": None, "method": None,
                                  "scope": "", "nonce": None, "used": False, "tokens": [], "sc": None,
                                  "exchange": True}
        self.send_json(200, {"code": code, "expires_in": 30}, [("Cache-Control", "no-store")])

    def userinfo(self, method, query):
        scheme, _, token = (self.headers.get("Authorization") or "").partition(" ")
        if scheme.lower() == "dpop":  # RFC 9449 §7.1: the bound key's proof, with the token's hash
            record = self.verify("Bearer " + token.strip())
            if record is None:
                return self.send(401, "", self.dpop_challenge("invalid_token"))
            jkt, _ = self.dpop_proof("GET", self.origin + "/userinfo", access_token=token.strip())
            if jkt is None or jkt != record.get("jkt"):
                return self.send(401, "", self.dpop_challenge("invalid_dpop_proof"))
            return self.send_json(200, {"sub": record["claims"]["sub"]})
        record = self.verify(self.headers.get("Authorization"))
        if record is None:
            headers = [] if self.broken("userinfo-no-challenge") else [("WWW-Authenticate", 'Bearer realm="fixture"')]
            return self.send(401, "", headers)
        if record.get("jkt") and not self.broken("dpop-bearer-accepted"):  # RFC 9449 §7.2
            return self.send(401, "", self.dpop_challenge("invalid_token"))
        self.send_json(200, {"sub": record["claims"]["sub"]})

    def metadata(self, method, query):
        if self.broken("hang-metadata"):
            time.sleep(5)
        token = self.origin + ("/other-token" if self.broken("metadata-mismatch") else "/token")
        self.send_json(200, {"issuer": self.origin, "authorization_endpoint": self.origin + "/authorize",
                             "token_endpoint": token, "code_challenge_methods_supported": ["S256"],
                             "authorization_response_iss_parameter_supported": True,
                             "dpop_signing_alg_values_supported": ["ES256"],
                             "pushed_authorization_request_endpoint": self.origin + "/par",
                             "authorization_challenge_endpoint": self.origin + "/authorize-challenge",
                             "token_endpoint_auth_methods_supported": AUTH_METHODS})
