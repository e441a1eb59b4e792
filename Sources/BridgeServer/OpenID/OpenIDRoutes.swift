import BridgeHTTP
import BridgeStore
import Foundation
import Hummingbird
import SignInProtocol

extension IDTokenIssuer {
    /// ID tokens live as long as access tokens (`tokens.accessTokenLifetimeSeconds`).
    init(configuration: BridgeConfiguration, keys: SigningKeySet) {
        self.init(
            keys: keys, issuer: configuration.issuer,
            lifetime: TimeInterval(configuration.tokens.accessTokenLifetimeSeconds))
    }
}

/// The OpenID Connect endpoints beside OAuth's: UserInfo, RP-initiated logout, the app-to-app provider
/// endpoints, and the browser's end of session exchange codes. (The ID token comes from `AuthorizationCodeGrant`; discovery is `AuthorizationServerMetadata`.)
struct OpenIDRoutes: Sendable {
    let userInfo: UserInfoEndpoint
    let challenge: BearerChallenge
    /// UserInfo takes DPoP tokens too (RFC 9449 §7), so its challenges name both schemes.
    let userInfoChallenge: BearerChallenge
    let endSession: EndSessionEndpoint
    let appToApp: AppToAppEndpoints
    let sessionCodes: SessionCodeEndpoint
    let guarded: StoreOutagePage
    let bodies: RequestBodyReader
    /// The page side of the browser endpoints (logout, `resume_uri`, session codes): pages and cookies.
    let signInPages: SignInPages
    let configuration: BridgeConfiguration

    init(services: BridgeServices) {
        userInfo = services.userInfo
        challenge = BearerChallenge(realm: services.configuration.issuer)
        userInfoChallenge = BearerChallenge(realm: services.configuration.issuer, acceptsDPoP: true)
        configuration = services.configuration
        endSession = services.endSession
        appToApp = services.appToApp
        sessionCodes = services.sessionCodes
        guarded = StoreOutagePage(pages: services.signInPages.pages)
        bodies = services.bodies
        signInPages = services.signInPages
    }

    func register(on router: Router<BridgeRequestContext>) {
        for method in [HTTPRequest.Method.get, .post] {
            router.on(RouterPath(UserInfoEndpoint.path), method: method) { request, _ in
                do throws(BearerRefusal) {
                    let claims = try await self.userInfo.claims(
                        authorization: request.headers[.authorization],
                        dpop: DPoPPresentation(request, configuration: self.configuration))
                    return OAuthHTTPResponse.json(JSONBody.bytes(claims))
                } catch {
                    return self.userInfoChallenge.response(error)
                }
            }
        }
        registerSessions(on: router)
        registerAppToApp(on: router)
    }
}
