"""Drives a running `signin-bridge serve` over HTTP as a browser and Office would: the tests and scripts that need
whole flows over real sockets (crash recovery, several instances on one database) share this. Standard library only.
"""
import base64
import contextlib
import hashlib
import http.client
import json
import re
import secrets
import socket
import subprocess
import tempfile
import time
import urllib.parse
from http.cookies import SimpleCookie
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
DEMO_USER = "demo@example.com"
DEMO_PASSWORD = "demo-password"
OFFICE = ("office", "office-demo-secret")
REDIRECT = "https://localhost"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def write_config(directory: Path, port: int, keys: Path | None = None, issuer: str | None = None,
                 extra: str = "") -> Path:
    """The sample config on `port`, with its data in `directory` and the signing keys at `keys` (shared by several
    instances). The issuer follows the port unless `issuer` is given (one issuer for instances behind one name).
    PostgreSQL is chosen by the environment (`SIGNIN_BRIDGE_STORE_URL`), not here."""
    text = (ROOT / "samples" / "bridge.yaml").read_text()
    text = text.replace("  port: 8080", f"  port: {port}")
    if issuer:
        text = f"issuer: {issuer}\n" + text
    text = text.replace("path: data/bridge.sqlite", f"path: {directory}/bridge.sqlite")
    text = text.replace("file: data/signing-keys.json", f"file: {keys or directory / 'signing-keys.json'}")
    path = directory / f"bridge-{port}.yaml"
    path.write_text(text + extra)
    return path


@contextlib.contextmanager
def serving(binary: str, edit=None):
    """One `signin-bridge serve` on the sample configuration, its text changed by `edit` when given, in a throwaway
    folder; yields the port and stops the server afterwards."""
    with serving_in_folder(binary, edit) as (port, _):
        yield port


@contextlib.contextmanager
def serving_in_folder(binary: str, edit=None):
    """`serving`, yielding the port and the throwaway folder too (its bridge.sqlite is the server's store)."""
    with tempfile.TemporaryDirectory() as directory:
        port = free_port()
        config = write_config(Path(directory), port)
        if edit:
            config.write_text(edit(config.read_text()))
        server = Server(binary, config, port, Path(directory) / "server.log").start()
        try:
            yield port, Path(directory)
        finally:
            server.stop()


class Server:
    """One `signin-bridge serve` process; `kill()` is kill -9."""

    def __init__(self, binary: str, config: Path, port: int, log: Path, env: dict | None = None):
        self.binary, self.config, self.port, self.log, self.env = binary, config, port, log, env
        self.process = None

    def start(self, timeout=30.0):
        self.process = subprocess.Popen(
            [self.binary, "serve", "--config", str(self.config), "--port", str(self.port)],
            stdout=open(self.log, "ab"), stderr=subprocess.STDOUT, env=self.env)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited with {self.process.returncode}; see {self.log}")
            try:
                status, _, _ = request("127.0.0.1", self.port, "GET", "/auth/health", timeout=1)
                if status == 200:
                    return self
            except OSError:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"server on {self.port} did not answer within {timeout} s; see {self.log}")

    def kill(self):
        self.process.kill()
        self.process.wait()

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


def request(host, port, method, path, body=None, headers=None, timeout=10):
    connection = http.client.HTTPConnection(host, port, timeout=timeout)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, dict((k.lower(), v) for k, v in response.getheaders()), response.read()
    finally:
        connection.close()


class Browser:
    """A cookie jar and the authorize flow as a person in a browser goes through it (no redirect is followed past
    the server's own pages)."""

    def __init__(self, port: int, user: str = DEMO_USER, password: str = DEMO_PASSWORD):
        self.port = port
        self.user, self.password = user, password
        self.cookies: dict[str, str] = {}

    def call(self, method, path, form=None):
        headers = {}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        status, response_headers, content = request("127.0.0.1", self.port, method, path, body, headers)
        for line in response_headers.get("set-cookie", "").split("\n"):
            cookie = SimpleCookie()
            cookie.load(line)
            for name, morsel in cookie.items():
                self.cookies[name] = morsel.value
        return status, response_headers, content.decode("utf-8", "replace")

    def authorize(self, client_id="office", redirect_uri=REDIRECT, state="s", challenge=None):
        """Walks authorize → sign-in → consent as needed; returns the final redirect's query parameters."""
        query = {"client_id": client_id, "redirect_uri": redirect_uri, "response_type": "code", "scope": "wopi",
                 "state": state}
        if challenge:
            query.update(code_challenge=challenge, code_challenge_method="S256")
        location = self.walk("/oauth2/authorize?" + urllib.parse.urlencode(query), redirect_uri)
        return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(location).query))

    def walk(self, path, redirect_uri):
        """GETs `path` and goes through the server's pages (sign-in as this browser's user, allow) until the redirect
        to `redirect_uri`; returns that URL."""
        status, headers, page = self.call("GET", path)
        for _ in range(6):
            if status in (302, 303):
                location = headers["location"]
                if location.startswith(redirect_uri):
                    return location
                status, headers, page = self.call("GET", urllib.parse.urlsplit(location).path)
                continue
            action = re.search(r'action="([^"]*)"', page)
            csrf = re.search(r'name="csrf_token" value="([^"]*)"', page)
            if status != 200 or not action or not csrf:
                raise RuntimeError(f"unexpected page {status}: {page[:300]}")
            form = {"csrf_token": csrf.group(1)}
            if action.group(1).endswith("/signin"):
                form.update(username=self.user, password=self.password)
            else:
                form["decision"] = "allow"
            status, headers, page = self.call("POST", action.group(1), form)
        raise RuntimeError("the flow did not end in a redirect")


def basic(client=OFFICE):
    return "Basic " + base64.b64encode(f"{client[0]}:{client[1]}".encode()).decode()


def token_request(port, form, client=OFFICE):
    status, _, content = request(
        "127.0.0.1", port, "POST", "/oauth2/token", urllib.parse.urlencode(form),
        {"Content-Type": "application/x-www-form-urlencoded", "Authorization": basic(client)})
    try:
        return status, json.loads(content)
    except ValueError:
        return status, {"raw": content.decode("utf-8", "replace")}


def redeem(port, code, redirect_uri=REDIRECT):
    return token_request(port, {"grant_type": "authorization_code", "code": code, "redirect_uri": redirect_uri})


def refresh(port, refresh_token):
    return token_request(port, {"grant_type": "refresh_token", "refresh_token": refresh_token})


def bootstrap(port, access_token):
    status, _, _ = request("127.0.0.1", port, "GET", "/wopibootstrapper",
                           headers={"Authorization": f"Bearer {access_token}"})
    return status


def pkce_pair():
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    return verifier, challenge
