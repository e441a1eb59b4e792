#!/usr/bin/env python3
"""Debian's nginx in front of a stand-in WOPI host, asking SignInBridge before each request (`auth_request` to
/wopi/auth), with the configuration of samples/nginx/wopi-forward-auth.conf as docs/wopi-hosts.md shows it. Tokens
come from a real bootstrap (GET_NEW_ACCESS_TOKEN). A good token's CheckFileInfo reaches the host with the user's
fields; forged, expired, revoked, other-file and other-user tokens never do, and with SignInBridge stopped nginx
answers an error of its own. nginx runs as a process this script owns (`daemon off`, its own prefix in a temporary
folder, loopback ports). Ends with "N passed, N failed"; exits 1 on any failure.

Usage: wopi_forward_auth.py --binary .build/debug/signin-bridge [--nginx /usr/sbin/nginx]
"""
import argparse
import http.server
import json
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from flows.bridge import ROOT, REDIRECT, OFFICE, Server, basic, free_port, request, write_config  # noqa: E402
from flows.tally import check, tally  # noqa: E402
from flows.wopi import BOB, configure, ecosystem_token, file_token, forged, resealed, signed_in  # noqa: E402

SNIPPET = ROOT / "samples" / "nginx" / "wopi-forward-auth.conf"


class Backend(http.server.ThreadingHTTPServer):
    """The stand-in WOPI host: answers CheckFileInfo-shaped JSON and records every request that reaches it."""

    def __init__(self, port):
        self.seen = []
        super().__init__(("127.0.0.1", port), BackendHandler)


