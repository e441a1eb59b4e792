import BridgeHTTP
import Foundation
import HTTPTypes
import Hummingbird
import SignInProtocol

extension BridgeRoutes {
    /// `POST /oauth2/authorize-challenge` (draft-ietf-oauth-first-party-apps-04 §4.1) when `firstPartyApps.enabled`:
    /// the form and its client address in, the JSON answer out with `Cache-Control: no-store` (§5.2.1), the DPoP
    /// nonce as at the token endpoint (RFC 9449 §8), and `Retry-After` on a throttled sign-in (RFC 6585 §4).
    func registerFirstPartyApps(on router: Router<BridgeRequestContext>) {
        guard configuration.firstPartyApps.enabled else { return }
        let endpoint = services.authorizationChallenge
        let bodies = services.bodies
        let clientAddress = services.clientAddress
        router.post(RouterPath(AuthorizationChallengeEndpoint.path)) { request, context in
            let outcome: AuthorizationChallengeOutcome
            do throws(RequestBodyError) {
                let form = OAuthFormRequest(
                    request, body: try await bodies.formText(request), configuration: self.configuration)
                let address = clientAddress.resolve(
                    peer: context.remoteAddress?.ipAddress, forwardedFor: request.headers[values: ClientAddress.forwardedForField])
                outcome = await endpoint.respond(
                    to: ChallengeEndpointRequest(form: form, clientAddress: address), logger: context.logger)
            } catch {
                outcome = .refused(AuthorizationChallengeError(error.oauthError))
            }
            var response = OAuthHTTPResponse.json(
                Array(outcome.response.json.utf8), status: HTTPResponse.Status(code: outcome.status))
            if case .error(let refusal) = outcome.response {
                OAuthHTTPResponse.addChallenge(for: refusal.error, realm: self.configuration.issuer, to: &response)
            }
            if let wait = outcome.retryAfterSeconds { response.headers[.retryAfter] = String(wait) }
            response.addDPoPNonce(self.services.dpop.nonceField(at: self.now()), requestHadProof: request.headers[.dpop] != nil)
            return response
        }
    }
}
