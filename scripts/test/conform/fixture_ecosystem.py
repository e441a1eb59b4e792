"""The WOPI ecosystem for the fixture host (Microsoft's CheckEcosystem and "GetRootContainer (ecosystem)" pages):
GET /wopi/ecosystem and /wopi/ecosystem/root_container_pointer with the ecosystem token the bootstrap puts in
EcosystemUrl, correct by default; each --break switch named here breaks one rule. A mixin of fixture_host.Handler.
"""
import secrets


class EcosystemEndpoints:
    def ecosystem_url(self):
        """EcosystemUrl with a fresh ecosystem token (the bootstrap hands one out each time)."""
        token = secrets.token_urlsafe(24)
        self.state.ecosystem_tokens.add(token)
        return f"{self.origin}/wopi/ecosystem?access_token={token}"

    def ecosystem_token_valid(self, query):
        return self.broken("ecosystem-any-token") or query.get("access_token") in self.state.ecosystem_tokens

    def check_ecosystem(self, method, query):
        if not self.ecosystem_token_valid(query):
            return self.send(401, "invalid access token")
        body = {} if self.broken("ecosystem-no-supports-containers") else {"SupportsContainers": True}
        self.send_json(200, body)

    def root_container_pointer(self, method, query):
        if not self.ecosystem_token_valid(query):
            return self.send(401, "invalid access token")
        url = self.origin + "/wopi/containers/root"
        if not self.broken("ecosystem-pointer-without-token"):
            url += "?access_token=" + secrets.token_urlsafe(24)
        self.send_json(200, {"ContainerPointer": {"Name": "Files", "Url": url}})
