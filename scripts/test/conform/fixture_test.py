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
    "challenge.token-endpoint-public": ("unresolvable-token-host", "WARN"),
    "unauthorized.missing-token": ("operation-without-token", "FAIL"),
    "unauthorized.empty-header": ("empty-header-400", "FAIL"),
    "unauthorized.blank-token": ("blank-token-400", "FAIL"),
    "unauthorized.whitespace-token": ("whitespace-token-500", "FAIL"),
    "unauthorized.lowercase-scheme": ("lowercase-scheme-400", "FAIL"),
    "unauthorized.malformed-token": ("malformed-500", "FAIL"),
    "unauthorized.two-headers": ("two-headers-any", "FAIL"),
    "unauthorized.query-token": ("query-token", "WARN"),
    "unauthorized.expired-token": ("accept-expired", "FAIL"),
    "unauthorized.foreign-signed-token": ("accept-foreign-signed", "FAIL"),
    "authorize.sign-in": ("no-code", "FAIL"),
    "authorize.state-echoed": ("drop-state", "FAIL"),
    "authorize.tk-sc": ("http-tk", "FAIL"),
    "authorize.iss-parameter": ("iss-missing-on-error", "FAIL"),
    "token.response-shape": ("no-refresh-token", "FAIL"),
    "token.no-store": ("no-cache-control", "FAIL"),
    "bootstrap.authenticated": ("bootstrap-text-plain", "FAIL"),
    "bootstrap.new-access-token": ("no-access-token-info", "FAIL"),
    "bootstrap.access-token-expiry-ms": ("expiry-in-seconds", "FAIL"),
    "bootstrap.foreign-wopi-src": ("mint-any-wopi-src", "FAIL"),
    "bootstrap.root-container": ("no-root-container", "WARN"),
    "ecosystem.check-ecosystem": ("ecosystem-no-supports-containers", "FAIL"),
    "ecosystem.root-container": ("ecosystem-pointer-without-token", "FAIL"),
    "ecosystem.invalid-token": ("ecosystem-any-token", "FAIL"),
    "refresh.rotation": ("no-rotation", "WARN"),
    "refresh.without-scope": ("refresh-needs-scope", "FAIL"),
    "refresh.reuse-detection": ("no-reuse-detection", "WARN"),
    "refresh.public-rotation": ("public-no-rotation", "FAIL"),
    "refresh.public-reuse-detection": ("public-no-reuse-detection", "FAIL"),
    "code.reuse-refused": ("code-reusable", "FAIL"),
    "code.reuse-revokes": ("reuse-keeps-tokens", "WARN"),
    "code.other-client": ("code-any-client", "FAIL"),
    "redirect.unregistered": ("redirect-any-uri", "FAIL"),
    "redirect.prefix-match": ("prefix-match", "FAIL"),
    "redirect.extra-query": ("redirect-ignore-query", "FAIL"),
    "pkce.required": ("pkce-optional", "FAIL"),
    "pkce.verified": ("pkce-broken-compare", "FAIL"),
    "pkce.wrong-verifier": ("pkce-ignore-verifier", "FAIL"),
    "pkce.verifier-required": ("pkce-verifier-optional", "FAIL"),
    "pkce.downgrade": ("pkce-downgrade", "FAIL"),
    "pkce.plain-refused": ("pkce-plain-accepted", "FAIL"),
    "pkce.verifier-syntax": ("pkce-any-verifier-syntax", "WARN"),
    "pkce.challenge-reuse": ("pkce-challenge-cache", "FAIL"),
    "metadata.consistent": ("metadata-mismatch", "WARN"),
    "openid.discovery": ("discovery-no-rs256", "FAIL"),
    "openid.id-token": ("id-token-no-nonce", "FAIL"),
    "openid.stable-sub": ("unstable-sub", "FAIL"),
    "openid.userinfo": ("userinfo-no-challenge", "FAIL"),
    "apptoapp.callback-exact": ("app-callback-normalised", "FAIL"),
    "apptoapp.v2-pkce-required": ("v2-pkce-optional", "FAIL"),
    "apptoapp.resume-single-use": ("resume-reusable", "FAIL"),
    "exchange.challenge": ("exchange-no-challenge", "FAIL"),
    "exchange.single-use": ("exchange-code-reusable", "FAIL"),
    "errors.registered-code": ("unregistered-error", "FAIL"),
    "errors.description-charset": ("error-description-charset", "FAIL"),
    "links.association-files": ("association-excludes-callback", "FAIL"),
    "dpop.token-type": ("dpop-bearer-type", "FAIL"),
    "dpop.proof-signature": ("dpop-ignore-signature", "FAIL"),
    "dpop.proof-private-key": ("dpop-accept-private-key", "FAIL"),
    "dpop.proof-htm": ("dpop-ignore-htm", "FAIL"),
    "dpop.proof-htu": ("dpop-ignore-htu", "FAIL"),
    "dpop.proof-iat": ("dpop-ignore-iat", "FAIL"),
    "dpop.proof-replay": ("dpop-no-replay-cache", "WARN"),
    "dpop.public-refresh-bound": ("dpop-unbound-refresh", "FAIL"),
    "dpop.resource-proof": ("dpop-no-ath", "FAIL"),
    "dpop.bound-as-bearer": ("dpop-bearer-accepted", "FAIL"),
    "par.push": ("par-200", "FAIL"),
    "par.client-authentication": ("par-no-client-auth", "FAIL"),
    "par.no-request-uri": ("par-accept-request-uri", "FAIL"),
    "par.authorize": ("par-drop-state", "FAIL"),
    "par.single-use": ("par-reusable", "WARN"),
    "par.other-client": ("par-any-client", "FAIL"),
    "par.validated": ("par-no-validation", "FAIL"),
    "firstparty.code": ("fpa-code-field", "FAIL"),
    "firstparty.pkce-bound": ("fpa-ignore-verifier", "FAIL"),
    "firstparty.third-party-refused": ("fpa-any-client", "FAIL"),
    "firstparty.invalid-session": ("fpa-ignore-session", "FAIL"),
    "firstparty.response-type": ("fpa-no-response-type", "FAIL"),
    "firstparty.session-replay": ("fpa-session-reusable", "WARN"),
    "nativesso.device-secret": ("nsso-no-ds-hash", "FAIL"),
    "nativesso.exchange": ("nsso-no-exchange", "FAIL"),
    "nativesso.unknown-secret": ("nsso-any-secret", "FAIL"),
    "nativesso.bound-secret": ("nsso-ignore-ds-hash", "FAIL"),
    "attestation.accepted": ("attest-rejects-all", "FAIL"),
    "attestation.expired": ("attest-ignore-exp", "FAIL"),
    "attestation.untrusted-attester": ("attest-any-attester", "FAIL"),
    "attestation.pop-key": ("attest-ignore-pop-key", "FAIL"),
    "attestation.pop-audience": ("attest-ignore-aud", "FAIL"),
    "attestation.client-id": ("attest-ignore-client-id", "FAIL"),
    "attestation.private-cnf": ("attest-accept-private-cnf", "FAIL"),
}
# A switch may break a check whose rule depends on the broken one; every other check must still pass or skip.
# switch -> the further checks it is known to fail (each a consequence, not a second rule broken).
ALSO = {
    "nsso-any-secret": {"nativesso.bound-secret"},  # any secret includes another sign-in's
    "nsso-no-ds-hash": {"nativesso.exchange"},  # without ds_hash the ID token is bound to no secret
    "challenge-200": {"challenge.single-bearer"},  # no 401, so no challenge to count
    "unresolvable-token-host": {"challenge.endpoints"},  # http off loopback, so the flow never calls it
    "refresh-needs-scope": {"refresh.rotation"},  # the refresh it judges is the one refused
    # An unparseable challenge is no Bearer challenge for Office either, on every 401.
    "duplicate-parameter": {"challenge.single-bearer", "unauthorized.missing-token", "unauthorized.empty-header",
                            "unauthorized.blank-token", "unauthorized.whitespace-token",
                            "unauthorized.lowercase-scheme", "unauthorized.malformed-token"},
    "comma-in-uri": {"metadata.consistent"},  # the metadata names the endpoint without the ',2'
    "accept-expired": {"unauthorized.foreign-signed-token"},  # a host that checks only jti checks no signature
    "bootstrap-text-plain": {"bootstrap.new-access-token", "bootstrap.root-container"},  # every answer text/plain
    "no-access-token-info": {"bootstrap.foreign-wopi-src"},  # the operation is ignored, WopiSrc with it
    "redirect-any-uri": {"redirect.prefix-match", "redirect.extra-query",  # any URI includes these
                         "par.validated"},  # a pushed request is checked by the same rule
    "no-code": {"par.authorize"},  # the pushed request's redirect has no code either
    "drop-state": {"par.authorize"},  # nor the pushed state
    "pkce-ignore-verifier": {"pkce.verifier-syntax", "pkce.challenge-reuse",  # any verifier includes these
                             "firstparty.pkce-bound"},  # the challenge endpoint's codes too
    "pkce-broken-compare": {"firstparty.code"},  # the right verifier no longer redeems the challenge endpoint's code
}
# Softer variants: the check still names the problem, as a warning.
EXTRA = [
    ("token.response-shape", "expires-in-string", "WARN"),
    ("challenge.url-schemes", "android-plain-scheme", "WARN"),
    ("challenge.provider-id", "provider-id-underscore", "WARN"),
    ("unauthorized.missing-token", "error-without-credentials", "WARN"),
]


