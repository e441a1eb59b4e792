"""django-oauth-toolkit (PyPI, pinned in scripts/test/requirements.txt) as the host's own identity provider with
opaque access tokens: configured as its documentation has a host do it (OpenID Connect on with an RS256 key for ID
tokens, Office's confidential client, a resource server client that may call RFC 7662 introspection), served by
Django's threaded development server in this process, as scripts/test/conform/third_party.py runs it. The
`profile` scope's `name` and `preferred_username` come from the toolkit's documented `get_additional_claims` hook
("Adding claims to the ID token"). Its access tokens are random strings only its database knows (RFC 6749 §1.4).

`sign_in` plays the browser: Django's login form, then the toolkit's consent form ("allow").
"""
import html
import re
import threading
import urllib.parse
from pathlib import Path

import requests

USER = {"username": "bob", "password": "bob-password", "name": "Bob Example"}
OFFICE = ("office", "office-dot-secret", "https://localhost")
RESOURCE_SERVER = ("signin-bridge", "signin-bridge-introspection-secret")  # introspects, RFC 7662 §2.1

LOGIN_PAGE = """<html><body><form method="post" action="">{% csrf_token %}
<input type="text" name="username"><input type="password" name="password">
<input type="hidden" name="next" value="{{ next }}"><button type="submit">Sign in</button></form></body></html>"""


def _validator_class():
    from oauth2_provider.oauth2_validators import OAuth2Validator

    class HostValidator(OAuth2Validator):
        """The toolkit's claims hook: the person's display name and sign-in name for the `profile` scope."""

        def get_additional_claims(self, request):
            return {"name": request.user.first_name, "preferred_username": request.user.get_username()}

    return HostValidator


class DjangoToolkit:
    """The provider on `port` with its SQLite database in `directory`; `issuer` is where its metadata is."""

    def __init__(self, directory: Path, port: int):
        self.directory, self.port = directory, port
        self.base = f"http://127.0.0.1:{port}"
        self.issuer = f"{self.base}/o"
        self.server = None

    def start(self):
        import django
        from django.conf import settings
        from jwcrypto import jwk

        (self.directory / "templates" / "registration").mkdir(parents=True, exist_ok=True)
        (self.directory / "templates" / "registration" / "login.html").write_text(LOGIN_PAGE)
        settings.configure(
            DEBUG=False, SECRET_KEY="external-idp-test", ALLOWED_HOSTS=["127.0.0.1"], ROOT_URLCONF=__name__,
            INSTALLED_APPS=["django.contrib.auth", "django.contrib.contenttypes", "django.contrib.sessions",
                            "oauth2_provider"],
            MIDDLEWARE=["django.contrib.sessions.middleware.SessionMiddleware",
                        "django.middleware.csrf.CsrfViewMiddleware",
                        "django.contrib.auth.middleware.AuthenticationMiddleware"],
            TEMPLATES=[{"BACKEND": "django.template.backends.django.DjangoTemplates",
                        "DIRS": [str(self.directory / "templates")], "APP_DIRS": True,
                        "OPTIONS": {"context_processors": ["django.template.context_processors.request"]}}],
            DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": str(self.directory / "db.sqlite3")}},
            LOGIN_URL="/accounts/login/", USE_TZ=True, DEFAULT_AUTO_FIELD="django.db.models.AutoField",
            OAUTH2_PROVIDER={
                "OIDC_ENABLED": True,
                "OIDC_RSA_PRIVATE_KEY": jwk.JWK.generate(kty="RSA", size=2048).export_to_pem(True, None).decode(),
                "SCOPES": {"openid": "OpenID Connect", "profile": "Your name", "wopi": "Files in Office",
                           "introspection": "Introspect tokens"},
                "OAUTH2_VALIDATOR_CLASS": f"{__name__}.HostValidator",
                # Office's client cannot send PKCE (the toolkit requires it of every client by default).
                "PKCE_REQUIRED": False,
            })
        django.setup()
        global HostValidator  # named by OAUTH2_VALIDATOR_CLASS, loaded on first use (after setup)
        HostValidator = _validator_class()
        install_urls()
        self._populate()
        self._serve()
        return self

    def _populate(self):
        from django.contrib.auth.models import User
        from django.core.management import call_command
        from oauth2_provider.models import Application

        call_command("migrate", verbosity=0)
        user = User.objects.create_user(USER["username"], password=USER["password"], first_name=USER["name"])
        Application.objects.create(
            client_id=OFFICE[0], client_secret=OFFICE[1], redirect_uris=OFFICE[2], name="Microsoft Office", user=user,
            client_type=Application.CLIENT_CONFIDENTIAL, authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
            algorithm=Application.RS256_ALGORITHM)
        Application.objects.create(
            client_id=RESOURCE_SERVER[0], client_secret=RESOURCE_SERVER[1], name="SignInBridge", user=user,
            client_type=Application.CLIENT_CONFIDENTIAL, authorization_grant_type=Application.GRANT_CLIENT_CREDENTIALS)

    def _serve(self):
        from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler
        from django.core.wsgi import get_wsgi_application

        class Quiet(WSGIRequestHandler):
            def log_message(self, *args):
                pass

        self.server = ThreadedWSGIServer(("127.0.0.1", self.port), Quiet)
        self.server.set_app(get_wsgi_application())
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self):
        if self.server:
            self.server.shutdown()
            self.server.server_close()

    def sign_in(self, authorize_url: str, user=USER) -> str:
        """From `authorize_url` through Django's login form and the toolkit's consent form to the redirect to
        Office's redirect URI; returns that URL."""
        browser = requests.Session()
        response = browser.get(authorize_url, timeout=30)  # follows to the login page
        form = _form(response.text)
        response = browser.post(response.url, timeout=30, allow_redirects=True,
                                data=dict(form, username=user["username"], password=user["password"]))
        consent = _form(response.text)  # the toolkit's authorize page, with its hidden request fields
        response = browser.post(response.url, data=dict(consent, allow="Authorize"), allow_redirects=False,
                                timeout=30)
        location = response.headers.get("Location", "")
        if response.status_code != 302 or not location.startswith(OFFICE[2]):
            raise RuntimeError(f"the toolkit's authorization endpoint: {response.status_code} {location[:300]}")
        return location


