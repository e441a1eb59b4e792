"""`signin-bridge conform --issuer` against an OAuth 2.0 / OpenID Connect server nobody here wrote: django-oauth-toolkit
(PyPI, pinned in scripts/test/requirements.txt) with OpenID Connect on, configured as a host following its docs would:
an RS256 key, Office's confidential client (PKCE optional: Office sends none), a partner app's public client (PKCE
required), refresh tokens rotated (its default). Everything else is the toolkit's default; `--hardened` also turns on
its refresh token reuse protection and its RFC 9700 gates, to show which findings are configuration.

The suite's verdicts on it are documented in docs/conformance.md ("A third-party server"); this script fails when a
verdict changes, so the documentation and the suite stay honest. Standard library plus the venv's Django.

Usage: .build/venv-test/bin/python scripts/test/conform/third_party.py --binary PATH/signin-bridge [--hardened] [--show]
Ends with "N passed, M failed" (scripts/test/flows/tally.py).
"""
import argparse
import json
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "flows"))
from bridge import free_port  # noqa: E402
from tally import check, tally  # noqa: E402

USER, PASSWORD = "demo@example.com", "demo-password"
OFFICE = ("office", "office-demo-secret", "https://localhost")
PARTNER = ("partner-app", "com.example.partner:/oauth2redirect")

# check id -> status the suite reports for django-oauth-toolkit 3.4.1 (default configuration; --hardened overrides).
# Every non-PASS is judged in docs/conformance.md. Checks not listed must PASS or SKIP.
EXPECTED = {
    "unauthorized.missing-token": "WARN",  # userinfo's challenge without credentials carries error="invalid_token"
    "unauthorized.empty-header": "WARN",  # the same for an empty Authorization field
    "unauthorized.query-token": "WARN",  # userinfo accepts ?access_token= (RFC 6750 §2.3 allows, SHOULD NOT)
    "refresh.reuse-detection": "WARN",  # REFRESH_TOKEN_REUSE_PROTECTION defaults to False
    "refresh.public-reuse-detection": "FAIL",  # the same, a MUST for the public client (RFC 9700 §4.14.2)
    "code.reuse-revokes": "WARN",  # a reused code leaves the first tokens valid
    "pkce.downgrade": "FAIL",  # oauthlib ignores a code_verifier for a code issued without a challenge
    "pkce.verifier-syntax": "WARN",  # a 42-character verifier that matches is accepted
    "pkce.plain-refused": "SKIP",  # plain is advertised, so it is allowed
}
# --hardened: REFRESH_TOKEN_REUSE_PROTECTION and the RFC 9700 gates on.
EXPECTED_HARDENED = {
    "refresh.reuse-detection": None,
    "refresh.public-reuse-detection": None,
    "pkce.plain-refused": None,
    "authorize.iss-parameter": "FAIL",  # iss advertised, but the error redirect has none (RFC 9207 §2)
    "errors.description-charset": "FAIL",  # 'Unsupported "plain" code_challenge_method; use "S256".' has '"'
}

LOGIN_PAGE = """<html><body><form method="post" action="">{% csrf_token %}
<input type="text" name="username"><input type="password" name="password">
<input type="hidden" name="next" value="{{ next }}"><button type="submit">Sign in</button></form></body></html>"""


def configure(directory: Path, port: int, hardened: bool):
    import django
    from django.conf import settings
    from jwcrypto import jwk

    (directory / "templates" / "registration").mkdir(parents=True)
    (directory / "templates" / "registration" / "login.html").write_text(LOGIN_PAGE)
    provider = {
        "OIDC_ENABLED": True,
        "OIDC_RSA_PRIVATE_KEY": jwk.JWK.generate(kty="RSA", size=2048).export_to_pem(True, None).decode(),
        "SCOPES": {"openid": "OpenID Connect", "read": "Read"},
        # The partner app's private-use scheme (RFC 8252 §7.1) must be allowed for its redirect URI.
        "ALLOWED_REDIRECT_URI_SCHEMES": ["https", "http", "com.example.partner"],
        # Office's client cannot send PKCE; every other client must (the toolkit's default is True for all).
        "PKCE_REQUIRED": lambda client_id: client_id != OFFICE[0],
    }
    if hardened:
        provider.update({"REFRESH_TOKEN_REUSE_PROTECTION": True, "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,
                         "COMPLIANT_BCP_RFC9700_AUTHZ_RESPONSE_ISS": True,
                         "COMPLIANT_BCP_RFC9700_ACCESS_TOKEN_TRANSPORT": True})
    settings.configure(
        DEBUG=False, SECRET_KEY="conform-third-party", ALLOWED_HOSTS=["127.0.0.1"], ROOT_URLCONF=__name__,
        INSTALLED_APPS=["django.contrib.auth", "django.contrib.contenttypes", "django.contrib.sessions",
                        "oauth2_provider"],
        MIDDLEWARE=["django.contrib.sessions.middleware.SessionMiddleware", "django.middleware.csrf.CsrfViewMiddleware",
                    "django.contrib.auth.middleware.AuthenticationMiddleware"],
        TEMPLATES=[{"BACKEND": "django.template.backends.django.DjangoTemplates", "DIRS": [str(directory / "templates")],
                    "APP_DIRS": True, "OPTIONS": {"context_processors": ["django.template.context_processors.request"]}}],
        DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": str(directory / "db.sqlite3")}},
        LOGIN_URL="/accounts/login/", USE_TZ=True, OAUTH2_PROVIDER=provider,
        DEFAULT_AUTO_FIELD="django.db.models.AutoField")
    django.setup()


