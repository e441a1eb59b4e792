import BridgeHTTP
import BridgeStore
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import SignInProtocol

/// The token, revocation and introspection endpoints over HTTP: read the form body, run the endpoint, render JSON
/// with `Cache-Control: no-store` and `Pragma: no-cache` (RFC 6749 §5.1), or the RFC 6749 §5.2 error.
struct OAuthRoutes: Sendable {
    static let revocationPath = "/oauth2/revoke"
    static let introspectionPath = "/oauth2/introspect"

    let token: TokenEndpoint
    let revocation: RevocationEndpoint
    let introspection: IntrospectionEndpoint
    let exchange: ExchangeEndpoint
    let pushedAuthorization: PushedAuthorizationEndpoint
    let paths: TokenEndpointPaths
    let bodies: RequestBodyReader
    let realm: String
    let configuration: BridgeConfiguration
    let dpop: DPoPProofs
    let now: @Sendable () -> Date

    init(services: BridgeServices) {
        token = services.token
        revocation = services.revocation
        introspection = services.introspection
        exchange = services.exchange
        pushedAuthorization = services.pushedAuthorization
        paths = TokenEndpointPaths(configuration: services.configuration)
        bodies = services.bodies
        realm = services.configuration.issuer
        configuration = services.configuration
        dpop = services.dpop
        now = services.now
    }

    func register<Context: RequestContext>(on router: Router<Context>, logger: Logger) {
        for path in paths.paths {
            router.post(RouterPath(path)) { request, context in
                var response = await self.answer(request, context) { form async throws(OAuthError) in
                    OAuthHTTPResponse.json(JSONBody.bytes(try await self.token.respond(to: form)))
                }
                // RFC 9449 §8: the nonce for the client's next proof, on errors and successes alike.
                response.addDPoPNonce(self.dpop.nonceField(at: self.now()), requestHadProof: request.headers[.dpop] != nil)
                return response
            }
        }
        for url in paths.foreignURLs {
            logger.notice("token URL on another origin: forward it to \(TokenEndpointPaths.canonical)", metadata: ["url": "\(url)"])
        }
        router.post(RouterPath(ExchangeEndpoint.path)) { request, context in
            // RFC 6750 §3.1: the endpoint judges the credential before it refuses an unreadable body.
            let body: Result<String, OAuthError>
            do throws(OAuthError) {
                body = .success(try await self.readForm(request).body)
            } catch {
                body = .failure(error)
            }
            let form = OAuthFormRequest(request, body: (try? body.get()) ?? "", configuration: self.configuration)
            do throws(BearerRefusal) {
                return OAuthHTTPResponse.json(JSONBody.bytes(try await self.exchange.respond(to: form, body: body)))
            } catch {
                if error == .storeUnavailable {
                    context.logger.error("OAuth endpoint: store unavailable", metadata: ["path": "\(request.uri.path)"])
                }
                return BearerChallenge(realm: self.realm, acceptsDPoP: true).response(error)
            }
        }
        router.post(RouterPath(Self.revocationPath)) { request, context in
            await self.answer(request, context) { form async throws(OAuthError) in
                try await self.revocation.respond(to: form)
                return OAuthHTTPResponse.empty()
            }
        }
        router.post(RouterPath(PushedAuthorizationEndpoint.path)) { request, context in
            var response = await self.answer(request, context) { form async throws(OAuthError) in
                // RFC 9126 §2.2: 201 Created.
                OAuthHTTPResponse.json(JSONBody.bytes(try await self.pushedAuthorization.respond(to: form)), status: .created)
            }
            // RFC 9449 §8, §10.1: a proof at the pushed authorization endpoint gets the nonce as at the token endpoint.
            response.addDPoPNonce(self.dpop.nonceField(at: self.now()), requestHadProof: request.headers[.dpop] != nil)
            return response
        }
        router.post(RouterPath(Self.introspectionPath)) { request, context in
            await self.answer(request, context) { form async throws(OAuthError) in
                OAuthHTTPResponse.json(JSONBody.bytes(try await self.introspection.respond(to: form)))
            }
        }
    }

    private func answer(
        _ request: Request, _ context: some RequestContext,
        _ endpoint: (OAuthFormRequest) async throws(OAuthError) -> Response
    ) async -> Response {
        do throws(OAuthError) {
            let form = try await readForm(request)
            return try await endpoint(form)
        } catch {
            if error.code == .temporarilyUnavailable {
                context.logger.error("OAuth endpoint: store unavailable", metadata: ["path": "\(request.uri.path)"])
            } else {
                context.logger.debug("OAuth request refused", metadata: ["error": "\(error.code.rawValue)"])
            }
            return OAuthHTTPResponse.error(error, realm: realm)
        }
    }

    private func readForm(_ request: Request) async throws(OAuthError) -> OAuthFormRequest {
        let body: String
        do {
            body = try await bodies.formText(request)
        } catch {
            throw error.oauthError
        }
        return OAuthFormRequest(request, body: body, configuration: configuration)
    }
}

extension OAuthFormRequest {
    /// The form body and every header a token-endpoint-style request is read with (the token, PAR, revocation and
    /// introspection endpoints, and the authorization challenge endpoint).
    init(_ request: Request, body: String, configuration: BridgeConfiguration) {
        self.init(
            body: body, authorization: request.headers[.authorization],
            sessionContext: request.headers[.wopiSessionContext], dpop: DPoPPresentation(request, configuration: configuration),
            attestation: ClientAttestationPresentation(
                attestations: request.headers[values: .oauthClientAttestation],
                proofs: request.headers[values: .oauthClientAttestationPoP]))
    }
}