def _form(page: str) -> dict:
    """The hidden and pre-filled inputs of the page's form."""
    fields = {}
    for tag in re.findall(r"<input[^>]*>", page):
        name = re.search(r'name="([^"]*)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if name:
            fields[name.group(1)] = html.unescape(value.group(1)) if value else ""
    fields.pop("allow", None)
    return {k: v for k, v in fields.items() if k not in ("username", "password")}


def urlpatterns_for():
    from django.contrib.auth.views import LoginView
    from django.urls import include, path
    from oauth2_provider.urls import metadata_urlpatterns
    # Under a prefix, the RFC 8414 metadata (with introspection_endpoint) is also mounted at the root (its §3.1 form).
    return [path("accounts/login/", LoginView.as_view()), path("o/", include("oauth2_provider.urls")),
            path("", include((metadata_urlpatterns, "metadata")))]


urlpatterns = []


def install_urls():
    global urlpatterns
    urlpatterns = urlpatterns_for()


def bridge_block(provider: "DjangoToolkit", metadata_url: str) -> str:
    """SignInBridge's `identityProvider:` block in front of this toolkit: opaque tokens through its RFC 7662
    introspection (RESOURCE_SERVER authenticates), read from `metadata_url` (its RFC 8414 document, the one that names
    introspection_endpoint). Its introspection answer names the person by `username` only, so that claim fills all
    three names and UserInfo is off."""
    return f"""
identityProvider:
  issuer: {provider.issuer}
  profile: generic
  requiredScope: wopi
  clockSkewSeconds: 60
  allowInsecureHTTP: true
  metadataURL: {metadata_url}
  introspection: {{ clientId: {RESOURCE_SERVER[0]}, clientSecret: {RESOURCE_SERVER[1]}, cacheSeconds: 300 }}
  claims: {{ userId: username, signInName: username, friendlyName: username }}
  userInfo: false
"""
