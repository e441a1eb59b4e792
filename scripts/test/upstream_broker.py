#!/usr/bin/env python3
"""Sign-in through an upstream OpenID provider and the session broker, with two `signin-bridge serve` processes
over loopback sockets: instance A (the sample configuration, its own store file, `http://127.0.0.1:PORT_A`) is the
upstream provider; instance B (the sample configuration plus `upstreams:` and `broker:`, its own store file,
`http://localhost:PORT_B`) signs users in through A. The two issuers use different host names so that a browser
keeps their cookies apart (cookies are per host, not per port: RFC 6265 §8.5); the script keeps one cookie jar per
instance for the same reason.

Flows: "Continue with Example ID" on B's sign-in page (plain), the broker's login/deep link/session (plain and
requested_flow=app_to_app, with A's host app approving); then the negative cases: state unknown, replayed and from
another browser, a changed nonce, a discovery document of another issuer, a wrong verifier (which burns the
session), a replayed and an expired broker session, an exchange code for another merchant's client, one redeemed by
the wrong client and one expired, and A stopped. Lifetimes are shortened in B's configuration (5 to 6 seconds) and
the script waits them out: the server has no clock to move. Standard library only. Ends with "N passed, N failed".
"""
import argparse
import base64
import html
import json
import os
import re
import signal
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from flows.bridge import (  # noqa: E402
    Browser, Server, free_port, pkce_pair, request, token_request, write_config)

UPSTREAM_SECRET = "bridge-upstream-secret"
APP_REDIRECT = "com.example.broker:/auth"
APP_CALLBACK = "com.example.broker:/upstream-return"
from flows.tally import check, tally  # noqa: E402


def sha256_hash(secret):
    import hashlib
    return "sha256:" + hashlib.sha256(secret.encode()).hexdigest()


def add_clients(config: Path, clients: str, extra: str = "", replace=()):
    text = config.read_text().replace("\nclients:\n", "\nclients:\n" + clients, 1)
    for old, new in replace:
        text = text.replace(old, new, 1)
    config.write_text(text + extra)


def provider_config(directory: Path, port_a: int, port_b: int) -> Path:
    directory.mkdir()
    config = write_config(directory, port_a)
    add_clients(config, f"""  - id: broker-bridge        # instance B, signing its users in here
    name: Example Broker
    secretHash: {sha256_hash(UPSTREAM_SECRET)}
    redirectUris: ["http://localhost:{port_b}/auth/upstream/idp-a/callback",
                   "http://localhost:{port_b}/auth/upstream/idp-scope/callback"]
    grants: [authorization_code]
    scopes: [openid, profile, email, phone]
    appCallbackUris: ["{APP_CALLBACK}"]
    appToAppApprovers: [partner-app]
""")
    return config


def broker_config(directory: Path, port_a: int, port_b: int, dead_port: int) -> Path:
    directory.mkdir()
    config = write_config(directory, port_b, issuer=f"http://localhost:{port_b}")
    add_clients(config, f"""  - id: broker-app            # the native app of the broker (the Vipps iOS guide's app)
    name: Broker demo app
    public: true
    redirectUris: ["{APP_REDIRECT}"]
    grants: [authorization_code]
    scopes: [openid, profile, email, phone]
""", extra=f"""upstreams:
  - id: idp-a
    name: Example ID
    issuer: http://127.0.0.1:{port_a}
    clientId: broker-bridge
    clientSecret: {UPSTREAM_SECRET}
    scopes: [openid, profile, email, phone]
    appToApp: true
    appCallbackUri: "{APP_CALLBACK}"
    timeoutSeconds: 3
  - id: idp-wrong-issuer        # A again, under an issuer A does not claim
    name: Wrong issuer
    issuer: http://localhost:{port_a}
    clientId: broker-bridge
    clientSecret: {UPSTREAM_SECRET}
    timeoutSeconds: 3
  - id: idp-scope               # A again, asking for a scope A does not allow this client: A answers invalid_scope
    name: Scope ID
    issuer: http://127.0.0.1:{port_a}
    clientId: broker-bridge
    clientSecret: {UPSTREAM_SECRET}
    scopes: [openid, wopi]
    timeoutSeconds: 3
  - id: idp-down                # nothing listens there
    name: Down ID
    issuer: http://127.0.0.1:{dead_port}
    clientId: broker-bridge
    timeoutSeconds: 2
broker:
  clientId: broker-app
  sessionLifetimeSeconds: 6
  loginLifetimeSeconds: 60
""", replace=[("codeLifetimeSeconds: 30 ", "codeLifetimeSeconds: 5 ")])
    return config


