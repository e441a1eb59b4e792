"""glewlwyd (Debian package `glewlwyd`, an OAuth 2.0 / OpenID Connect server in C by someone else) as the host's own
identity provider, run from nothing in a throwaway folder: its SQLite database from the SQL script the package ships,
a config file naming that folder, then everything else through its admin REST API as the default admin, the way its
GETTING_STARTED.md has an administrator do it (scope `wopi`, user, Office's confidential client, the OpenID Connect
plugin with RS256 keys we generate). Its access tokens are JWTs (its OIDC.md, "Access token format").

The browser's part of the sign-in is glewlwyd's login web app's, which is a script calling the same REST API
(POST /api/auth/ with the password, PUT /api/auth/grant/{client} for consent, then the authorization endpoint again):
`sign_in` makes those calls. Needs the venv's `cryptography` and `jwcrypto` (key generation) and `requests`.
"""
import gzip
import json
import shutil
import sqlite3
import subprocess
import time
import urllib.parse
from pathlib import Path

import requests
from jwcrypto import jwk

SQL = Path("/usr/share/doc/glewlwyd/database/init.sqlite3.sql.gz")
ADMIN = ("admin", "password")  # the shipped SQL script's administrator (GETTING_STARTED.md, "First connection")
PLUGIN = "oidc"
USER = {"username": "alice", "password": "alice-password", "name": "Alice Example", "email": "alice@example.com"}
OFFICE = ("office", "office-idp-secret", "https://localhost")

CONFIG = """port={port}
bind_address="127.0.0.1"
external_url="http://127.0.0.1:{port}"
login_url="login.html"
api_prefix="api"
allow_origin="*"
log_mode="file"
log_level="INFO"
log_file="{log}"
cookie_secure=0
session_expiration=3600
session_key="GLEWLWYD2_SESSION_ID"
admin_session_authentication="cookie"
profile_session_authentication="cookie"
admin_scope="g_admin"
profile_scope="g_profile"
user_module_path="/usr/lib/glewlwyd/user"
client_module_path="/usr/lib/glewlwyd/client"
user_auth_scheme_module_path="/usr/lib/glewlwyd/scheme"
plugin_module_path="/usr/lib/glewlwyd/plugin"
hash_algorithm="SHA512"
database = {{ type = "sqlite3"; path = "{database}"; }};
"""


def available() -> bool:
    return shutil.which("glewlwyd") is not None and SQL.exists()


def rsa_key(kid: str) -> jwk.JWK:
    return jwk.JWK.generate(kty="RSA", size=2048, kid=kid, alg="RS256", use="sig")


