#!/usr/bin/env python3
"""OAuth 2.0 for First-Party Applications (draft-ietf-oauth-first-party-apps-04) against a running signin-bridge:
the authorization challenge endpoint (§4.1, §5) over real sockets, then the token endpoint as usual.

No PyPI library implements the challenge endpoint, so those requests are plain `requests` posts; the token step is
requests-oauth2client's (PyPI), which redeems the challenge's code with the PKCE verifier, and with DPoP where the
flow was DPoP-bound (its DPoPKey signs the proofs; its OAuth2Client redeems the code with the same key).

Flows: password in two steps (insufficient_authorization with auth_session, then the code), password in one step,
the user name first and the password in the next step,
DPoP-bound, the host's app approving (app_to_app_deep_link, authorization_pending, /oauth2/app-to-app/decision,
then the code), and redirect_to_web (a request_uri the browser continues with at /oauth2/authorize).
Refusals, each the draft's error, never a 500, and no code in the store: a client that is not first-party
(unauthorized_client), no PKCE (invalid_request), a replayed, a foreign client's and another DPoP key's
auth_session (invalid_session), and failed passwords beyond the throttle (slow_down, 429, Retry-After).
Step-up (§6.1): the token response's auth_session starts a new request that asks only for the same user's password;
another client's use of it and an altered value are invalid_session, another user's name and password are refused,
and once its grant is revoked it is invalid_session. A later step may leave out client_id (§5.1); a request without
scope is no OpenID request (no ID token, no step-up auth_session).

Run with the test venv's Python: .build/venv-test/bin/python scripts/test/first_party_client.py --binary …
Prints one line per check and ends with "N passed, N failed"; exits 1 on any failure.
"""
import argparse
import base64
import json
import sqlite3
import sys
import urllib.parse
from pathlib import Path

import requests
from requests_oauth2client import DPoPKey, OAuth2Client

sys.path.insert(0, str(Path(__file__).resolve().parent))
from flows.bridge import DEMO_PASSWORD, DEMO_USER, Browser, pkce_pair, serving_in_folder  # noqa: E402
from flows.tally import expect as check, tally  # noqa: E402

# A second first-party app of the host whose users may approve in the host's own app (partner-app).
LITE_CLIENT = """clients:
  - id: files-lite
    name: Example Files Lite
    public: true
    firstParty: true
    redirectUris: [com.example.lite:/oauth2redirect]
    appCallbackUris: [com.example.lite:/app-callback]
    appToAppApprovers: [partner-app]
    grants: [authorization_code, refresh_token]
    scopes: [openid, profile]
"""
# A second user (with the demo user's password hash, so the same password): a step-up must not switch to them.
OTHER_USER = "other@example.com"
OTHER_USER_CONFIG = """users:
  - id: other
    signInName: other@example.com
    passwordHash: $2b$12$spZMyuggXL3hVlAEWn6Ji.2/o./7RYcPQD49gPV/Me1vHSjTCvTuS
"""
PATH = "/oauth2/authorize-challenge"
PARTNER_REDIRECT = "com.example.partner:/oauth2redirect"


class Bridge:
    def __init__(self, port, database):
        self.base = f"http://127.0.0.1:{port}"
        self.port = port
        self.database = database

    def challenge(self, form, dpop=None):
        headers = {"DPoP": str(dpop.proof("POST", self.base + PATH))} if dpop else {}
        answer = requests.post(self.base + PATH, data=form, headers=headers, timeout=10)
        return answer, answer.json() if answer.headers.get("content-type") == "application/json" else {}

    def codes(self):
        """Authorization codes the store holds: a refusal must not add one."""
        with sqlite3.connect(f"file:{self.database}?mode=ro", uri=True) as db:
            return db.execute("SELECT count(*) FROM authorization_codes").fetchone()[0]

    def client(self, client_id):
        # testing=True only because the server is on http loopback.
        return OAuth2Client(token_endpoint=self.base + "/oauth2/token", client_id=client_id, testing=True)