def get_json(port, path, method="GET", body=None, headers=None):
    status, response_headers, content = request("127.0.0.1", port, method, path, body, headers or {})
    try:
        return status, json.loads(content or b"{}")
    except ValueError:
        return status, {"raw": content.decode("utf-8", "replace")}


def post_json(port, path, payload):
    return get_json(port, path, "POST", json.dumps(payload), {"Content-Type": "application/json"})


def path_of(url):
    parts = urllib.parse.urlsplit(url)
    return parts.path + ("?" + parts.query if parts.query else "")


def query_of(url):
    return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query))


def public_token(port, form):
    """A public client's token request (no client authentication, RFC 6749 §4.1.3 with client_id)."""
    return get_json(port, "/oauth2/token", "POST", urllib.parse.urlencode(form),
                    {"Content-Type": "application/x-www-form-urlencoded"})


def claims(jwt):
    payload = jwt.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


class Flow:
    def __init__(self, port_a, port_b):
        self.a, self.b = port_a, port_b
        self.callback = f"http://localhost:{port_b}/auth/upstream/"
        self.at_a = Browser(port_a)       # the person's browser, its cookies for 127.0.0.1 (A)

    def upstream_login(self, auth_url):
        """The person at A: sign in (first time), allow, and the redirect back to B's callback."""
        return self.at_a.walk(path_of(auth_url), self.callback)

    def broker_login(self, challenge, **extra):
        query = {"code_challenge": challenge, "code_challenge_method": "S256", **extra}
        return get_json(self.b, "/auth/idp-a/login?" + urllib.parse.urlencode(query))

    def callback_at_b(self, location, browser=None):
        status, headers, page = (browser or Browser(self.b)).call("GET", path_of(location))
        return status, headers.get("location", ""), page

    def broker_flow(self, **extra):
        """login → A → callback: returns (verifier, the deep link's sessionId, deep link, the login's sessionId)."""
        verifier, challenge = pkce_pair()
        status, login = self.broker_login(challenge, **extra)
        if status != 200:
            return verifier, None, f"login {status} {login}", None
        _, deep_link, _ = self.callback_at_b(self.upstream_login(login["authUrl"]))
        return verifier, query_of(deep_link).get("sessionId"), deep_link, login["sessionId"]

    def authorize_at_b(self, browser, challenge):
        query = {"client_id": "partner-app", "redirect_uri": "com.example.partner:/oauth2redirect",
                 "response_type": "code", "scope": "openid profile email", "state": "s-b", "nonce": "n-b",
                 "code_challenge": challenge, "code_challenge_method": "S256"}
        return browser.call("GET", "/oauth2/authorize?" + urllib.parse.urlencode(query))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    binary = parser.parse_args().binary
    with tempfile.TemporaryDirectory() as work:
        port_a, port_b, dead = free_port(), free_port(), free_port()
        server_a = Server(binary, provider_config(Path(work) / "a", port_a, port_b), port_a, Path(work) / "a.log")
        server_b = Server(binary, broker_config(Path(work) / "b", port_a, port_b, dead), port_b, Path(work) / "b.log")
        server_a.start()
        server_b.start()
        try:
            run(Flow(port_a, port_b), server_a)
        finally:
            server_b.stop()
            server_a.stop()
        log_checks((Path(work) / "b.log").read_text(errors="replace"))
        if tally.failed:
            for name in ("a.log", "b.log"):
                print(f"--- {name} (last lines)")
                print("\n".join((Path(work) / name).read_text(errors="replace").splitlines()[-25:]))
    return tally.summary()


