/// A Vipps/MobilePay-style app-to-app authorization request (Vipps Login app-to-app docs): an ordinary authorization request
/// plus `requested_flow=app_to_app` and `app_callback_uri`, where the provider's app sends the user back.
///
/// Both `app_callback_uri` and `redirect_uri` are required, and both must be registered exactly (trailing `/`
/// and percent-encoding count), so this type refuses to exist without them.
public struct AppToAppAuthorization: Sendable, Hashable {
    /// The `requested_flow` value that asks for the app-to-app flow.
    public static let requestedFlow = "app_to_app"

    /// The underlying request, with `requestedFlow`, `appCallbackURI` and `redirectURI` set.
    public let request: AuthorizationRequest

    /// Builds the request. `pkce` is the S256 challenge the Vipps pages' example sends; pass nil only for
    /// confidential clients that cannot use it.
    public init(
        clientID: String, redirectURI: String, appCallbackURI: String, scope: String? = nil, state: String? = nil,
        nonce: String? = nil, pkce: PKCE.Challenge? = nil, additionalParameters: FormParameters = FormParameters()
    ) throws(OAuthDecodingError) {
        var request = AuthorizationRequest(
            clientID: clientID, redirectURI: redirectURI, scope: scope, state: state, nonce: nonce,
            requestedFlow: Self.requestedFlow, appCallbackURI: appCallbackURI,
            additionalParameters: additionalParameters)
        if let pkce { request.setPKCE(pkce) }
        try self.init(request)
    }

    /// Checks that a decoded request asks for the app-to-app flow with both URIs present.
    public init(_ request: AuthorizationRequest) throws(OAuthDecodingError) {
        if request.clientID.isEmpty { throw .missingParameter("client_id") }
        guard let flow = request.requestedFlow.nonEmpty else { throw .missingParameter("requested_flow") }
        guard flow == Self.requestedFlow else {
            throw .invalidParameter("requested_flow", reason: "must be '\(Self.requestedFlow)'")
        }
        if request.appCallbackURI.nonEmpty == nil { throw .missingParameter("app_callback_uri") }
        if request.redirectURI.nonEmpty == nil { throw .missingParameter("redirect_uri") }
        self.request = request
    }

    /// Decodes and checks a whole authorize URL.
    public static func decode(url: String, limit: InputLimit = .default) throws(OAuthDecodingError) -> AppToAppAuthorization {
        try AppToAppAuthorization(AuthorizationRequest.decode(url: url, limit: limit))
    }

    public var appCallbackURI: String { request.appCallbackURI ?? "" }
    public var redirectURI: String { request.redirectURI ?? "" }

    /// The URL to open in the app's browser tab (`ASWebAuthenticationSession`, Custom Tabs; never a web view).
    public func url(authorizationEndpoint: String) -> String { request.url(authorizationEndpoint: authorizationEndpoint) }
}
