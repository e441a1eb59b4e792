import HTTPTypes
import Hummingbird
import SignInProtocol

/// The 401 of `/wopibootstrapper`, built once at start: the one Bearer challenge from `BootstrapChallenge`, any
/// additional challenges the configuration asks for (each its own `WWW-Authenticate` line), and the security headers.
/// Answering an unauthenticated request is then a copy of prepared fields, which keeps the path Office (and every
/// scanner on the internet) hits most as cheap as a static file server's.
struct ChallengeResponse: Sendable {
    let challenge: BootstrapChallenge
    let headers: HTTPFields

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
            authorizationURI: configuration.authorizationURI,
            tokenIssuanceURI: configuration.tokenIssuanceURI,
            providerId: office.providerId,
            urlSchemes: schemes,
            resourceMetadata: (office.resourceMetadata ?? false)
                ? configuration.issuerURL(path: "/.well-known/oauth-protected-resource") : nil)
        var headers = HTTPFields()
        headers.append(HTTPField(name: .wwwAuthenticate, value: challenge.headerValue))
        for extra in office.additionalChallenges ?? [] {
            headers.append(HTTPField(name: .wwwAuthenticate, value: extra))
        }
        SecurityHeaders.apply(securityFields, to: &headers)
        self.headers = headers
    }

    var response: Response { Response(status: .unauthorized, headers: headers) }
}
