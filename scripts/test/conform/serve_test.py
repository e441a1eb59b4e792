"""The whole conformance suite against our own `signin-bridge serve` on the sample config: every MUST passes (exit 0),
and the three outputs are read by parsers that are not ours: JUnit XML by junitparser, JSON by the standard library,
the HTML report by html.parser (self-contained: no script, no external reference; secrets masked).

Usage: serve_test.py --binary PATH/signin-bridge   (needs .build/venv-test: scripts/test/python-venv.sh)
Prints "conform-serve: N passed, M failed".
"""
import argparse
import base64
import json
import subprocess
import sys
import tempfile
from html.parser import HTMLParser
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "flows"))
from bridge import DEMO_PASSWORD, DEMO_USER, OFFICE, REDIRECT, Server, free_port, write_config  # noqa: E402

from cryptography.hazmat.primitives import serialization  # noqa: E402
from junitparser import Failure, JUnitXml, Skipped  # noqa: E402

# Checks our own server fails today for known defects being fixed on main; the suite is right to fail them. Remove an
# entry when its fix lands (the run prints XPASS for an entry that passes).
EXPECTED_FAILURES: dict[str, str] = {}


class ReportScan(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.external = set(), []

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        for name, value in attrs:
            if name in ("src",) or (tag == "link" and name == "href"):
                self.external.append(value)


ATTESTER_KEY = Path(__file__).resolve().parent / "attester-demo-key.pem"


def attester_config():
    """The conformance suite's demo attester as one the server trusts (docs/client-attestation.md)."""
    key = serialization.load_pem_private_key(ATTESTER_KEY.read_bytes(), password=None)
    numbers = key.public_key().public_numbers()
    x, y = (base64.urlsafe_b64encode(n.to_bytes(32, "big")).rstrip(b"=").decode() for n in (numbers.x, numbers.y))
    return ("\nclientAttestation:\n  attesters:\n    - issuer: conformance-demo-attester\n"
            f"      jwks: [{{kty: EC, crv: P-256, x: \"{x}\", y: \"{y}\"}}]\n")


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

    with tempfile.TemporaryDirectory() as directory:
        tmp = Path(directory)
        port = free_port()
        config = write_config(tmp, port, extra=attester_config())
        server = Server(binary, config, port, tmp / "serve.log").start()
        try:
            base = [binary, "conform", f"http://127.0.0.1:{port}/wopibootstrapper", "--insecure-http-loopback",
                    "--client-id", OFFICE[0], "--client-secret", OFFICE[1], "--redirect-uri", REDIRECT,
                    "--username", DEMO_USER, "--password", DEMO_PASSWORD,
                    "--public-client-id", "partner-app", "--public-redirect-uri", "com.example.partner:/oauth2redirect",
                    "--wopi-src", f"http://127.0.0.1:{port}/wopi/files/demo",
                    "--app-to-app-client-id", "merchant-app", "--app-to-app-redirect-uri", "com.example.merchant:/oauth2redirect",
                    "--app-callback-uri", "com.example.merchant:/app-callback",
                    "--first-party-client-id", "partner-app",
                    # Where the host's own app (partner-app, the merchant's approver) approves app_to_app requests.
                    "--app-to-app-decision-uri", f"http://127.0.0.1:{port}/oauth2/app-to-app/decision",
                    "--app-to-app-v2-client-id", "merchant-app",
                    "--app-to-app-v2-redirect-uri", "https://merchant.example.com/app/callback",
                    "--exchange-client-id", "files-backend", "--exchange-client-secret", "backend-demo-secret",
                    "--native-sso-client-id", "sso-app-a", "--native-sso-redirect-uri", "com.example.ssoa:/oauth2redirect",
                    "--native-sso-second-client-id", "sso-app-b",
                    # The sample's partnerApps section claims this path; the server publishes the association files.
                    "--app-link", f"http://127.0.0.1:{port}/oauth2/app-callback",
                    # The attester the config above trusts: the attestation group plays it for the merchant app.
                    "--attester-key", str(ATTESTER_KEY), "--attested-client-id", "merchant-app"]
            text = subprocess.run(base + ["--report", str(tmp / "report.html")], capture_output=True, text=True,
                                  timeout=300)
            lines = text.stdout.strip().splitlines()
            failed_ids = {line.split(" ", 2)[1].rstrip(":") for line in lines[:-1] if line.startswith("FAIL ")}
            unexpected = failed_ids - set(EXPECTED_FAILURES)
            expect("no FAIL but the expected ones", not unexpected,
                   "\n".join(line for line in lines if line.startswith("FAIL ")) + "\n" + text.stderr[:500])
            for check_id in sorted(set(EXPECTED_FAILURES) - failed_ids):
                print(f"XPASS {check_id}: passes now; remove it from EXPECTED_FAILURES ({EXPECTED_FAILURES[check_id]})")
            expect("text run exits 0, or 1 for the expected failures", text.returncode == (1 if failed_ids else 0),
                   f"exit {text.returncode}")
            passes = sum(1 for line in lines[:-1] if line.startswith("PASS "))
            expect("text ends with the summary",
                   lines and lines[-1].startswith(f"{passes} passed, {len(failed_ids)} failed"), lines[-1:] if lines else "")
            expect("text lines are STATUS id: detail",
                   all(line.split(" ", 1)[0] in ("PASS", "WARN", "SKIP", "FAIL") for line in lines[:-1]), text.stdout)
            expect("nothing skipped against our own server", not any(l.startswith("SKIP") for l in lines), text.stdout)

            junit = subprocess.run(base + ["--format", "junit", "--output", str(tmp / "junit.xml")],
                                   capture_output=True, text=True, timeout=300)
            expect("junit run exits as the text run", junit.returncode == text.returncode, junit.stderr[:500])
            xml = JUnitXml.fromfile(str(tmp / "junit.xml"))
            cases = [case for suite in xml for case in suite]
            expect("junit has one testcase per text line", len(cases) == len(lines) - 1, f"{len(cases)} cases")
            junit_failed = {case.name for case in cases if any(isinstance(r, Failure) for r in case.result)}
            expect("junit fails exactly the text run's FAILs", junit_failed == failed_ids, junit_failed)
            expect("junit suites are the groups", {suite.name for suite in xml} >= {"challenge", "pkce", "token"},
                   [suite.name for suite in xml])
            expect("junit skipped count is 0", not any(isinstance(r, Skipped) for case in cases for r in case.result))

            js = subprocess.run(base + ["--format", "json"], capture_output=True, text=True, timeout=300)
            document = json.loads(js.stdout)
            expect("json counts the text run's FAILs", document["passed"] is (not failed_ids)
                   and document["counts"]["fail"] == len(failed_ids), document["counts"])
            expect("json results carry sources",
                   all(r["check"]["source"]["url"].startswith("https://") for r in document["results"]))
            expect("json records exchanges", len(document["exchanges"]) > 20, len(document["exchanges"]))

            report = (tmp / "report.html").read_text()
            scan = ReportScan()
            scan.feed(report)
            expect("report has an inline svg diagram", "svg" in scan.tags and "table" in scan.tags, scan.tags)
            expect("report has no script and no external resource", "script" not in scan.tags and not scan.external,
                   scan.external)
            for secret in (OFFICE[1], DEMO_PASSWORD):
                expect(f"report does not contain {secret[:6]}…", secret not in report)
            expect("report masks codes", "code=" not in report or "…(" in report)
        finally:
            server.stop()

    print(f"conform-serve: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
