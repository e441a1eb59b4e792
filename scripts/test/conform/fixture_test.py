"""Every check of `signin-bridge conform` can fail: for each check, the fixture host with one switch that breaks its
rule makes that check FAIL (or WARN, for a SHOULD) with its id, and the unbroken fixture makes every check PASS.
Also checks the exit statuses (0 all MUST pass, 1 a MUST failed, 2 usage or unreachable).

Usage: fixture_test.py --binary PATH/signin-bridge      Prints "conform-fixture: N passed, M failed".
"""
import argparse
import http.client
import json
import subprocess
import sys
import time
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "flows"))
from bridge import free_port  # noqa: E402

FIXTURE = Path(__file__).resolve().parent / "fixture_host.py"

# check id -> (switch that breaks it, status the check must report)
BREAKS = {
    "challenge.status-401": ("challenge-200", "FAIL"),
    "challenge.single-bearer": ("two-bearers", "FAIL"),
    "challenge.endpoints": ("relative-token-uri", "FAIL"),
    "challenge.provider-id": ("bad-provider-id", "FAIL"),
    "challenge.url-schemes": ("android-incomplete-triple", "FAIL"),
    "challenge.naive-split": ("comma-in-uri", "FAIL"),
    "challenge.no-empty-elements": ("trailing-comma", "FAIL"),
    "challenge.no-duplicate-parameter": ("duplicate-parameter", "FAIL"),
    "challenge.quoted-values": ("unquoted-provider-id", "WARN"),
    "unauthorized.missing-token": ("operation-without-token", "FAIL"),
    "unauthorized.blank-token": ("blank-token-400", "FAIL"),
    "unauthorized.malformed-token": ("malformed-500", "FAIL"),
    "unauthorized.expired-token": ("accept-expired", "FAIL"),
    "unauthorized.foreign-signed-token": ("accept-foreign-signed", "FAIL"),
    "authorize.sign-in": ("no-code", "FAIL"),
    "authorize.state-echoed": ("drop-state", "FAIL"),
    "authorize.tk-sc": ("http-tk", "FAIL"),
    "token.response-shape": ("no-refresh-token", "FAIL"),
    "token.no-store": ("no-cache-control", "FAIL"),
    "bootstrap.authenticated": ("bootstrap-text-plain", "FAIL"),
    "bootstrap.new-access-token": ("no-access-token-info", "FAIL"),
    "bootstrap.foreign-wopi-src": ("mint-any-wopi-src", "FAIL"),
    "bootstrap.root-container": ("no-root-container", "WARN"),
    "refresh.rotation": ("no-rotation", "WARN"),
    "refresh.reuse-detection": ("no-reuse-detection", "WARN"),
    "code.reuse-refused": ("code-reusable", "FAIL"),
    "code.reuse-revokes": ("reuse-keeps-tokens", "WARN"),
    "redirect.unregistered": ("redirect-any-uri", "FAIL"),
    "redirect.prefix-match": ("prefix-match", "FAIL"),
    "pkce.required": ("pkce-optional", "FAIL"),
    "pkce.verified": ("pkce-broken-compare", "FAIL"),
    "pkce.wrong-verifier": ("pkce-ignore-verifier", "FAIL"),
    "pkce.downgrade": ("pkce-verifier-optional", "FAIL"),
    "metadata.consistent": ("metadata-mismatch", "WARN"),
}
# Softer variants: the check still names the problem, as a warning.
EXTRA = [
    ("token.response-shape", "expires-in-string", "WARN"),
    ("challenge.url-schemes", "android-plain-scheme", "WARN"),
    ("challenge.provider-id", "provider-id-underscore", "WARN"),
]


class Fixture:
    def __init__(self, switches):
        self.port = free_port()
        args = [sys.executable, str(FIXTURE), "--port", str(self.port)]
        for switch in switches:
            args += ["--break", switch]
        self.process = subprocess.Popen(args, stdout=subprocess.PIPE, text=True)
        if self.process.stdout.readline().strip() != "ready":
            raise RuntimeError("fixture did not start")

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}/wopibootstrapper"

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


def conform(binary, fixture, *extra, groups=()):
    args = [binary, "conform", fixture.url, "--insecure-http-loopback",
            "--client-id", "office", "--client-secret", "office-demo-secret", "--redirect-uri", "https://localhost",
            "--username", "demo@example.com", "--password", "demo-password",
            "--public-client-id", "partner-app", "--public-redirect-uri", "com.example.partner:/oauth2redirect",
            "--wopi-src", f"http://127.0.0.1:{fixture.port}/wopi/files/doc1", "--format", "json", *extra]
    if groups:
        args += ["--only", *groups]
    run = subprocess.run(args, capture_output=True, text=True, timeout=120)
    return run.returncode, run.stdout, run.stderr


def sign_in_as_a_person(authorize_url):
    """What a person does in a browser with the fixture's pages; returns the URL the browser ends on."""
    url = urllib.parse.urlsplit(authorize_url)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=10)

    def call(method, path, form=None):
        body = urllib.parse.urlencode(form) if form else None
        headers = {"Content-Type": "application/x-www-form-urlencoded"} if form else {}
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        return response.status, response.getheader("Location"), response.read().decode()

    _, location, _ = call("GET", url.path + "?" + url.query)
    request_id = urllib.parse.parse_qs(urllib.parse.urlsplit(location).query)["request"][0]
    _, _, page = call("POST", "/signin", {"request": request_id, "username": "demo@example.com",
                                          "password": "demo-password"})
    assert 'value="allow"' in page, page
    _, location, _ = call("POST", "/consent", {"request": request_id, "decision": "allow"})
    connection.close()
    return location