def urlpatterns_for():
    from django.contrib.auth.views import LoginView
    from django.urls import include, path
    from oauth2_provider.urls import metadata_urlpatterns
    # The toolkit's docs: under a prefix, also mount the RFC 8414 metadata at the root (its §3.1 path form).
    return [path("accounts/login/", LoginView.as_view()), path("o/", include("oauth2_provider.urls")),
            path("", include((metadata_urlpatterns, "metadata")))]


def populate():
    from django.contrib.auth.models import User
    from django.core.management import call_command
    from oauth2_provider.models import Application

    call_command("migrate", verbosity=0)
    user = User.objects.create_user(USER, password=PASSWORD)
    Application.objects.create(
        client_id=OFFICE[0], client_secret=OFFICE[1], redirect_uris=OFFICE[2], name="Microsoft Office", user=user,
        client_type=Application.CLIENT_CONFIDENTIAL, authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        algorithm=Application.RS256_ALGORITHM)
    Application.objects.create(
        client_id=PARTNER[0], redirect_uris=PARTNER[1], name="Example Files", user=user,
        client_type=Application.CLIENT_PUBLIC, authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        algorithm=Application.RS256_ALGORITHM, skip_authorization=True)


def serve(port: int):
    """Django's own threaded development server, in this process."""
    from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler
    from django.core.wsgi import get_wsgi_application

    class Quiet(WSGIRequestHandler):
        def log_message(self, *args):
            pass

    server = ThreadedWSGIServer(("127.0.0.1", port), Quiet)
    server.set_app(get_wsgi_application())
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--hardened", action="store_true")
    parser.add_argument("--show", action="store_true", help="print the suite's text output")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        port = free_port()
        configure(Path(directory), port, args.hardened)
        global urlpatterns
        urlpatterns = urlpatterns_for()
        populate()
        server = serve(port)
        issuer = f"http://127.0.0.1:{port}/o"
        urllib.request.urlopen(issuer + "/.well-known/openid-configuration", timeout=10).read()
        started = time.monotonic()
        run = subprocess.run(
            [args.binary, "conform", "--issuer", issuer, "--insecure-http-loopback",
             "--client-id", OFFICE[0], "--client-secret", OFFICE[1], "--redirect-uri", OFFICE[2],
             "--username", USER, "--password", PASSWORD,
             "--public-client-id", PARTNER[0], "--public-redirect-uri", PARTNER[1], "--format", "json"],
            capture_output=True, text=True, timeout=180)
        elapsed = time.monotonic() - started
        server.shutdown()
    if args.show:
        sys.stdout.write(run.stderr)
    results = {r["check"]["id"]: r for r in json.loads(run.stdout)["results"]} if run.stdout else {}
    expected = dict(EXPECTED, **(EXPECTED_HARDENED if args.hardened else {}))  # None: back to PASS or SKIP
    check(bool(results), "the suite ran", run.stderr[-500:])
    for check_id, result in results.items():
        wanted = expected.get(check_id)
        ok = result["status"] == wanted if wanted else result["status"] in ("PASS", "SKIP")
        check(ok, f"{check_id} is {wanted or 'PASS or SKIP'}", f"got {result['status']}: {result['detail']}")
    check(all(r["status"] == "SKIP" for c, r in results.items() if c.split(".")[0] in ("challenge", "bootstrap")),
          "the bootstrapper's groups skip")
    print(f"conform-third-party: the suite took {elapsed:.1f} s")
    return tally.summary()


urlpatterns = []  # ROOT_URLCONF is this module; filled once Django is set up

if __name__ == "__main__":
    sys.exit(main())
