"""The benchmark's baseline: the same authorization code flow with PKCE (S256) as SignInBridge's authorize and token
endpoints, written the way authlib's documentation shows (Flask integration, AuthorizationCodeGrant + CodeChallenge),
on SQLite in WAL mode with synchronous=NORMAL (what SignInBridge uses), served by gunicorn.

The authorize endpoint serves a signed-in browser that consented before, as SignInBridge's does on its fast path:
the session cookie is looked up in the database with the user's consent, then the code is stored and the browser
redirected with it.

Same work per request as SignInBridge: HTTP Basic client authentication against a SHA-256 secret hash, an atomic
single-use code redemption, PKCE S256, an ES256-signed JWT access token whose id is recorded, and an opaque
256-bit refresh token stored as a SHA-256 digest.
"""
import hashlib
import hmac
import os
import secrets
import sqlite3
import time
import uuid

from authlib.integrations.flask_oauth2 import AuthorizationServer
from authlib.jose import JsonWebKey, jwt
from authlib.oauth2.rfc6749 import ClientMixin, grants
from authlib.oauth2.rfc6750 import BearerTokenGenerator
from authlib.oauth2.rfc7636 import CodeChallenge
from flask import Flask
from flask import request as flask_request

DB_PATH = os.environ["PEER_DB"]
ISSUER = "http://127.0.0.1"
CLIENT_ID = "office"
CLIENT_SECRET_SHA256 = hashlib.sha256(b"office-demo-secret").digest()
REDIRECT_URI = "https://localhost"
KEY = JsonWebKey.generate_key("EC", "P-256", is_private=True)
KID = KEY.thumbprint()

_db = None


def db():
    global _db
    if _db is None:
        _db = sqlite3.connect(DB_PATH, isolation_level=None, check_same_thread=False)
        _db.execute("PRAGMA journal_mode=WAL")
        _db.execute("PRAGMA synchronous=NORMAL")
        _db.execute("PRAGMA busy_timeout=5000")
    return _db


def create_schema(path):
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.executescript(
        """
        CREATE TABLE IF NOT EXISTS codes (digest TEXT PRIMARY KEY, client_id TEXT NOT NULL, redirect_uri TEXT NOT NULL,
            scope TEXT NOT NULL, user_id TEXT NOT NULL, code_challenge TEXT, code_challenge_method TEXT,
            auth_time INTEGER NOT NULL, expires_at INTEGER NOT NULL, redeemed_at INTEGER);
        CREATE TABLE IF NOT EXISTS access_tokens (jti TEXT PRIMARY KEY, client_id TEXT NOT NULL, user_id TEXT NOT NULL,
            issued_at INTEGER NOT NULL, expires_at INTEGER NOT NULL);
        CREATE TABLE IF NOT EXISTS refresh_tokens (digest TEXT PRIMARY KEY, client_id TEXT NOT NULL,
            user_id TEXT NOT NULL, scope TEXT NOT NULL, issued_at INTEGER NOT NULL);
        CREATE TABLE IF NOT EXISTS sessions (digest TEXT PRIMARY KEY, user_id TEXT NOT NULL, expires_at INTEGER NOT NULL);
        CREATE TABLE IF NOT EXISTS consents (user_id TEXT NOT NULL, client_id TEXT NOT NULL, scope TEXT NOT NULL,
            PRIMARY KEY (user_id, client_id));
        """
    )
    conn.close()