def manual_run(binary, fixture):
    args = [binary, "conform", fixture.url, "--insecure-http-loopback", "--manual", "--client-id", "office",
            "--client-secret", "office-demo-secret", "--only", "authorize", "token", "--format", "json"]
    process = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for line in process.stderr:
        if line.strip().startswith("http://"):
            process.stdin.write(sign_in_as_a_person(line.strip()) + "\n")
            process.stdin.flush()
            break
    out, _ = process.communicate(timeout=60)
    return process.returncode, out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    binary = parser.parse_args().binary
    passed = failed = 0

    def expect(name, condition, detail=""):
        nonlocal passed, failed
        if condition:
            passed += 1
        else:
            failed += 1
            print(f"FAIL {name} {detail}")

    # The unbroken fixture: every check passes, exit 0.
    fixture = Fixture([])
    try:
        status, out, err = conform(binary, fixture)
        results = {r["check"]["id"]: r for r in json.loads(out)["results"]} if out else {}
        expect("baseline exit 0", status == 0, f"exit {status}: {err[:300]}")
        for check_id in BREAKS:
            result = results.get(check_id)
            expect(f"{check_id} passes on the correct fixture", result and result["status"] == "PASS",
                   result and result["detail"])
        expect("every registered check has a breaking switch", set(results) == set(BREAKS),
               f"untested: {set(results) - set(BREAKS)}")
        # Without clients or a user, only the anonymous checks run; the rest skip, and a skip fails nothing.
        run = subprocess.run([binary, "conform", fixture.url, "--insecure-http-loopback", "--format", "json"],
                             capture_output=True, text=True, timeout=120)
        statuses = {r["check"]["id"]: r["status"] for r in json.loads(run.stdout)["results"]} if run.stdout else {}
        anonymous = {c for c in statuses if c.split(".")[0] in ("challenge", "unauthorized", "redirect", "metadata")}
        expect("without inputs: exit 0", run.returncode == 0, f"exit {run.returncode}")
        expect("without inputs: the flow checks skip",
               all(s == "SKIP" for c, s in statuses.items() if c not in anonymous), statuses)
        expect("without inputs: the challenge checks pass",
               all(s == "PASS" for c, s in statuses.items() if c.startswith("challenge.")), statuses)
        status, _, err = conform(binary, fixture, "--only", "nonsense")
        expect("unknown group exits 2", status == 2, f"exit {status}")
    finally:
        fixture.stop()

    # Each switch: its check fails (or warns) with its id.
    for check_id, switch, wanted in [(c, s, w) for c, (s, w) in BREAKS.items()] + EXTRA:
        fixture = Fixture([switch])
        try:
            group = check_id.split(".")[0]
            status, out, err = conform(binary, fixture, groups=[group])
            results = {r["check"]["id"]: r for r in json.loads(out)["results"]} if out else {}
            result = results.get(check_id)
            expect(f"{check_id} with --break {switch}", result and result["status"] == wanted,
                   f"got {result and result['status']}: {result and result['detail']} (stderr {err[:200]})")
            if wanted == "FAIL":
                expect(f"{check_id} with --break {switch} exits 1", status == 1, f"exit {status}")
        finally:
            fixture.stop()

    # --manual: a "person" (this script) opens the printed authorize URL, signs in, pastes the final URL.
    fixture = Fixture([])
    try:
        status, out = manual_run(binary, fixture)
        results = {r["check"]["id"]: r["status"] for r in json.loads(out)["results"]} if out else {}
        expect("--manual signs in through the pasted URL", status == 0 and results.get("authorize.tk-sc") == "PASS"
               and results.get("token.response-shape") == "PASS", f"exit {status}: {results}")
    finally:
        fixture.stop()

    # --timeout: a request that hangs ends after it, its check reports why, and the run goes on.
    fixture = Fixture(["hang-metadata"])
    try:
        started = time.monotonic()
        status, out, _ = conform(binary, fixture, "--timeout", "1", groups=["metadata"])
        elapsed = time.monotonic() - started
        result = json.loads(out)["results"][0] if out else {}
        expect("a hanging request times out", status == 0 and result.get("status") == "SKIP" and elapsed < 4.5,
               f"exit {status}, {elapsed:.1f} s: {result.get('detail')}")
    finally:
        fixture.stop()

    # Nothing listening: exit 2.
    port = free_port()
    run = subprocess.run([binary, "conform", f"http://127.0.0.1:{port}/wopibootstrapper", "--insecure-http-loopback"],
                         capture_output=True, text=True, timeout=60)
    expect("unreachable host exits 2", run.returncode == 2, f"exit {run.returncode}")
    run = subprocess.run([binary, "conform", "http://example.com/wopibootstrapper"], capture_output=True, text=True,
                         timeout=60)
    expect("plain http on a public host exits 2", run.returncode == 2, f"exit {run.returncode}")

    print(f"conform-fixture: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
