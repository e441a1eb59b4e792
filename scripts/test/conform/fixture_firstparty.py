"""OAuth 2.0 for First-Party Applications (draft-ietf-oauth-first-party-apps) for the fixture host: the
authorization challenge endpoint, correct by default; each --break switch named here breaks one rule. A mixin of
fixture_host.Handler like fixture_tokens.TokenEndpoints. The user's credentials arrive as `username` and
`password` (RFC 6749 §4.3's names), as the conformance suite sends them.
"""
import secrets

from fixture_tokens import CLIENTS, PASSWORD, USER


class FirstPartyEndpoints:
    def challenge_error(self, error, status=400, **extra):
        self.send_json(status, {"error": error, **extra}, [("Cache-Control", "no-store")])

    def new_auth_session(self, client_id, request, username):
        value = secrets.token_urlsafe(32)  # 256 bits (draft §5.3.1)
        self.state.auth_sessions[value] = {"client": client_id, "request": request, "username": username, "used": False}
        return value

    def authorize_challenge(self, method, query):
        form = self.form()
        client = CLIENTS.get(form.get("client_id"))
        if not client or (not client["public"] and form.get("client_secret") != client["secret"]):
            return self.challenge_error("invalid_client", 401)
        if not client.get("first_party") and not self.broken("fpa-any-client"):
            return self.challenge_error("unauthorized_client")
        session = None
        if "auth_session" in form:
            session = self.state.auth_sessions.get(form["auth_session"])
            if session is None and not self.broken("fpa-ignore-session"):
                return self.challenge_error("invalid_session")
            if session and (session["client"] != client["id"] or (session["used"] and not self.broken("fpa-session-reusable"))):
                return self.challenge_error("invalid_session")
        if session:
            request, username = session["request"], form.get("username") or session["username"]
        else:
            if form.get("response_type") != "code" and not self.broken("fpa-no-response-type"):
                return self.challenge_error("invalid_request", error_description="response_type must be code")
            request = {"challenge": form.get("code_challenge"), "method": form.get("code_challenge_method"),
                       "scope": form.get("scope", "")}
            username = form.get("username")
        if "password" not in form:
            auth_session = self.new_auth_session(client["id"], request, username)
            return self.challenge_error("insufficient_authorization", auth_session=auth_session)
        if username != USER or form["password"] != PASSWORD:
            return self.challenge_error("access_denied", error_description="wrong name or password")
        if session:
            session["used"] = True
        code = secrets.token_urlsafe(16)
        self.state.codes[code] = {"client": client["id"], "redirect": None, "challenge": request["challenge"],
                                  "method": request["method"], "scope": request["scope"], "nonce": None, "used": False,
                                  "tokens": [], "sc": None, "first_party": True}
        field = "code" if self.broken("fpa-code-field") else "authorization_code"
        self.send_json(200, {field: code}, [("Cache-Control", "no-store")])