def log_checks(log):
    """The operator's side: why each refusal happened, and no secret in B's log."""
    lines = [line for line in log.splitlines() if "upstream sign-in failed" in line]
    check(any("reason=issuer_mismatch" in line for line in lines), "log: the other issuer is named (issuer_mismatch)",
          lines)
    check(any("reason=id_token" in line and "nonce" in line for line in lines), "log: the nonce mismatch is named",
          lines)
    check(any("upstream=idp-a" in line and "reason=unreachable" in line for line in lines),
          "log: A down is a line with upstream=idp-a reason=unreachable", lines)
    check(any("upstream=idp-scope" in line and "reason=authorization_error" in line and "error=invalid_scope" in line
              for line in lines), "log: A's refusal is a line with the provider's own code (error=invalid_scope)", lines)
    check(any("reason=authorization_error" in line and "error=access_denied" in line for line in lines),
          "log: the user's denial at A is logged with access_denied", lines)
    leaks = [line for line in log.splitlines() if UPSTREAM_SECRET in line or "code_verifier" in line or "code=" in line]
    check(not leaks,
          "log: no client secret, verifier or code in B's log", leaks)


def run(flow: Flow, server_a: Server):
    status, health = get_json(flow.b, "/auth/health")
    check(status == 200 and health.get("status") == "ok", "GET /auth/health answers ok", health)
    user_sub = sign_in_page(flow)
    broker_plain(flow)
    broker_app_to_app(flow)
    state_checks(flow)
    nonce_and_issuer(flow)
    verifier_checks(flow)
    exchange_checks(flow)
    expiry_checks(flow)
    upstream_errors(flow, server_a)
    upstream_down(flow, server_a)
    return user_sub


def sign_in_page(flow: Flow):
    """"Continue with Example ID" on B's sign-in page, for partner-app (OpenID Connect at B)."""
    subjects = []
    for attempt in (1, 2):
        browser = Browser(flow.b)
        verifier, challenge = pkce_pair()
        status, _, page = flow.authorize_at_b(browser, challenge)
        link = re.search(r'href="(/oauth2/interaction/[^"]+/upstream/idp-a)"', page)
        check(status == 200 and link and "Continue with Example ID" in page,
              f"sign-in page #{attempt} offers 'Continue with Example ID'", page[:200])
        if not link:
            return None
        status, headers, _ = browser.call("GET", html.unescape(link.group(1)))
        location = headers.get("location", "")
        upstream = query_of(location)
        check(status == 302 and location.startswith(f"http://127.0.0.1:{flow.a}/oauth2/authorize?")
              and upstream.get("code_challenge_method") == "S256" and len(upstream.get("state", "")) >= 43
              and len(upstream.get("nonce", "")) >= 43 and upstream.get("client_id") == "broker-bridge",
              f"#{attempt}: 302 to A's authorize with PKCE S256, state and nonce", location)
        status, back, _ = flow.callback_at_b(flow.upstream_login(location), browser)
        check(status == 302 and back.startswith("/oauth2/interaction/"), f"#{attempt}: B's callback continues the request",
              f"{status} {back}")
        status, headers, _ = browser.call("GET", back)
        final = headers.get("location", "")
        code = query_of(final).get("code")
        check(status in (302, 303) and final.startswith("com.example.partner:/oauth2redirect?") and code,
              f"#{attempt}: partner-app gets its code", f"{status} {final}")
        status, tokens = public_token(flow.b, {
            "grant_type": "authorization_code", "code": code, "redirect_uri": "com.example.partner:/oauth2redirect",
            "client_id": "partner-app", "code_verifier": verifier}) if code else (0, {})
        id_token = claims(tokens["id_token"]) if "id_token" in tokens else {}
        subjects.append(id_token.get("sub"))
        check(status == 200 and id_token.get("nonce") == "n-b", f"#{attempt}: B's ID token for the upstream user", tokens)
        status, info = get_json(flow.b, "/userinfo", headers={"Authorization": "Bearer " + tokens.get("access_token", "")})
        check(status == 200 and info.get("name") == "Demo User" and info.get("email") == "demo@example.com",
              f"#{attempt}: B's UserInfo has A's name and email (claim mapping)", info)
    check(subjects[0] and subjects[0] == subjects[1], "the second sign-in finds the linked user (same sub)", subjects)
    # B has a local user 'demo' with the same email, but A does not say it is verified: never linked by email alone.
    check(subjects[0] != "demo" and str(subjects[0]).startswith("idp-a-"),
          "the same email at B is not enough to link (a new user, not B's demo)", subjects[0])
    return subjects[0]


