import BridgeHTTP
import HTTPTypes
import SignInProtocol

/// The 401 of `/wopibootstrapper`, built once at start: the one Bearer challenge from `BootstrapChallenge`, any
/// additional challenges the configuration asks for (each its own `WWW-Authenticate` line), and the security headers.
/// `BootstrapAnswers` answers with these fields: answering an unauthenticated request is then a copy of prepared
/// fields, which keeps the path Office (and every scanner on the internet) hits most as cheap as a static file server's.
struct ChallengeResponse: Sendable {
    let challenge: BootstrapChallenge
    let headers: HTTPFields
    /// The same answer for a request whose token was refused: the challenge gains `error="invalid_token"` (RFC 6750
    /// §3.1), everything else Office reads from it unchanged, so it signs in again as it does after a plain 401.
    let invalidTokenHeaders: HTTPFields

    init(configuration: BridgeConfiguration, securityFields: [HTTPField]) {
        let office = configuration.office
        let schemes = office.urlSchemes.map { settings in
            UrlSchemes(
                iOS: settings.iOS,
                android: settings.Android?.map {
                    .app(
                        AndroidAppEntry(
                            minimumVersionCode: $0.minimumVersionCode, packageName: $0.packageName,
                            authActivity: $0.authActivity))
                },
                uwp: settings.UWP)
        }
        challenge = BootstrapChallenge(
            authorizationURI: configuration.challengeAuthorizationURI,
            tokenIssuanceURI: configuration.challengeTokenIssuanceURI,
            providerId: office.providerId,
            urlSchemes: schemes,
            resourceMetadata: office.resourceMetadata
                ? configuration.issuerURL(path: "/.well-known/oauth-protected-resource") : nil)
        func fields(_ bearer: BootstrapChallenge) -> HTTPFields {
            var headers = HTTPFields()
            headers.append(HTTPField(name: .wwwAuthenticate, value: bearer.headerValue))
            for extra in office.additionalChallenges ?? [] {
                headers.append(HTTPField(name: .wwwAuthenticate, value: extra))
            }
            SecurityHeaders.apply(securityFields, to: &headers)
            return headers
        }
        headers = fields(challenge)
        var refused = challenge
        refused.otherParameters.append(.init(name: "error", value: OAuthError.Code.invalidToken.rawValue))
        invalidTokenHeaders = fields(refused)
    }
}