class BackendHandler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.server.seen.append({"method": "GET", "path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}})
        body = json.dumps({"BaseFileName": "a.docx", "UserId": self.headers.get("X-WOPI-User-Id", "")}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_POST = do_GET

    def log_message(self, *args):
        pass


def nginx_config(prefix: Path, port: int, bridge_port: int, backend_port: int) -> Path:
    """The http {} around the documented snippet, unchanged: its two upstreams and one loopback server."""
    path = prefix / "nginx.conf"
    path.write_text(f"""daemon off;
master_process off;
worker_processes 1;
error_log {prefix}/error.log info;
pid {prefix}/nginx.pid;
events {{ worker_connections 64; }}
http {{
    access_log {prefix}/access.log;
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
    upstream signin_bridge {{ server 127.0.0.1:{bridge_port}; }}
    upstream wopi_host {{ server 127.0.0.1:{backend_port}; }}
    server {{
        listen 127.0.0.1:{port};
        include {SNIPPET};
    }}
}}
""")
    return path


def start_nginx(binary: str, prefix: Path, config: Path, port: int, timeout=60.0):
    process = subprocess.Popen([binary, "-p", str(prefix), "-c", str(config)],
                               stdout=open(prefix / "nginx.out", "ab"), stderr=subprocess.STDOUT)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"nginx exited with {process.returncode}: {(prefix / 'nginx.out').read_text()[-500:]}")
        try:
            request("127.0.0.1", port, "GET", "/", timeout=1)
            return process
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise RuntimeError(f"nginx did not answer on {port} within {timeout} s")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--nginx", default=shutil.which("nginx") or "/usr/sbin/nginx")
    args = parser.parse_args()
    doc = (ROOT / "docs" / "wopi-hosts.md").read_text()
    check(SNIPPET.read_text().strip() in doc, "docs/wopi-hosts.md shows samples/nginx/wopi-forward-auth.conf unchanged")
    with tempfile.TemporaryDirectory() as work:
        work = Path(work)
        bridge_port, nginx_port, backend_port = free_port(), free_port(), free_port()
        prefix = f"http://127.0.0.1:{nginx_port}/wopi/files/"
        config = write_config(work, bridge_port)
        config.write_text(configure(config.read_text(), prefix))
        server = Server(args.binary, config, bridge_port, work / "serve.log").start()
        backend = Backend(backend_port)
        threading.Thread(target=backend.serve_forever, daemon=True).start()
        (work / "nginx").mkdir()
        nginx = start_nginx(args.nginx, work / "nginx", nginx_config(work / "nginx", nginx_port, bridge_port, backend_port),
                            nginx_port)
        try:
            run(bridge_port, nginx_port, prefix, backend, server, work)
        finally:
            server.stop()
            nginx.terminate()
            try:
                nginx.wait(timeout=10)
            except subprocess.TimeoutExpired:
                nginx.kill()
            backend.shutdown()
    return tally.summary()


def run(bridge_port, nginx_port, prefix, backend, server, work):
    file_a, file_b = prefix + "doc-a", prefix + "doc-b"
    demo = signed_in(bridge_port)
    bob = signed_in(bridge_port, BOB)
    token_a = file_token(bridge_port, demo["access_token"], file_a)
    bob_b = file_token(bridge_port, bob["access_token"], file_b)

    def wopi(path, token=None, headers=None, method="GET"):
        before = len(backend.seen)
        target = path + ("?access_token=" + urllib.parse.quote(token, safe="") if token else "")
        status, response_headers, body = request("127.0.0.1", nginx_port, method, target, headers=headers)
        return status, backend.seen[before:], body

    path_a = urllib.parse.urlsplit(file_a).path
    status, reached, body = wopi(path_a, token_a)
    check(status == 200 and len(reached) == 1, "CheckFileInfo with the file's token reaches the host", (status, body))
    fields = reached[0]["headers"] if reached else {}
    check(fields.get("x-wopi-user-id") == "demo", "with X-WOPI-User-Id: the bootstrap's UserId", fields)
    check(fields.get("x-wopi-sign-in-name") == "demo@example.com", "and X-WOPI-Sign-In-Name", fields)
    check(fields.get("x-wopi-token-expiry", "").isdigit() and int(fields["x-wopi-token-expiry"]) > time.time() * 1000,
          "and X-WOPI-Token-Expiry in milliseconds since the epoch", fields)
    check(reached and reached[0]["path"].startswith(path_a + "?access_token="), "the request itself unchanged", reached)

    status, reached, _ = wopi(path_a + "/contents", token_a)
    check(status == 200 and len(reached) == 1, "GetFile (/contents) names the same file and passes")
    status, reached, _ = wopi(path_a, token_a, method="POST", headers={"X-WOPI-Override": "LOCK", "X-WOPI-Lock": "l1"})
    check(status == 200 and len(reached) == 1, "a POST (Lock) passes too")
    status, reached, _ = wopi(path_a, headers={"Authorization": "Bearer " + token_a})
    check(status == 200 and len(reached) == 1, "the token in Authorization: Bearer instead of the query passes")
    status, reached, _ = wopi(path_a, token_a, headers={"X-WOPI-User-Id": "admin", "X-WOPI-Sign-In-Name": "admin"})
    seen = reached[0]["headers"] if reached else {}
    check(status == 200 and seen.get("x-wopi-user-id") == "demo" and seen.get("x-wopi-sign-in-name") == "demo@example.com",
          "fields the client sent itself are replaced by the check's", seen)

    # The expired case below is resealed from the documented format; sealed the same way with a later expiry it
    # passes, so its refusal is the expiry's and not a mistake in the seal.
    later = resealed(token_a, work / "signing-keys.json", int(time.time() * 1000) + 600_000)
    status, reached, _ = wopi(path_a, later)
    check(status == 200 and len(reached) == 1, "a token resealed here from docs/wopi-access-tokens.md passes", status)

    refused = [
        ("no token", path_a, None, 401),
        ("a forged token", path_a, forged(token_a), 401),
        ("an expired token", path_a, resealed(token_a, work / "signing-keys.json", int(time.time() * 1000) - 1000), 401),
        ("another file's token", urllib.parse.urlsplit(file_b).path, token_a, 403),
        ("another user's token (bob's, for his file)", path_a, bob_b, 403),
        ("the ecosystem token, which is for no one file", path_a, ecosystem_token(bridge_port, demo["access_token"]), 403),
    ]
    for name, path, token, expected in refused:
        status, reached, _ = wopi(path, token)
        check(status == expected and not reached, f"{name}: nginx answers {expected}, the host sees nothing", (status, reached))
    status, reached, _ = wopi(urllib.parse.urlsplit(file_b).path, bob_b)
    seen = reached[0]["headers"] if reached else {}
    check(status == 200 and seen.get("x-wopi-user-id") == "bob", "bob's token for his own file reaches the host as bob", seen)

    # Revoking the refresh token revokes the grant, and with it every WOPI token handed out under it (RFC 7009 §2.1).
    revoked_user = signed_in(bridge_port)
    revoked_token = file_token(bridge_port, revoked_user["access_token"], file_a)
    status, reached, _ = wopi(path_a, revoked_token)
    check(status == 200 and len(reached) == 1, "a second sign-in's token passes before its revocation")
    status, _, _ = request("127.0.0.1", bridge_port, "POST", "/oauth2/revoke",
                           urllib.parse.urlencode({"token": revoked_user["refresh_token"]}),
                           {"Content-Type": "application/x-www-form-urlencoded", "Authorization": basic(OFFICE)})
    check(status == 200, "the refresh token is revoked (RFC 7009)")
    status, reached, _ = wopi(path_a, revoked_token)
    check(status == 401 and not reached, "a revoked grant's token: 401, the host sees nothing", status)
    status, reached, _ = wopi(path_a, token_a)
    check(status == 200 and len(reached) == 1, "the first sign-in's token still passes")

    # The check itself, asked directly with what a confused or hostile proxy could send: a 4xx each, never a pass and
    # never a 5xx.
    hostile = [
        {},
        {"X-Original-URI": b"/wopi/files/\xff\xfe?access_token=" + token_a.encode()},
        {"X-Original-URI": path_a + "/../../admin?access_token=" + token_a},
        {"X-Original-URI": "/wopi/files/%2e%2e?access_token=" + token_a},
        {"X-Original-URI": "/wopi/files/a%00b?access_token=" + token_a},
        {"X-Original-URI": path_a + "?access_token=" + token_a + "&access_token=" + token_a},
        {"X-Original-URI": path_a + "?access_token=%", "X-Original-Method": "GET"},
        {"X-Original-URI": path_a + "?access_token=" + token_a, "X-Original-Method": "DELETE"},
        {"X-Original-URI": path_a + "?access_token=" + token_a, "X-Forwarded-Host": "attacker.test"},
        {"X-Original-URI": path_a + "?access_token=" + "w1." + "A" * 7000},
        {"X-Original-URI": path_a, "Authorization": "Bearer " + bob_b},
        {"X-Forwarded-Uri": urllib.parse.urlsplit(file_b).path + "?access_token=" + token_a},
    ]
    answers = [request("127.0.0.1", bridge_port, "GET", "/wopi/auth", headers=h)[0] for h in hostile]
    check(all(400 <= a < 500 for a in answers), "hostile sub-requests straight to /wopi/auth: a 4xx each", answers)

    server.stop()
    status, reached, _ = wopi(path_a, token_a)
    check(status in (500, 502, 503) and not reached, "with SignInBridge stopped nginx answers an error, passes nothing",
          status)


if __name__ == "__main__":
    sys.exit(main())