def redeemed(bridge, body, verifier):
    """Whether the answer's authorization_code gives partner-app an access token (requests-oauth2client, PKCE)."""
    code = body.get("authorization_code")
    token = code and bridge.client("partner-app").authorization_code(code, code_verifier=verifier, validate=False)
    return bool(token and token.access_token)


def first(client_id="partner-app", challenge=None, **extra):
    form = {"client_id": client_id, "response_type": "code", "scope": "openid profile",
            "code_challenge": challenge, "code_challenge_method": "S256"}
    form.update(extra)
    return {k: v for k, v in form.items() if v is not None}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    args = parser.parse_args()
    def edit(text):
        return text.replace("clients:\n", LITE_CLIENT, 1).replace("users:\n", OTHER_USER_CONFIG, 1)

    with serving_in_folder(args.binary, edit) as (port, folder):
        bridge = Bridge(port, folder / "bridge.sqlite")
        metadata = requests.get(bridge.base + "/.well-known/oauth-authorization-server", timeout=10).json()
        check("metadata names the authorization challenge endpoint (§8)",
              metadata.get("authorization_challenge_endpoint") == bridge.base + PATH, metadata)
        password_in_two_steps(bridge)
        password_in_one_step(bridge)
        identifier_first(bridge)
        dpop_bound(bridge)
        host_app_approves(bridge)
        redirect_to_web(bridge)
        refusals(bridge)
        step_up(bridge)
        later_step_without_client_id(bridge)
        no_scope_is_no_openid(bridge)
        throttled(bridge)  # last: it leaves the demo account and the loopback address throttled
    return tally.summary()


def password_in_two_steps(bridge):
    verifier, challenge = pkce_pair()
    answer, body = bridge.challenge(first(challenge=challenge))
    check("§5.2.2: nobody signed in is insufficient_authorization (400) asking for a password",
          answer.status_code == 400 and body.get("error") == "insufficient_authorization"
          and body.get("password_required") is True, body)
    check("§5.2.1: answers are never cached", answer.headers.get("cache-control") == "no-store", answer.headers)
    session = body.get("auth_session", "")
    check("§5.3.1: the auth_session has at least 256 bits (43 base64url characters)", len(session) >= 43, session)
    answer, body = bridge.challenge({"client_id": "partner-app", "auth_session": session,
                                     "username": DEMO_USER, "password": DEMO_PASSWORD})
    code = body.get("authorization_code")
    check("§5.2.1: the password step answers 200 with authorization_code", answer.status_code == 200 and code, body)
    token = bridge.client("partner-app").authorization_code(code, code_verifier=verifier, validate=False)
    check("§6: requests-oauth2client redeems the code with the PKCE verifier and no redirect_uri",
          bool(token.access_token) and bool(token.id_token), token)
    answer, body = bridge.challenge({"client_id": "partner-app", "auth_session": session,
                                     "username": DEMO_USER, "password": DEMO_PASSWORD})
    check("§5.2.2.1: a used auth_session replayed is invalid_session, nothing issued",
          answer.status_code == 400 and body.get("error") == "invalid_session"
          and "authorization_code" not in body and "auth_session" not in body, body)


def password_in_one_step(bridge):
    verifier, challenge = pkce_pair()
    answer, body = bridge.challenge(first(challenge=challenge, username=DEMO_USER, password=DEMO_PASSWORD))
    check("§5.1: the first request may carry the credential: the code at once", answer.status_code == 200, body)
    check("the one-step code is redeemed", redeemed(bridge, body, verifier), body)


def identifier_first(bridge):
    verifier, challenge = pkce_pair()
    answer, body = bridge.challenge(first(challenge=challenge, username=DEMO_USER))
    check("§5: the user name alone is kept: insufficient_authorization asking for the password",
          body.get("error") == "insufficient_authorization" and body.get("password_required") is True
          and body.get("auth_session"), body)
    answer, body = bridge.challenge({"client_id": "partner-app", "auth_session": body.get("auth_session"),
                                     "password": DEMO_PASSWORD})
    check("§5.3.1: the password alone with the auth_session signs in as the name given before",
          answer.status_code == 200 and redeemed(bridge, body, verifier), body)