def broker_plain(flow: Flow):
    verifier, session_id, deep_link, login_id = flow.broker_flow()
    check(session_id and deep_link == f"{APP_REDIRECT}?success=true&sessionId={session_id}" and session_id != login_id,
          "broker: the browser ends at the app's deep link with success=true and a new sessionId", deep_link)
    status, answer = post_json(flow.b, "/auth/idp-a/session", {"sessionId": login_id, "code_verifier": verifier})
    check(status == 400 and answer.get("error") == "invalid_grant",
          "broker: the id /login gave (known to whoever started the login) gets nothing, even with the verifier", answer)
    status, answer = post_json(flow.b, "/auth/idp-a/session", {"sessionId": session_id, "code_verifier": verifier})
    user = answer.get("user", {})
    check(status == 200 and answer.get("token", "").count(".") == 2
          and user == {"name": "Demo User", "email": "demo@example.com", "phoneNumber": "+4712345678"},
          "broker: POST /session with the verifier gives {token, user{name,email,phoneNumber}}", answer)
    status, info = get_json(flow.b, "/userinfo", headers={"Authorization": "Bearer " + answer.get("token", "")})
    check(status == 200 and info.get("sub", "").startswith("idp-a-"), "broker: the token works at B's /userinfo", info)
    status, again = post_json(flow.b, "/auth/idp-a/session", {"sessionId": session_id, "code_verifier": verifier})
    check(status == 400 and again.get("error") == "invalid_grant", "broker: the session is redeemed once (replay refused)",
          again)
    form = urllib.parse.urlencode({"code_challenge": pkce_pair()[1], "code_challenge_method": "S256",
                                   "redirect_uri": "com.example.evil:/steal"})
    status, refused = get_json(flow.b, "/auth/idp-a/login", "POST", form,
                               {"Content-Type": "application/x-www-form-urlencoded"})
    check(status == 400 and refused.get("error") == "invalid_request", "broker: an unregistered deep link is refused",
          refused)
    status, refused = get_json(flow.b, "/auth/idp-a/login")
    check(status == 400 and refused.get("error") == "invalid_request",
          "broker: login without code_challenge is refused (the guide's bare login)", refused)


def broker_app_to_app(flow: Flow):
    """requested_flow=app_to_app: A parks the request; A's host app (partner-app's token) approves; the merchant side
    opens resume_uri in the same browser; A's consent; back to B."""
    verifier, challenge = pkce_pair()
    status, login = flow.broker_login(challenge, requested_flow="app_to_app")
    upstream = query_of(login.get("authUrl", ""))
    check(status == 200 and upstream.get("requested_flow") == "app_to_app"
          and upstream.get("app_callback_uri") == APP_CALLBACK, "app_to_app: authUrl asks A for requested_flow=app_to_app",
          login)
    if status != 200:
        return
    # A fresh browser (no session at A): the case app_to_app is for, so A parks the request instead of signing in.
    phone = Browser(flow.a)
    status, _, page = phone.call("GET", path_of(login["authUrl"]))
    link = re.search(r'id="open-app" href="([^"]+)"', page)
    reference = query_of(html.unescape(link.group(1))).get("reference") if link else None
    check(status == 200 and reference, "app_to_app: A shows its parked page with the deep link into its app", page[:200])
    host_token = host_app_token(flow.a)
    status, _, body = request("127.0.0.1", flow.a, "POST", "/oauth2/app-to-app/decision",
                              urllib.parse.urlencode({"reference": reference, "decision": "approve"}),
                              {"Authorization": "Bearer " + host_token,
                               "Content-Type": "application/x-www-form-urlencoded"})
    callback_url = json.loads(body or b"{}").get("app_callback_url", "")
    resume = query_of(callback_url).get("resume_uri", "")
    check(status == 200 and callback_url.startswith(APP_CALLBACK) and resume,
          "app_to_app: A's host app approves; the app callback carries resume_uri", body[:200])
    location = phone.walk(path_of(resume), flow.callback)
    _, deep_link, _ = flow.callback_at_b(location)
    session_id = query_of(deep_link).get("sessionId")
    check(deep_link.startswith(f"{APP_REDIRECT}?success=true&sessionId="), "app_to_app: back at the app's deep link",
          deep_link)
    status, answer = post_json(flow.b, "/auth/idp-a/session", {"sessionId": session_id, "code_verifier": verifier})
    check(status == 200 and answer.get("user", {}).get("email") == "demo@example.com",
          "app_to_app: the session gives the token and user", answer)


