import BridgeHTTP
import Hummingbird
import SignInProtocol

extension BridgeRoutes {
    /// The WOPI ecosystem's two reads, only when this server is the ecosystem host (`EcosystemHost`): else the
    /// host's own WOPI server answers them and these paths stay 404 here.
    func registerEcosystem(on router: Router<BridgeRequestContext>) {
        guard EcosystemHost(configuration: configuration).servedBySignInBridge else { return }
        let challenge = BearerChallenge(realm: configuration.issuer)
        router.get(RouterPath(EcosystemHost.path)) { request, _ in
            do throws(EcosystemRefusal) {
                let answer = try await self.services.ecosystem.checkEcosystem(self.ecosystemRequest(request))
                return OAuthHTTPResponse.json(JSONBody.bytes(answer))
            } catch {
                return Self.response(error, challenge: challenge)
            }
        }
        router.get(RouterPath(EcosystemHost.rootContainerPointerPath)) { request, _ in
            do throws(EcosystemRefusal) {
                let answer = try await self.services.ecosystem.rootContainerPointer(self.ecosystemRequest(request))
                return OAuthHTTPResponse.json(JSONBody.bytes(answer))
            } catch {
                return Self.response(error, challenge: challenge)
            }
        }
    }

    func ecosystemRequest(_ request: Request) -> EcosystemRequest {
        EcosystemRequest(
            presentation: WopiTokenPresentation(
                queryValues: request.uri.queryParameters.getAll("access_token").map { String($0) },
                authorization: request.headers[.authorization],
                maxHeaderBytes: configuration.limits.maxHeaderValueBytes))
    }

    static func response(_ refusal: EcosystemRefusal, challenge: BearerChallenge) -> Response {
        switch refusal {
        case .bearer(let refusal): challenge.response(refusal)
        case .foreignToken:
            text(.notFound, "the WOPI access token is for one file (its WopiSrc), not an ecosystem token")
        case .containersUnsupported:
            text(.notImplemented, "this host does not support containers (wopi.ecosystem.supportsContainers is false)")
        }
    }
}