class Fixture:
    def __init__(self, switches, *options):
        self.port = free_port()
        args = [sys.executable, str(FIXTURE), "--port", str(self.port), *options]
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
            "--wopi-src", f"http://127.0.0.1:{fixture.port}/wopi/files/doc1", "--format", "json",
            "--app-to-app-client-id", "merchant-app", "--app-to-app-redirect-uri", "com.example.merchant:/oauth2redirect",
            "--app-callback-uri", "com.example.merchant:/app-callback",
            "--app-to-app-decision-uri", f"http://127.0.0.1:{fixture.port}/app-to-app/decision",
            "--app-to-app-v2-client-id", "merchant-web", "--app-to-app-v2-redirect-uri", "https://merchant.example/login/callback",
            "--exchange-client-id", "files-backend", "--exchange-client-secret", "backend-demo-secret",
            "--app-link", f"http://127.0.0.1:{fixture.port}/app/callback", "--first-party-client-id", "files-app",
            "--native-sso-client-id", "sso-app-a", "--native-sso-redirect-uri", "com.example.ssoa:/oauth2redirect",
            "--native-sso-second-client-id", "sso-app-b",
            "--attester-key", str(FIXTURE.parent / "attester-demo-key.pem"), "--attested-client-id", "attested-app", *extra]
    if groups:
        args += ["--only", *groups]
    run = subprocess.run(args, capture_output=True, text=True, timeout=120)
    return run.returncode, run.stdout, run.stderr


