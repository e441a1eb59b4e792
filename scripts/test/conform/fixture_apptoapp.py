"""The host's own app's side of requested_flow=app_to_app for the fixture host (Vipps "Integrate from a mobile
app", our docs/app-to-app.md): the parked page's deep link carries a `reference`; the host's app approves it at
POST /app-to-app/decision with its own access token and gets `app_callback_uri?state=…&resume_uri=…`; the merchant's
browser tab opens `resume_uri` once, which ends in the code. Correct by default; each --break switch named here
breaks one rule. A mixin of fixture_host.Handler.
"""
import json
import secrets
import urllib.parse


class AppToAppEndpoints:
    def parked_page(self, request_id):
        reference = secrets.token_urlsafe(16)
        self.state.references[reference] = request_id
        return f'<a href="contoso-app://approve?reference={reference}">Continue in the app</a>'

    def app_to_app_decision(self, method, query):
        if method != "POST" or not self.verify(self.headers.get("Authorization")):
            return self.send(401, "", [("WWW-Authenticate", 'Bearer realm="fixture"')])
        form = self.form()
        request_id = self.state.references.pop(form.get("reference", ""), None)
        if request_id is None or form.get("decision") != "approve":
            return self.send_json(400, {"error": "invalid_request"})
        request = self.state.requests[request_id]
        resume = secrets.token_urlsafe(16)
        self.state.resumes[resume] = {"request": dict(request), "used": False}
        callback = request["app_callback_uri"] + "?" + urllib.parse.urlencode(
            {"state": request.get("state", ""), "resume_uri": f"{self.origin}/app-to-app/resume?token={resume}"})
        self.send(200, json.dumps({"app_callback_url": callback}), [("Content-Type", "application/json")])

    def app_to_app_resume(self, method, query):
        resume = self.state.resumes.get(query.get("token", ""))
        if resume is None or (resume["used"] and not self.broken("resume-reusable")):
            return self.send(400, "<p>This link was already used or has expired.</p>", [("Content-Type", "text/html")])
        resume["used"] = True
        request_id = secrets.token_urlsafe(8)
        self.state.requests[request_id] = dict(resume["request"])
        self.issue_code(request_id)