def host_app_token(port_a):
    """A token of A's own app (partner-app) for the demo user: what approves app-to-app requests at A."""
    verifier, challenge = pkce_pair()
    code = Browser(port_a).authorize(client_id="partner-app", redirect_uri="com.example.partner:/oauth2redirect",
                                     challenge=challenge)["code"]
    _, tokens = public_token(port_a, {"grant_type": "authorization_code", "code": code, "client_id": "partner-app",
                                      "redirect_uri": "com.example.partner:/oauth2redirect", "code_verifier": verifier})
    return tokens.get("access_token", "")


def state_checks(flow: Flow):
    status, _, page = Browser(flow.b).call("GET", "/auth/upstream/idp-a/callback?code=x&state=" + "A" * 43)
    check(status == 400 and "did not work" in page, "state: an unknown state gets a page, 400")
    # A real login whose callback comes twice (replay) and one whose callback comes in another browser.
    browser = Browser(flow.b)
    _, challenge = pkce_pair()
    _, _, page = flow.authorize_at_b(browser, challenge)
    link = re.search(r'href="(/oauth2/interaction/[^"]+/upstream/idp-a)"', page)
    _, headers, _ = browser.call("GET", html.unescape(link.group(1)))
    location = flow.upstream_login(headers["location"])
    status, _, _ = flow.callback_at_b(location, Browser(flow.b))
    check(status == 403, "state: the callback in another browser (no browser cookie) is refused, 403", status)
    status, _, page = flow.callback_at_b(location, browser)
    check(status == 400 and "did not work" in page, "state: a replayed state is refused (single use)", status)


def nonce_and_issuer(flow: Flow):
    verifier, challenge = pkce_pair()
    _, login = flow.broker_login(challenge)
    parts = urllib.parse.urlsplit(login["authUrl"])
    query = dict(urllib.parse.parse_qsl(parts.query))
    query["nonce"] = "a-nonce-the-broker-never-sent"
    location = flow.upstream_login(parts._replace(query=urllib.parse.urlencode(query)).geturl())
    _, deep_link, _ = flow.callback_at_b(location)
    check(deep_link == f"{APP_REDIRECT}?success=false&error=server_error",
          "nonce: an ID token with another nonce is refused (deep link success=false)", deep_link)
    status, answer = post_json(flow.b, "/auth/idp-a/session", {"sessionId": login["sessionId"], "code_verifier": verifier})
    # The failed sign-in ends the session: /session says so at once rather than "pending" until it expires.
    check(status == 400 and answer.get("error") == "server_error", "nonce: /session answers server_error at once", answer)
    status, answer = get_json(flow.b, "/auth/idp-wrong-issuer/login?" + urllib.parse.urlencode(
        {"code_challenge": challenge, "code_challenge_method": "S256"}))
    check(status == 503 and answer.get("error") == "temporarily_unavailable",
          "issuer: a discovery document naming another issuer is refused", answer)


def verifier_checks(flow: Flow):
    verifier, session_id, deep_link, _ = flow.broker_flow()
    check("success=true" in deep_link, "verifier: a finished login", deep_link)
    status, answer = post_json(flow.b, "/auth/idp-a/session", {"sessionId": session_id})
    check(status == 400 and answer.get("error") == "invalid_request", "verifier: sessionId alone is refused", answer)
    wrong, _ = pkce_pair()
    status, answer = post_json(flow.b, "/auth/idp-a/session", {"sessionId": session_id, "code_verifier": wrong})
    check(status == 400 and answer.get("error") == "invalid_grant", "verifier: a wrong verifier is refused", answer)
    status, answer = post_json(flow.b, "/auth/idp-a/session", {"sessionId": session_id, "code_verifier": verifier})
    check(status == 400 and answer.get("error") == "invalid_grant",
          "verifier: after a wrong one, the right verifier gets nothing (the session is burnt)", answer)