def dpop_bound(bridge):
    key, stranger = DPoPKey.generate(alg="ES256"), DPoPKey.generate(alg="ES256")
    verifier, challenge = pkce_pair()
    answer, body = bridge.challenge(first(challenge=challenge), dpop=key)
    session = body.get("auth_session")
    check("§9.5.1: a first request with a DPoP proof starts a chain", answer.status_code == 400 and session, body)
    answer, body = bridge.challenge({"client_id": "partner-app", "auth_session": session, "username": DEMO_USER,
                                     "password": DEMO_PASSWORD}, dpop=stranger)
    check("§9.6.1: the auth_session with another DPoP key is invalid_session",
          body.get("error") == "invalid_session" and "authorization_code" not in body, body)
    answer, body = bridge.challenge({"client_id": "partner-app", "auth_session": session, "username": DEMO_USER,
                                     "password": DEMO_PASSWORD})
    check("§9.6.1: ... and without a proof too", body.get("error") == "invalid_session", body)
    answer, body = bridge.challenge({"client_id": "partner-app", "auth_session": session, "username": DEMO_USER,
                                     "password": DEMO_PASSWORD}, dpop=key)
    code = body.get("authorization_code")
    check("§9.6.1: the refusals left the auth_session to the key's holder: the code", bool(code), body)
    oauth = bridge.client("partner-app")
    try:
        oauth.authorization_code(code, code_verifier=verifier, validate=False, dpop_key=stranger)
        check("§9.5.1: the DPoP-bound code is refused with another key", False, "accepted")
    except Exception as error:  # noqa: BLE001 - any refusal will do; accepting it is the failure
        check("§9.5.1: the DPoP-bound code is refused with another key", True, type(error).__name__)
    verifier, challenge = pkce_pair()
    _, body = bridge.challenge(first(challenge=challenge, username=DEMO_USER, password=DEMO_PASSWORD), dpop=key)
    token = oauth.authorization_code(body.get("authorization_code"), code_verifier=verifier, validate=False,
                                     dpop_key=key)
    check("§9.5.1: the DPoP-bound code is redeemed with its key for a DPoP token",
          token.token_type.lower() == "dpop", token)


def host_app_approves(bridge):
    verifier, challenge = pkce_pair()
    _, body = bridge.challenge(first(challenge=challenge, username=DEMO_USER, password=DEMO_PASSWORD))
    host = bridge.client("partner-app").authorization_code(
        body.get("authorization_code"), code_verifier=verifier, validate=False)
    verifier, challenge = pkce_pair()
    answer, body = bridge.challenge(first(
        "files-lite", challenge, scope="openid", state="lite-1", requested_flow="app_to_app",
        app_callback_uri="com.example.lite:/app-callback"))
    link = body.get("app_to_app_deep_link", "")
    check("requested_flow=app_to_app: insufficient_authorization with the host app's deep link",
          body.get("error") == "insufficient_authorization" and "reference=" in link and body.get("auth_session"), body)
    answer, body = bridge.challenge({"client_id": "files-lite", "auth_session": body.get("auth_session")})
    check("before the host's app decided: authorization_pending and a new auth_session",
          body.get("error") == "authorization_pending" and body.get("auth_session"), body)
    session = body.get("auth_session")
    reference = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(link).query)).get("reference")
    decision = requests.post(bridge.base + "/oauth2/app-to-app/decision", timeout=10,
                             headers={"Authorization": "Bearer " + host.access_token},
                             data={"reference": reference, "decision": "approve"})
    check("the host's app approves at /oauth2/app-to-app/decision", decision.status_code == 200, decision.text)
    answer, body = bridge.challenge({"client_id": "files-lite", "auth_session": session})
    code = body.get("authorization_code")
    check("after the approval the auth_session brings the code", answer.status_code == 200 and code, body)
    token = bridge.client("files-lite").authorization_code(code, code_verifier=verifier, validate=False)
    check("the approved code is redeemed for the approving user's tokens", bool(token.id_token), token)