def seed_session(path, secret, user_id="demo"):
    """A signed-in browser (`sid` cookie = secret) whose user allowed the client before."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("INSERT INTO sessions VALUES (?, ?, ?)",
                 (hashlib.sha256(secret.encode()).hexdigest(), user_id, int(time.time() * 1000) + 86_400_000))
    conn.execute("INSERT OR REPLACE INTO consents VALUES (?, ?, ?)", (user_id, CLIENT_ID, "wopi"))
    conn.close()


class Client(ClientMixin):
    client_id = CLIENT_ID

    def get_client_id(self):
        return CLIENT_ID

    def get_default_redirect_uri(self):
        return REDIRECT_URI

    def get_allowed_scope(self, scope):
        return scope

    def check_redirect_uri(self, redirect_uri):
        return redirect_uri == REDIRECT_URI

    def check_client_secret(self, client_secret):
        presented = hashlib.sha256(client_secret.encode()).digest()
        return hmac.compare_digest(presented, CLIENT_SECRET_SHA256)

    def check_endpoint_auth_method(self, method, endpoint):
        return method == "client_secret_basic"

    def check_response_type(self, response_type):
        return response_type == "code"

    def check_grant_type(self, grant_type):
        return grant_type in ("authorization_code", "refresh_token")


CLIENT = Client()


class User:
    def __init__(self, user_id):
        self.id = user_id

    def get_user_id(self):
        return self.id


class Code:
    def __init__(self, row):
        (self.client_id, self.redirect_uri, self.scope, self.user_id, self.code_challenge,
         self.code_challenge_method, self.auth_time) = row

    def get_redirect_uri(self):
        return self.redirect_uri

    def get_scope(self):
        return self.scope

    def get_auth_time(self):
        return self.auth_time

    def get_nonce(self):
        return None


class AuthorizationCodeGrant(grants.AuthorizationCodeGrant):
    TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic"]

    def query_authorization_code(self, code, client):
        # Consumed in the same statement that finds it, so two workers can never both redeem it.
        now = int(time.time() * 1000)
        row = db().execute(
            "UPDATE codes SET redeemed_at = ? WHERE digest = ? AND redeemed_at IS NULL AND expires_at > ? "
            "RETURNING client_id, redirect_uri, scope, user_id, code_challenge, code_challenge_method, auth_time",
            (now, hashlib.sha256(code.encode()).hexdigest(), now),
        ).fetchone()
        if row is None or row[0] != client.get_client_id():
            return None
        return Code(row)

    def save_authorization_code(self, code, request):
        data = request.payload.data
        now = int(time.time() * 1000)
        db().execute(
            "INSERT INTO codes (digest, client_id, redirect_uri, scope, user_id, code_challenge, code_challenge_method,"
            " auth_time, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (hashlib.sha256(code.encode()).hexdigest(), CLIENT_ID, request.payload.redirect_uri, request.scope or "",
             request.user.get_user_id(), data.get("code_challenge"), data.get("code_challenge_method"), now // 1000,
             now + 60_000))

    def delete_authorization_code(self, authorization_code):
        pass  # already consumed atomically in query_authorization_code

    def authenticate_user(self, authorization_code):
        return User(authorization_code.user_id)


def access_token(client, grant_type, user, scope):
    now = int(time.time())
    jti = str(uuid.uuid4())
    claims = {"iss": ISSUER, "sub": user.get_user_id(), "aud": ISSUER, "exp": now + 3600, "iat": now, "jti": jti,
              "client_id": client.get_client_id(), "scope": scope}
    token = jwt.encode({"alg": "ES256", "kid": KID, "typ": "at+jwt"}, claims, KEY).decode()
    db().execute("INSERT INTO access_tokens VALUES (?, ?, ?, ?, ?)",
                 (jti, client.get_client_id(), user.get_user_id(), now * 1000, (now + 3600) * 1000))
    return token


def refresh_token(client, grant_type, user, scope):
    return secrets.token_urlsafe(32)


def save_token(token, request):
    if "refresh_token" in token:
        db().execute("INSERT INTO refresh_tokens VALUES (?, ?, ?, ?, ?)",
                     (hashlib.sha256(token["refresh_token"].encode()).hexdigest(), CLIENT_ID,
                      request.user.get_user_id(), token.get("scope", ""), int(time.time() * 1000)))


app = Flask(__name__)
server = AuthorizationServer(app, query_client=lambda client_id: CLIENT if client_id == CLIENT_ID else None,
                             save_token=save_token)
server.register_token_generator("default", BearerTokenGenerator(access_token, refresh_token, lambda client, grant_type: 3600))
server.register_grant(AuthorizationCodeGrant, [CodeChallenge(required=True)])


@app.get("/oauth2/authorize")
def authorize():
    secret = flask_request.cookies.get("sid", "")
    row = db().execute(
        "SELECT s.user_id FROM sessions s JOIN consents c ON c.user_id = s.user_id AND c.client_id = ?"
        " WHERE s.digest = ? AND s.expires_at > ?",
        (CLIENT_ID, hashlib.sha256(secret.encode()).hexdigest(), int(time.time() * 1000)),
    ).fetchone()
    if row is None:
        return "sign in first", 401
    return server.create_authorization_response(grant_user=User(row[0]))


@app.post("/oauth2/token")
def issue_token():
    return server.create_token_response()
