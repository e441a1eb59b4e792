"""`signin-bridge conform <bootstrap URL>` against a host in front of its own identity provider: our `serve` in
`identityProvider:` mode (docs/identity-providers.md) in front of django-oauth-toolkit (PyPI, pinned in
scripts/test/requirements.txt; opaque access tokens checked through its RFC 7662 introspection), set up by
scripts/test/idp/django_toolkit.py as scripts/test/external_idp.py runs it. The suite gets only the bootstrap URL:
it must follow the bootstrapper's challenge to the toolkit's issuer, sign in and redeem Office's code there, and
bring the toolkit's token back to our bootstrapper.

The suite's verdicts are documented in docs/conformance.md ("A host in front of its own identity provider"); this
script fails when a verdict changes, or when the suite reads its discovery documents anywhere but at the toolkit.

Usage: .build/venv-test/bin/python scripts/test/conform/external_host.py --binary PATH/signin-bridge [--show]
Ends with "N passed, M failed" (scripts/test/flows/tally.py).
"""
import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from external_idp import WOPI_SRC, start_bridge  # noqa: E402
from flows.bridge import free_port  # noqa: E402
from flows.tally import check, tally  # noqa: E402
from idp.django_toolkit import OFFICE, USER, DjangoToolkit, bridge_block  # noqa: E402

# check id -> status the suite reports (django-oauth-toolkit 3.4.1 behind our bootstrapper). Every non-PASS is judged
# in docs/conformance.md. Checks not listed must PASS or SKIP.
EXPECTED = {
    "refresh.reuse-detection": "WARN",  # REFRESH_TOKEN_REUSE_PROTECTION defaults to False
    "code.reuse-revokes": "WARN",  # a reused code leaves the first access token active at introspection
    "pkce.downgrade": "FAIL",  # oauthlib ignores a code_verifier for a code issued without a challenge
    "unauthorized.expired-token": "SKIP",  # opaque access tokens: an expired one cannot be made without waiting
}
# These must PASS, not merely not fail: what Microsoft's cloud needs from the host and its provider. Every check of
# the challenge and bootstrap groups must PASS as well (our bootstrapper, given the toolkit's token).
MUST_PASS = ["challenge.endpoints", "challenge.token-endpoint-public", "authorize.sign-in", "token.response-shape",
             "refresh.rotation", "refresh.without-scope", "openid.discovery", "metadata.consistent"]
MUST_PASS_GROUPS = ("challenge", "bootstrap", "ecosystem")


def run_suite(binary: str, work: Path):
    provider = DjangoToolkit(work, free_port())
    bridge = None
    try:
        provider.start()
        # The toolkit's OpenID discovery omits introspection_endpoint; its RFC 8414 metadata (§3.1 path form) has it.
        metadata_url = provider.base + "/.well-known/oauth-authorization-server/o"
        bridge, port = start_bridge(binary, work, bridge_block(provider, metadata_url))
        started = time.monotonic()
        run = subprocess.run(
            [binary, "conform", f"http://127.0.0.1:{port}/wopibootstrapper", "--insecure-http-loopback",
             "--client-id", OFFICE[0], "--client-secret", OFFICE[1], "--redirect-uri", OFFICE[2],
             "--username", USER["username"], "--password", USER["password"],
             "--wopi-src", WOPI_SRC, "--format", "json"],
            capture_output=True, text=True, timeout=300)
        return run, time.monotonic() - started, provider.base, f"http://127.0.0.1:{port}"
    finally:
        if bridge:
            bridge.stop()
        provider.stop()


def check_followed(exchanges, provider: str, bridge: str):
    """The recorded exchanges show where the suite went: discovery, sign-in and code redemption at the toolkit's
    issuer (found from the challenge, IssuerCandidates: the origin, then /o), the bootstrap calls at ours."""
    def at(prefix, exchange):
        return exchange["url"].startswith(prefix + "/")

    discovery = [e for e in exchanges if "/.well-known/" in e["url"]]
    found = sorted(e["url"][len(provider):] for e in discovery if e["status"] == 200 and at(provider, e))
    print("     discovery read:", ", ".join(f"{e['status']} {e['url']}" for e in discovery))
    check(bool(discovery) and all(at(provider, e) for e in discovery),
          "the suite reads discovery documents only at the toolkit's origin, none at our server", discovery)
    # OpenID Connect Discovery §4 under the issuer's path; RFC 8414 §3.1 with the path after the well-known suffix.
    check(found == ["/.well-known/oauth-authorization-server/o", "/o/.well-known/openid-configuration"],
          "the suite read the toolkit's OpenID discovery and RFC 8414 metadata for the issuer .../o", found)
    browser = [e for e in exchanges if e["party"] == "Browser"]
    check(bool(browser) and all(at(provider, e) for e in browser), "every sign-in step is at the toolkit",
          [e["url"] for e in browser if not at(provider, e)])
    redemptions = [e for e in exchanges if e["party"] == "Office" and e["method"] == "POST" and "/token" in e["url"]]
    check(bool(redemptions) and all(e["url"] == provider + "/o/token/" for e in redemptions),
          "Office redeems its codes and refresh tokens at the toolkit's token endpoint", redemptions)
    bootstraps = [e for e in exchanges if "/wopibootstrapper" in e["url"]]
    check(bool(bootstraps) and all(at(bridge, e) for e in bootstraps),
          "the bootstrap calls are at our bootstrapper", [e["url"] for e in bootstraps if not at(bridge, e)])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--show", action="store_true", help="print the suite's text output")
    parser.add_argument("--dump", help="write the suite's JSON here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        run, elapsed, provider, bridge = run_suite(args.binary, Path(directory))
    if args.show:
        sys.stdout.write(run.stderr)
    if args.dump:
        Path(args.dump).write_text(run.stdout)
    document = json.loads(run.stdout) if run.stdout else {}
    results = {r["check"]["id"]: r for r in document.get("results", [])}
    check(bool(results), "the suite ran", run.stderr[-500:])
    for check_id, result in results.items():
        must_pass = check_id in MUST_PASS or check_id.split(".")[0] in MUST_PASS_GROUPS
        wanted = EXPECTED.get(check_id) or ("PASS" if must_pass else None)
        ok = result["status"] == wanted if wanted else result["status"] in ("PASS", "SKIP")
        check(ok, f"{check_id} is {wanted or 'PASS or SKIP'}", f"got {result['status']}: {result['detail']}")
    check(all(c in results for c in MUST_PASS), "the suite ran every check Microsoft's cloud needs",
          [c for c in MUST_PASS if c not in results])
    check_followed(document.get("exchanges", []), provider, bridge)
    print(f"conform-external-host: the suite took {elapsed:.1f} s")
    return tally.summary()


if __name__ == "__main__":
    sys.exit(main())