def redirect_to_web(bridge):
    verifier, challenge = pkce_pair()
    answer, body = bridge.challenge(first(challenge=challenge, prompt="consent", username=DEMO_USER,
                                          password=DEMO_PASSWORD))
    request_uri = body.get("request_uri", "")
    check("§5.2.2.1.1: a consent page needed is redirect_to_web with a request_uri and its lifetime",
          body.get("error") == "redirect_to_web" and request_uri.startswith("urn:ietf:params:oauth:request_uri:")
          and body.get("expires_in", 0) > 0 and "auth_session" not in body, body)
    query = urllib.parse.urlencode({"client_id": "partner-app", "request_uri": request_uri})
    callback = Browser(bridge.port).walk("/oauth2/authorize?" + query, PARTNER_REDIRECT)
    code = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(callback).query)).get("code")
    check("RFC 9126 §4: the browser continues with the request_uri to a code at the redirect_uri", bool(code), callback)
    token = bridge.client("partner-app").authorization_code(
        code, code_verifier=verifier, redirect_uri=PARTNER_REDIRECT, validate=False)
    check("the browser's code is redeemed with the first request's PKCE verifier", bool(token.access_token), token)


def refusals(bridge):
    before = bridge.codes()
    _, challenge = pkce_pair()
    answer, body = bridge.challenge(first("merchant-app", challenge, username=DEMO_USER, password=DEMO_PASSWORD))
    check("§5, §9.1: a client that is not first-party is unauthorized_client",
          answer.status_code == 400 and body.get("error") == "unauthorized_client" and "auth_session" not in body, body)
    answer, body = bridge.challenge(first(challenge=None, username=DEMO_USER, password=DEMO_PASSWORD))
    check("§5.2.2.1.1: no PKCE code_challenge is invalid_request",
          answer.status_code == 400 and body.get("error") == "invalid_request" and "auth_session" not in body, body)
    answer, body = bridge.challenge({"client_id": "office", "response_type": "code", "code_challenge": challenge,
                                     "code_challenge_method": "S256"})
    check("§4.1: client authentication as at the token endpoint (a confidential client without its secret: 401)",
          answer.status_code == 401 and body.get("error") == "invalid_client", body)
    _, body = bridge.challenge(first(challenge=challenge))
    theirs = body.get("auth_session")
    answer, body = bridge.challenge({"client_id": "files-lite", "auth_session": theirs,
                                     "username": DEMO_USER, "password": DEMO_PASSWORD})
    check("§5.2.2.1: another client's auth_session is invalid_session",
          answer.status_code == 400 and body.get("error") == "invalid_session", body)
    check("no refusal put a code in the store", bridge.codes() == before, (before, bridge.codes()))
    answer, body = bridge.challenge({"client_id": "partner-app", "auth_session": theirs})
    check("... and it stayed its own client's", body.get("error") == "insufficient_authorization", body)


def subject(id_token):
    payload = id_token.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))["sub"]