def exchange_checks(flow: Flow):
    """Exchange codes at B (items 1-2 of the same feature set): another merchant, the wrong client."""
    verifier, challenge = pkce_pair()
    code = Browser(flow.b).authorize(client_id="partner-app", redirect_uri="com.example.partner:/oauth2redirect",
                                     challenge=challenge)["code"]
    _, tokens = public_token(flow.b, {"grant_type": "authorization_code", "code": code, "client_id": "partner-app",
                                      "redirect_uri": "com.example.partner:/oauth2redirect", "code_verifier": verifier})
    bearer = {"Authorization": "Bearer " + tokens["access_token"], "Content-Type": "application/x-www-form-urlencoded"}
    status, answer = get_json(flow.b, "/oauth/exchange", "POST", "clientId=office&type=code", bearer)
    # RFC 6750 §3.1: the caller's token is good, the request is not: 400, never a 401 that makes it drop its token.
    check(status == 400 and answer.get("error") == "invalid_request",
          "exchange: a code for another merchant's client is refused (400)", answer)
    _, issued = get_json(flow.b, "/oauth/exchange", "POST", "clientId=files-backend&type=code", bearer)
    status, answer = token_request(flow.b, {"grant_type": "authorization_code", "code": issued.get("code", "")})
    check(status == 400 and answer.get("error") == "invalid_grant", "exchange: the code redeemed by the wrong client is refused",
          answer)
    _, issued = get_json(flow.b, "/oauth/exchange", "POST", "clientId=files-backend&type=code", bearer)
    flow.expiring_code = issued.get("code", "")
    check(issued.get("expires_in") == 5, "exchange: B issues 5 s codes (shortened for the expiry test)", issued)


def expiry_checks(flow: Flow):
    verifier, session_id, deep_link, _ = flow.broker_flow()
    check("success=true" in deep_link, "expiry: a finished login, left unredeemed", deep_link)
    time.sleep(6.5)
    status, answer = post_json(flow.b, "/auth/idp-a/session", {"sessionId": session_id, "code_verifier": verifier})
    check(status == 400 and answer.get("error") == "invalid_grant", "expiry: the broker session after its 6 s is refused",
          answer)
    status, answer = token_request(flow.b, {"grant_type": "authorization_code", "code": flow.expiring_code},
                                   ("files-backend", "backend-demo-secret"))
    check(status == 400 and answer.get("error") == "invalid_grant", "expiry: the exchange code after its 5 s is refused",
          answer)


def deny_at_a(flow: Flow, auth_url):
    """The person at A signs in, then denies on the consent page; returns the redirect back to B's callback.
    `prompt=consent` asks A for its consent page again (the earlier flows allowed this client already)."""
    browser = flow.at_a
    parts = urllib.parse.urlsplit(auth_url)
    asked = parts._replace(query=parts.query + "&prompt=consent").geturl()
    status, headers, page = browser.call("GET", path_of(asked))
    for _ in range(6):
        if status in (302, 303):
            location = headers["location"]
            if location.startswith(flow.callback):
                return location
            status, headers, page = browser.call("GET", path_of(location))
            continue
        action = re.search(r'action="([^"]*)"', page).group(1)
        form = {"csrf_token": re.search(r'name="csrf_token" value="([^"]*)"', page).group(1)}
        form.update({"username": "demo@example.com", "password": "demo-password"} if action.endswith("/signin")
                    else {"decision": "deny"})
        status, headers, page = browser.call("POST", action, form)
    raise RuntimeError("no redirect back to B")