def live_run(binary, fixture, *extra):
    """A text run read line by line as it prints: (exit, seconds to the first line, seconds in all, lines)."""
    args = [binary, "conform", fixture.url, "--insecure-http-loopback",
            "--client-id", "office", "--client-secret", "office-demo-secret", "--redirect-uri", "https://localhost",
            "--username", "demo@example.com", "--password", "demo-password",
            "--public-client-id", "partner-app", "--public-redirect-uri", "com.example.partner:/oauth2redirect",
            *extra]
    started = time.monotonic()
    process = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    first, lines = None, []
    for line in process.stdout:
        first = first if first is not None else time.monotonic() - started
        lines.append(line.rstrip("\n"))
    process.wait(timeout=200)
    return process.returncode, first, time.monotonic() - started, lines


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
        anonymous = {c for c in statuses
                     if c.split(".")[0] in ("challenge", "unauthorized", "redirect", "metadata")} | {"openid.discovery", "exchange.challenge"}
        expect("without inputs: exit 0", run.returncode == 0, f"exit {run.returncode}")
        expect("without inputs: the flow checks skip",
               all(s == "SKIP" for c, s in statuses.items() if c not in anonymous), statuses)
        expect("without inputs: the challenge checks pass",
               all(s == "PASS" for c, s in statuses.items() if c.startswith("challenge.")), statuses)
        status, _, err = conform(binary, fixture, "--only", "nonsense")
        expect("unknown group exits 2", status == 2, f"exit {status}")
    finally:
        fixture.stop()

    # Each switch: its check fails (or warns) with its id, and no other check does (beyond ALSO).
    for check_id, switch, wanted in [(c, s, w) for c, (s, w) in BREAKS.items()] + EXTRA:
        fixture = Fixture([switch])
        try:
            status, out, err = conform(binary, fixture)
            results = {r["check"]["id"]: r for r in json.loads(out)["results"]} if out else {}
            result = results.get(check_id)
            expect(f"{check_id} with --break {switch}", result and result["status"] == wanted,
                   f"got {result and result['status']}: {result and result['detail']} (stderr {err[:200]})")
            others = {c: f"{r['status']} {r['detail']}" for c, r in results.items()
                      if r["status"] in ("FAIL", "WARN") and c != check_id and c not in ALSO.get(switch, ())}
            expect(f"--break {switch} fails no other check", not others, others)
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

    # Output as it happens, and an unreachable endpoint costs one timeout: the challenge names a port that accepts and
    # never answers; the first line comes at once, the sign-in times out once, everything behind it skips at once.
    fixture = Fixture(["hang-authorize"])
    try:
        status, first, elapsed, lines = live_run(binary, fixture, "--timeout", "2", "--deadline", "20")
        expect("unreachable endpoint: first line within 2 s", first is not None and first < 2, f"first line at {first}")
        # One 2 s timeout, not one per check: well inside the 20 s deadline.
        expect("unreachable endpoint: the run ends after one timeout", elapsed < 10, f"{elapsed:.1f} s")
        skipped = [line for line in lines if line.startswith("SKIP") and "127.0.0.1" in line]
        expect("unreachable endpoint: the checks behind the sign-in skip naming it", len(skipped) >= 10, "\n".join(lines))
    finally:
        fixture.stop()
    # The host: http on a public name. challenge.endpoints fails; every check behind it skips at once with why.
    fixture = Fixture(["http-authorize-uri"])
    try:
        status, first, elapsed, lines = live_run(binary, fixture)
        expect("http endpoint: challenge.endpoints fails", any(l.startswith("FAIL challenge.endpoints") for l in lines),
               "\n".join(lines))
        behind = [l for l in lines if "authorization_uri failed challenge.endpoints" in l]
        expect("http endpoint: the flow checks skip naming challenge.endpoints",
               len(behind) >= 10 and all(l.startswith("SKIP") for l in behind), "\n".join(lines))
        expect("http endpoint: over in seconds", elapsed < 5, f"{elapsed:.1f} s")
    finally:
        fixture.stop()
    # --deadline: every token request hangs past --timeout; the run stops starting checks at the deadline.
    fixture = Fixture(["hang-token"])
    try:
        status, first, elapsed, lines = live_run(binary, fixture, "--timeout", "2", "--deadline", "6")
        expect("a slow host: the run ends within --deadline", elapsed < 7.5, f"{elapsed:.1f} s")
        expect("a slow host: checks after the deadline skip saying so",
               any(l.startswith("SKIP") and "--deadline" in l for l in lines), "\n".join(lines))
        expect("a slow host: the summary line is printed", lines and " passed, " in lines[-1], lines[-1:])
        expect("a slow host: the redemption's own check fails naming --timeout",
               any(l.startswith("FAIL token.response-shape") and "--timeout" in l for l in lines), "\n".join(lines))
    finally:
        fixture.stop()

    # A documented refresh grace window: the old token still refreshes for 2 s. Unless the run is told, that is
    # reuse accepted; told, the replay waits out the window and must then be refused.
    fixture = Fixture([], "--refresh-grace", "2")
    try:
        _, out, _ = conform(binary, fixture, groups=["refresh"])
        results = {r["check"]["id"]: r for r in json.loads(out)["results"]} if out else {}
        result = results.get("refresh.public-reuse-detection", {})
        expect("a grace window not declared fails reuse detection",
               result.get("status") == "FAIL" and "--refresh-grace-seconds" in result.get("detail", ""), result)
        _, out, _ = conform(binary, fixture, "--refresh-grace-seconds", "2", groups=["refresh"])
        statuses = {r["check"]["id"]: r["status"] for r in json.loads(out)["results"]} if out else {}
        expect("a declared grace window is waited out, then reuse is detected",
               statuses.get("refresh.public-reuse-detection") == "PASS" and statuses.get("refresh.reuse-detection") == "PASS",
               statuses)
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
