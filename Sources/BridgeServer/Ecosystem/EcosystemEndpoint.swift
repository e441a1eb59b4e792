import BridgeStore
import Foundation
import SignInProtocol

/// What a WOPI ecosystem request brings: its access token, wherever it was (`WopiTokenPresentation`).
struct EcosystemRequest: Sendable {
    var presentation: WopiTokenPresentation
}

/// Why an ecosystem request is refused. Microsoft's CheckEcosystem and GetRootContainer pages: 401 for an invalid
/// access token, 404 for "resource not found/user unauthorized", 501 for an operation the host does not support.
enum EcosystemRefusal: Error, Sendable, Equatable {
    /// No, a forged, expired or revoked token, two different tokens, a store outage: `BearerChallenge` renders it.
    case bearer(BearerRefusal)
    /// A token handed out for one file (`GET_NEW_ACCESS_TOKEN`, bound to its WopiSrc) is not an ecosystem token.
    case foreignToken
    /// `wopi.ecosystem.supportsContainers` is false: there is no root container to point at.
    case containersUnsupported
}

/// CheckEcosystem's answer (Microsoft's CheckEcosystem page: every property optional, none null).
struct CheckEcosystemResponse: Encodable, Equatable {
    var supportsContainers: Bool

    enum CodingKeys: String, CodingKey {
        case supportsContainers = "SupportsContainers"
    }
}

/// GetRootContainer's answer: `{"ContainerPointer":{"Name":…,"Url":…}}` (Microsoft's "GetRootContainer
/// (ecosystem)" page; the WOPI validator requires both, the Url absolute with an `access_token`).
struct RootContainerPointerResponse: Encodable, Equatable {
    var containerPointer: RootContainerInfo.ContainerPointer

    enum CodingKeys: String, CodingKey {
        case containerPointer = "ContainerPointer"
    }
}

/// `GET /wopi/ecosystem` (CheckEcosystem) and `GET /wopi/ecosystem/root_container_pointer` (GetRootContainer),
/// served when this server is the ecosystem host (`EcosystemHost`). The ecosystem token is the one the bootstrap put
/// in `EcosystemUrl`: sealed by this server, for no one file, its grant active (`WopiAccessTokenVerifier`).
struct EcosystemEndpoint: Sendable {
    let verifier: WopiAccessTokenVerifier
    let seal: WopiAccessTokenSeal
    let rootContainer: RootContainerLink
    let settings: BridgeConfiguration.Ecosystem
    let lifetime: TimeInterval
    let now: @Sendable () -> Date

    init(
        configuration: BridgeConfiguration, verifier: WopiAccessTokenVerifier, seal: WopiAccessTokenSeal,
        now: @escaping @Sendable () -> Date
    ) {
        self.verifier = verifier
        self.seal = seal
        rootContainer = RootContainerLink(configuration.wopi.rootContainer)
        settings = configuration.wopi.ecosystem
        lifetime = TimeInterval(configuration.wopi.accessTokenLifetimeSeconds)
        self.now = now
    }

    func checkEcosystem(_ request: EcosystemRequest) async throws(EcosystemRefusal) -> CheckEcosystemResponse {
        _ = try await verified(request, at: now())
        return CheckEcosystemResponse(supportsContainers: settings.supportsContainers)
    }

    /// The pointer's URL carries a fresh root container token under the same grant, as `GET_ROOT_CONTAINER` hands
    /// out, but never outliving the token that asked: a WOPI token cannot extend itself by trading ("Preventing
    /// token trading", Microsoft's WOPI security page).
    func rootContainerPointer(_ request: EcosystemRequest) async throws(EcosystemRefusal) -> RootContainerPointerResponse {
        let time = now()
        let (claims, grant) = try await verified(request, at: time)
        guard settings.supportsContainers else { throw .containersUnsupported }
        let issuedAt = Milliseconds.date(Milliseconds.from(time))
        let expiresAt = min(issuedAt.addingTimeInterval(lifetime), claims.expiresAt)
        let token = seal.seal(WopiAccessTokenClaims(grantID: grant.id, wopiSource: nil, issuedAt: issuedAt, expiresAt: expiresAt))
        return RootContainerPointerResponse(containerPointer: rootContainer.pointer(token: token))
    }

    private func verified(
        _ request: EcosystemRequest, at time: Date
    ) async throws(EcosystemRefusal) -> (claims: WopiAccessTokenClaims, grant: GrantRecord) {
        switch request.presentation {
        case .none: throw .bearer(.noCredential)
        case .conflicting:
            throw .bearer(
                .request(.invalidRequest("the access_token parameter and the Authorization header carry different tokens")))
        case .token(let token):
            do throws(WopiAccessTokenVerifier.Rejection) {
                let verified = try await verifier.verify(token, for: nil, at: time)
                return (verified.claims, verified.grant)
            } catch {
                throw Self.refusal(error)
            }
        }
    }

    /// A token for one file is not the ecosystem's: 404, as for an unknown resource (`EcosystemRefusal.foreignToken`).
    static func refusal(_ rejection: WopiAccessTokenVerifier.Rejection) -> EcosystemRefusal {
        rejection.bearerRefusal.map { .bearer($0) } ?? .foreignToken
    }
}
