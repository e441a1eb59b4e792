"""The whole conformance suite against our own `signin-bridge serve` on the sample config: every MUST passes (exit 0),
and the three outputs are read by parsers that are not ours: JUnit XML by junitparser, JSON by the standard library,
the HTML report by html.parser (self-contained: no script, no external reference; secrets masked).

Usage: serve_test.py --binary PATH/signin-bridge   (needs .build/venv-test: scripts/test/python-venv.sh)
Prints "conform-serve: N passed, M failed".
"""
import argparse
import json
import subprocess
import sys
import tempfile
from html.parser import HTMLParser
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "flows"))
from bridge import DEMO_PASSWORD, DEMO_USER, OFFICE, REDIRECT, Server, free_port, write_config  # noqa: E402

from junitparser import Failure, JUnitXml, Skipped  # noqa: E402


class ReportScan(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.external = set(), []

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        for name, value in attrs:
            if name in ("src",) or (tag == "link" and name == "href"):
                self.external.append(value)


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
        server = Server(binary, write_config(tmp, port), port, tmp / "serve.log").start()
        try:
            base = [binary, "conform", f"http://127.0.0.1:{port}/wopibootstrapper", "--insecure-http-loopback",
                    "--client-id", OFFICE[0], "--client-secret", OFFICE[1], "--redirect-uri", REDIRECT,
                    "--username", DEMO_USER, "--password", DEMO_PASSWORD,
                    "--public-client-id", "partner-app", "--public-redirect-uri", "com.example.partner:/oauth2redirect",
                    "--wopi-src", f"http://127.0.0.1:{port}/wopi/files/demo"]
            text = subprocess.run(base + ["--report", str(tmp / "report.html")], capture_output=True, text=True,
                                  timeout=300)
            expect("text run exits 0", text.returncode == 0, f"exit {text.returncode}\n{text.stdout}\n{text.stderr[:500]}")
            lines = text.stdout.strip().splitlines()
            expect("text ends with the summary", lines and lines[-1].startswith(f"{len(lines) - 1} passed, 0 failed"),
                   lines[-1:] if lines else "")
            expect("text lines are STATUS id: detail",
                   all(line.split(" ", 1)[0] in ("PASS", "WARN", "SKIP") for line in lines[:-1]), text.stdout)
            expect("nothing skipped against our own server", not any(l.startswith("SKIP") for l in lines), text.stdout)

            junit = subprocess.run(base + ["--format", "junit", "--output", str(tmp / "junit.xml")],
                                   capture_output=True, text=True, timeout=300)
            expect("junit run exits 0", junit.returncode == 0, junit.stderr[:500])
            xml = JUnitXml.fromfile(str(tmp / "junit.xml"))
            cases = [case for suite in xml for case in suite]
            expect("junit has one testcase per text line", len(cases) == len(lines) - 1, f"{len(cases)} cases")
            expect("junit has no failure",
                   not any(isinstance(r, Failure) for case in cases for r in case.result), "")
            expect("junit suites are the groups", {suite.name for suite in xml} >= {"challenge", "pkce", "token"},
                   [suite.name for suite in xml])
            expect("junit skipped count is 0", not any(isinstance(r, Skipped) for case in cases for r in case.result))

            js = subprocess.run(base + ["--format", "json"], capture_output=True, text=True, timeout=300)
            document = json.loads(js.stdout)
            expect("json says passed", document["passed"] is True and document["counts"]["fail"] == 0, document["counts"])
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