class Glewlwyd:
    """One glewlwyd process on `port` with its data in `directory`; `start()` sets it up the first time."""

    def __init__(self, directory: Path, port: int):
        self.directory, self.port = directory, port
        self.base = f"http://127.0.0.1:{port}"
        self.issuer = f"{self.base}/api/{PLUGIN}"
        self.database = directory / "glewlwyd.sqlite3"
        self.log = directory / "glewlwyd.log"
        self.config = directory / "glewlwyd.conf"
        self.keys = [rsa_key("glewlwyd-key-1")]
        self.process = None
        self.admin = requests.Session()

    # -- process -----------------------------------------------------------------------------------------------
    def start(self, timeout=60.0):
        first = not self.database.exists()
        if first:
            with sqlite3.connect(self.database) as db:
                db.executescript(gzip.decompress(SQL.read_bytes()).decode())
            self.config.write_text(CONFIG.format(port=self.port, log=self.log, database=self.database))
        self.process = subprocess.Popen(["glewlwyd", "--config-file", str(self.config)],
                                        stdout=subprocess.DEVNULL, stderr=open(self.directory / "stderr.log", "ab"))
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"glewlwyd exited with {self.process.returncode}; see {self.log}")
            try:
                if requests.get(f"{self.base}/config", timeout=2).status_code == 200:
                    break
            except requests.RequestException:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"glewlwyd did not answer within {timeout} s; see {self.log}")
            time.sleep(0.1)
        if first:
            self.provision()
        return self

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    # -- administration (API.md) -------------------------------------------------------------------------------
    def call(self, method, path, body=None):
        response = self.admin.request(method, f"{self.base}/api{path}", json=body, timeout=30)
        if response.status_code != 200:
            raise RuntimeError(f"glewlwyd {method} {path}: {response.status_code} {response.text[:300]}")
        return response

    def provision(self):
        self.call("POST", "/auth/", {"username": ADMIN[0], "password": ADMIN[1]})
        self.call("POST", "/scope/", {"name": "wopi", "display_name": "WOPI", "description": "Files in Office",
                                      "password_required": True, "password_max_age": 0, "scheme": {}})
        self.call("POST", "/user/", dict(USER, scope=["openid", "wopi", "g_profile"], enabled=True))
        self.call("POST", "/client/", {
            "client_id": OFFICE[0], "client_secret": OFFICE[1], "name": "Microsoft Office", "enabled": True,
            "confidential": True, "redirect_uri": [OFFICE[2]], "scope": ["openid", "wopi"],
            # client_credentials: what glewlwyd asks of a client to use introspection and revocation (OIDC.md).
            "authorization_type": ["code", "refresh_token", "client_credentials"],
            "token_endpoint_auth_method": ["client_secret_basic"]})
        self.call("POST", "/mod/plugin/", {"module": "oidc", "name": PLUGIN, "display_name": "OpenID Connect",
                                           "enabled": True, "parameters": self.plugin_parameters()})

    def plugin_parameters(self):
        return {
            "iss": self.issuer, "jwt-type": "rsa", "jwt-key-size": "256",
            "jwks-private": json.dumps({"keys": [json.loads(k.export_private()) for k in self.keys]}),
            "default-kid": self.keys[0].get("kid"),
            "access-token-duration": 3600, "refresh-token-duration": 1209600, "code-duration": 600,
            "refresh-token-rolling": True, "allow-non-oidc": False, "auth-type-code-enabled": True,
            "auth-type-refresh-enabled": True, "auth-type-client-enabled": True, "auth-type-token-enabled": False,
            "auth-type-id-token-enabled": True, "auth-type-none-enabled": False, "auth-type-password-enabled": False,
            # The sign-in name in the access token (OIDC.md, "Additional token values") and at /userinfo beside
            # `name` and `sub` ("Additional claims"); the display name only at /userinfo.
            "additional-parameters": [{"user-parameter": "username", "token-parameter": "preferred_username"}],
            "claims": [{"name": "preferred_username", "user-property": "username", "type": "string",
                        "mandatory": True}],
            "scope": [], "secret-type": "public", "jwks-show": True,
            "name-claim": "mandatory", "email-claim": "no", "allowed-scope": ["openid", "wopi"],
            "introspection-revocation-allowed": True, "introspection-revocation-allow-target-client": True,
            "introspection-revocation-auth-scope": []}

    def rotate(self, kid: str) -> jwk.JWK:
        """A new signing key first in the plugin's JWKS (the old one kept for tokens it signed), applied with the
        plugin reset, as OIDC.md's "Key rotation" example does."""
        self.keys.insert(0, rsa_key(kid))
        current = self.call("GET", f"/mod/plugin/{PLUGIN}").json()
        current["parameters"] = self.plugin_parameters()
        self.call("PUT", f"/mod/plugin/{PLUGIN}", current)
        self.call("PUT", f"/mod/plugin/{PLUGIN}/reset")
        return self.keys[0]

    # -- a person's sign-in --------------------------------------------------------------------------------------
    def sign_in(self, authorize_url: str, user=USER) -> str:
        """Plays the browser from `authorize_url` (built by the client library) to the redirect to Office's
        redirect URI, as glewlwyd's login app does: the authorization endpoint sends the browser to login.html with
        a callback_url; the app signs in, records the consent, and returns to callback_url with g_continue."""
        browser = requests.Session()
        response = browser.get(authorize_url, allow_redirects=False, timeout=30)
        login = urllib.parse.urlsplit(response.headers.get("Location", ""))
        callback = dict(urllib.parse.parse_qsl(login.query)).get("callback_url")
        if response.status_code != 302 or not login.path.endswith("/login.html") or not callback:
            raise RuntimeError(f"glewlwyd did not send the browser to its login page: {response.status_code} {login}")
        query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(authorize_url).query))
        browser.post(f"{self.base}/api/auth/", json={"username": user["username"], "password": user["password"]},
                     timeout=30).raise_for_status()
        # The consent screen's PUT; glewlwyd's scope list here is space-separated.
        browser.put(f"{self.base}/api/auth/grant/{query['client_id']}", json={"scope": query["scope"]},
                    timeout=30).raise_for_status()
        response = browser.get(callback + "&g_continue", allow_redirects=False, timeout=30)
        location = response.headers.get("Location", "")
        if response.status_code != 302 or not location.startswith(OFFICE[2]):
            raise RuntimeError(f"glewlwyd's authorization endpoint: {response.status_code} {location[:300]}")
        return location