def step_up(bridge):
    verifier, challenge = pkce_pair()
    answer, body = bridge.challenge(first(challenge=challenge, username=DEMO_USER, password=DEMO_PASSWORD))
    tokens = requests.post(bridge.base + "/oauth2/token", data={
        "grant_type": "authorization_code", "code": body.get("authorization_code"), "code_verifier": verifier,
        "client_id": "partner-app"}, timeout=10).json()
    session = tokens.get("auth_session", "")
    check("§6.1: the first-party app's token response carries an auth_session for a later step-up",
          bool(session) and "access_token" in tokens, tokens)
    verifier, challenge = pkce_pair()
    before = bridge.codes()
    answer, body = bridge.challenge(first(client_id="files-lite", challenge=challenge, auth_session=session))
    check("§6.1: another first-party client's step-up with it is invalid_session, nothing issued",
          answer.status_code == 400 and body.get("error") == "invalid_session" and bridge.codes() == before, body)
    tampered = session[:-6] + ("AAAAAA" if not session.endswith("AAAAAA") else "BBBBBB")
    answer, body = bridge.challenge(first(challenge=challenge, auth_session=tampered))
    check("§5.3.1: an altered step-up auth_session is invalid_session", body.get("error") == "invalid_session", body)
    answer, body = bridge.challenge(first(challenge=challenge, auth_session=session))
    check("§6.1: the step-up restores who signed in: insufficient_authorization asking only for the password",
          answer.status_code == 400 and body.get("error") == "insufficient_authorization"
          and body.get("password_required") is True and body.get("auth_session"), body)
    answer, body = bridge.challenge({"client_id": "partner-app", "auth_session": body.get("auth_session"),
                                     "password": DEMO_PASSWORD})
    code = body.get("authorization_code")
    check("§6.1: the password alone then gives the code", answer.status_code == 200 and code, body)
    token = bridge.client("partner-app").authorization_code(code, code_verifier=verifier, validate=False)
    check("... for the same user (the ID token's sub)", subject(str(token.id_token)) == subject(tokens["id_token"]),
          token)
    verifier, challenge = pkce_pair()
    answer, body = bridge.challenge(first(challenge=challenge, auth_session=session, username=OTHER_USER,
                                          password=DEMO_PASSWORD))
    check("§6.1: the step-up auth_session with another user's name and password is refused, nothing issued",
          answer.status_code == 400 and body.get("error") == "invalid_request" and "authorization_code" not in body,
          body)
    revoked = requests.post(bridge.base + "/oauth2/revoke", data={
        "token": tokens["refresh_token"], "token_type_hint": "refresh_token", "client_id": "partner-app"}, timeout=10)
    answer, body = bridge.challenge(first(challenge=challenge, auth_session=session))
    check("after its grant is revoked (RFC 7009) the step-up auth_session is invalid_session",
          revoked.status_code == 200 and body.get("error") == "invalid_session", body)


def later_step_without_client_id(bridge):
    verifier, challenge = pkce_pair()
    _, body = bridge.challenge(first(challenge=challenge))
    session = body.get("auth_session")
    answer, body = bridge.challenge({"client_id": "files-lite", "auth_session": session,
                                     "username": DEMO_USER, "password": DEMO_PASSWORD})
    check("§5.1: a client_id that is sent must be the auth_session's: invalid_session",
          body.get("error") == "invalid_session", body)
    answer, body = bridge.challenge({"auth_session": session, "username": DEMO_USER, "password": DEMO_PASSWORD})
    check("§5.1: a later step with auth_session and no client_id gives the code",
          answer.status_code == 200 and redeemed(bridge, body, verifier), body)


def no_scope_is_no_openid(bridge):
    verifier, challenge = pkce_pair()
    form = first(challenge=challenge, username=DEMO_USER, password=DEMO_PASSWORD)
    del form["scope"]
    _, body = bridge.challenge(form)
    token = bridge.client("partner-app").authorization_code(
        body.get("authorization_code"), code_verifier=verifier, validate=False)
    check("OpenID Connect Core §3.1.2.1: a request without scope gets no ID token and no step-up auth_session",
          token.access_token and token.id_token is None and "openid" not in (token.scope or "")
          and not token.kwargs.get("auth_session"), (token.scope, token.kwargs))


def throttled(bridge):
    before = bridge.codes()
    _, challenge = pkce_pair()
    _, body = bridge.challenge(first(challenge=challenge))
    statuses = []
    for _ in range(6):
        answer, body = bridge.challenge({"client_id": "partner-app", "auth_session": body.get("auth_session"),
                                         "username": DEMO_USER, "password": "wrong"})
        statuses.append((answer.status_code, body.get("error")))
    check("a wrong password is insufficient_authorization with a new auth_session, five times",
          statuses[:5] == [(400, "insufficient_authorization")] * 5, statuses)
    check("§9.3: beyond the throttle: slow_down, 429, Retry-After (RFC 6585 §4)",
          statuses[5] == (429, "slow_down") and answer.headers.get("retry-after", "").isdigit(), (statuses, answer.headers))
    answer, body = bridge.challenge({"client_id": "partner-app", "auth_session": body.get("auth_session"),
                                     "username": DEMO_USER, "password": DEMO_PASSWORD})
    check("throttled, even the right password issues nothing", answer.status_code == 429 and bridge.codes() == before,
          body)


if __name__ == "__main__":
    sys.exit(main())