def upstream_errors(flow: Flow, server_a: Server):
    """The provider answers with an error, or not at all: the app gets the documented code on its deep link and from
    /session at once, the operator a log line with the provider's own code and a metric."""
    def failed_login(upstream, at_a):
        verifier, challenge = pkce_pair()
        _, login = get_json(flow.b, f"/auth/{upstream}/login?" + urllib.parse.urlencode(
            {"code_challenge": challenge, "code_challenge_method": "S256"}))
        deep_link = at_a(login["authUrl"])
        started = time.monotonic()
        status, answer = post_json(flow.b, f"/auth/{upstream}/session",
                                   {"sessionId": login["sessionId"], "code_verifier": verifier})
        again = post_json(flow.b, f"/auth/{upstream}/session", {"sessionId": login["sessionId"], "code_verifier": verifier})
        return deep_link, status, answer, time.monotonic() - started, again

    # A refuses the scope B asks for (RFC 6749 §4.1.2.1 invalid_scope): the host's setup is wrong, server_error.
    def scope_refused(auth_url):
        return flow.callback_at_b(flow.at_a.call("GET", path_of(auth_url))[1]["location"])[1]
    deep_link, status, answer, took, again = failed_login("idp-scope", scope_refused)
    check(deep_link == f"{APP_REDIRECT}?success=false&error=server_error",
          "upstream error: A's invalid_scope reaches the app as server_error, not as A's code", deep_link)
    check(status == 400 and answer.get("error") == "server_error" and took < 2,
          "upstream error: /session answers server_error at once", (status, answer, took))
    check(again[0] == 400 and again[1].get("error") == "invalid_grant", "upstream error: that answer is given once", again)

    # The user denies at A: access_denied.
    deep_link, status, answer, _, _ = failed_login(
        "idp-a", lambda url: flow.callback_at_b(deny_at_a(flow, url))[1])
    check(deep_link == f"{APP_REDIRECT}?success=false&error=access_denied",
          "upstream error: the user's denial at A is access_denied on the deep link", deep_link)
    check(status == 400 and answer.get("error") == "access_denied", "upstream error: /session answers access_denied", answer)

    # A hangs (SIGSTOP) during B's token request: B gives up after the upstream's timeoutSeconds.
    def hangs(auth_url):
        location = flow.upstream_login(auth_url)
        os.kill(server_a.process.pid, signal.SIGSTOP)
        try:
            started = time.monotonic()
            deep_link = flow.callback_at_b(location)[1]
            flow.timeout_took = time.monotonic() - started
            return deep_link
        finally:
            os.kill(server_a.process.pid, signal.SIGCONT)
    deep_link, status, answer, _, _ = failed_login("idp-a", hangs)
    check(deep_link == f"{APP_REDIRECT}?success=false&error=temporarily_unavailable" and 2.5 < flow.timeout_took < 10,
          "upstream timeout: temporarily_unavailable on the deep link after timeoutSeconds (3)",
          (deep_link, flow.timeout_took))
    check(status == 400 and answer.get("error") == "temporarily_unavailable",
          "upstream timeout: /session answers temporarily_unavailable", answer)

    _, _, metrics = request("127.0.0.1", flow.b, "GET", "/metrics")
    check('signin_bridge_upstream_failures_total{upstream="idp-scope",reason="authorization_error"} 1' in metrics.decode(),
          "upstream error: counted as reason=authorization_error for that upstream",
          [line for line in metrics.decode().splitlines() if "upstream_failures" in line])


def upstream_down(flow: Flow, server_a: Server):
    status, answer = get_json(
        flow.b, "/auth/idp-down/login?" + urllib.parse.urlencode(
            {"code_challenge": pkce_pair()[1], "code_challenge_method": "S256"}))
    check(status == 503 and answer.get("error") == "temporarily_unavailable",
          "down: login at an upstream nobody answers is 503 temporarily_unavailable", answer)
    # A login that reached A, then A stops before the callback's token request.
    browser = Browser(flow.b)
    _, challenge = pkce_pair()
    _, _, page = flow.authorize_at_b(browser, challenge)
    link = re.search(r'href="(/oauth2/interaction/[^"]+/upstream/idp-a)"', page)
    _, headers, _ = browser.call("GET", html.unescape(link.group(1)))
    location = flow.upstream_login(headers["location"])
    server_a.stop()
    status, _, page = flow.callback_at_b(location, browser)
    check(status == 503 and "Example ID is not answering" in page,
          "down: A stopped, the callback shows 'Example ID is not answering' (503)", f"{status} {page[:200]}")
    status, _, page = browser.call("GET", html.unescape(link.group(1)).replace("/idp-a", "/idp-down"))
    check(status == 503 and "Down ID is not answering" in page, "down: 'Continue with' an upstream that is down, 503 page",
          status)
    _, _, metrics = request("127.0.0.1", flow.b, "GET", "/metrics")
    text = metrics.decode()
    check('signin_bridge_upstream_failures_total{upstream="idp-a",reason="unreachable"}' in text
          and 'signin_bridge_upstream_failures_total{upstream="idp-a",reason="id_token"}' in text,
          "down: /metrics counts upstream failures by upstream and reason",
          [line for line in text.splitlines() if "upstream" in line])


if __name__ == "__main__":
    sys.exit(main())
