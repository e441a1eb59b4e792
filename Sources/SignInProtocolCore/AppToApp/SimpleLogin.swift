/// Vipps/MobilePay "Simple Login" from a mobile app (`requested_flow=app_to_app_v2`,
/// https://developer.vippsmobilepay.com/docs/APIs/login-api/api-guide/mobile-app-flows/simple-login/): the user
/// consents in the provider's app, which opens the merchant's `redirect_uri` with the code directly; there is no
/// `app_callback_uri` and no `resume_uri`, so nothing ties the code to the browser tab and PKCE is what binds it to
/// the app that asked.
///
/// The rules this type refuses to exist without (the host's authorize endpoint checks the same ones): `state`,
/// an S256 PKCE challenge, an `https` redirect URI (a universal link / App Link, which only the merchant's verified
/// app receives), and no `app_callback_uri`.
public struct SimpleLoginAuthorization: Sendable, Hashable {
    /// The `requested_flow` value that asks for Simple Login.
    public static let requestedFlow = "app_to_app_v2"

    /// The underlying request, with `requestedFlow`, `redirectURI`, `state` and the S256 challenge set.
    public let request: AuthorizationRequest

    public init(
        clientID: String, redirectURI: String, pkce: PKCE.Challenge, state: String, scope: String? = nil,
        nonce: String? = nil, additionalParameters: FormParameters = FormParameters()
    ) throws(OAuthDecodingError) {
        var request = AuthorizationRequest(
            clientID: clientID, redirectURI: redirectURI, scope: scope, state: state, nonce: nonce,
            requestedFlow: Self.requestedFlow, additionalParameters: additionalParameters)
        request.setPKCE(pkce)
        try self.init(request)
    }

    /// Checks that a decoded request asks for Simple Login and keeps its rules.
    public init(_ request: AuthorizationRequest) throws(OAuthDecodingError) {
        if request.clientID.isEmpty { throw .missingParameter("client_id") }
        guard request.requestedFlow.nonEmpty == Self.requestedFlow else {
            throw .invalidParameter("requested_flow", reason: "must be '\(Self.requestedFlow)'")
        }
        if request.appCallbackURI.nonEmpty != nil {
            throw .invalidParameter("app_callback_uri", reason: "is not used with requested_flow=\(Self.requestedFlow)")
        }
        guard let redirectURI = request.redirectURI.nonEmpty else { throw .missingParameter("redirect_uri") }
        // The provider's app opens redirect_uri itself; an https link is delivered only to the app that proved it
        // owns the domain (universal links / App Links), as the Simple Login page recommends.
        guard URIComponents(redirectURI).scheme?.lowercased() == "https" else {
            throw .invalidParameter("redirect_uri", reason: "must be an https universal link / App Link")
        }
        // The provider's app sends the user back with `state`: without one the merchant cannot match the answer.
        if request.state.nonEmpty == nil { throw .missingParameter("state") }
        // RFC 7636 §4.3: no challenge (or no method) means none or plain; Simple Login requires PKCE, and S256.
        if request.codeChallenge.nonEmpty == nil { throw .missingParameter("code_challenge") }
        guard request.codeChallengeMethod == PKCE.Method.s256.rawValue else {
            throw .invalidParameter("code_challenge_method", reason: "must be S256")
        }
        self.request = request
    }

    /// Decodes and checks a whole authorize URL.
    public static func decode(url: String, limit: InputLimit = .default) throws(OAuthDecodingError) -> SimpleLoginAuthorization {
        try SimpleLoginAuthorization(AuthorizationRequest.decode(url: url, limit: limit))
    }

    public var redirectURI: String { request.redirectURI ?? "" }
    public var state: String { request.state ?? "" }

    /// The URL to open in the app's browser tab (`ASWebAuthenticationSession`, Custom Tabs; never a web view).
    public func url(authorizationEndpoint: String) -> String { request.url(authorizationEndpoint: authorizationEndpoint) }
}

/// The decision endpoint's answer to the host's app for a Simple Login request, as JSON `{"redirect_url": …}`: the
/// merchant's registered `redirect_uri` with `code`, `state` and `iss` (or `error`, `state` and `iss`), which the
/// host's app opens to return the user to the merchant's app.
public struct AppToAppRedirectAnswer: Sendable, Hashable, Codable {
    public var redirectURL: String

    enum CodingKeys: String, CodingKey { case redirectURL = "redirect_url" }

    public init(redirectURL: String) { self.redirectURL = redirectURL }

    /// The answer that sends `response` to `redirectURI`.
    public init(_ response: AuthorizationResponse, redirectURI: String) {
        redirectURL = response.redirectURL(to: redirectURI)
    }

    /// The authorization response, decoded as the merchant app will decode it.
    public func response(limit: InputLimit = .default) throws(OAuthDecodingError) -> AuthorizationResponse {
        try AuthorizationResponse.decode(redirectURL: redirectURL, limit: limit)
    }

    public var json: String { JSONBody.encode(self) }

    public static func decode(json: some StringProtocol, limit: InputLimit = .default) throws(OAuthDecodingError) -> AppToAppRedirectAnswer {
        try JSONBody.decode(AppToAppRedirectAnswer.self, from: json, limit: limit, what: "app-to-app redirect answer")
    }
}
