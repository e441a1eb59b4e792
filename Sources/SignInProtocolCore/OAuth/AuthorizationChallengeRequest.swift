/// A request to the authorization challenge endpoint (draft-ietf-oauth-first-party-apps-04 §5.1) as a first-party
/// app sends it: the first one carries the authorization request (`response_type=code`, the client, the scope and
/// PKCE); each later one carries the `auth_session` the last answer gave (§5.3.1) and what the user supplied for the
/// step. The step's parameters are the server's to define (§5.3); this server's are `username`, `password` and
/// `upstream`, named in `StepName`. Free of I/O: an app builds the form, the server reads the same names.
public struct AuthorizationChallengeRequest: Sendable, Hashable {
    /// The step parameters this server defines, never part of the authorization request itself.
    public enum StepName {
        public static let authSession = "auth_session"
        public static let username = "username"
        public static let password = "password"
        /// The upstream provider to sign in with, which answers `redirect_to_web`.
        public static let upstream = "upstream"
        public static let all = [authSession, username, password, upstream]
    }

    /// §5.1: required unless the client authenticates otherwise or an `auth_session` identifies it.
    public var clientID: String?
    public var scope: String?
    /// §5.2.2.1.1: without it the server may not continue in the browser with a `request_uri`; this server requires S256.
    public var codeChallenge: PKCE.Challenge?
    public var authSession: String?
    public var username: String?
    public var password: String?
    public var upstream: String?

    public init(
        clientID: String?, scope: String? = nil, codeChallenge: PKCE.Challenge? = nil, authSession: String? = nil,
        username: String? = nil, password: String? = nil, upstream: String? = nil
    ) {
        self.clientID = clientID
        self.scope = scope
        self.codeChallenge = codeChallenge
        self.authSession = authSession
        self.username = username
        self.password = password
        self.upstream = upstream
    }

    /// The first request: the authorization request with the user's credentials, if the app has them already.
    /// `codeChallenge` is the S256 challenge of the verifier the app keeps for the token request (SignInProtocol's
    /// `verifier.challenge()`).
    public static func initial(
        clientID: String, scope: String?, codeChallenge: PKCE.Challenge, username: String? = nil, password: String? = nil
    ) -> AuthorizationChallengeRequest {
        AuthorizationChallengeRequest(
            clientID: clientID, scope: scope, codeChallenge: codeChallenge, username: username, password: password)
    }

    /// A later step: the `auth_session` of the last answer and what the user supplied for this step.
    public static func step(
        clientID: String, authSession: String, password: String? = nil, upstream: String? = nil
    ) -> AuthorizationChallengeRequest {
        AuthorizationChallengeRequest(clientID: clientID, authSession: authSession, password: password, upstream: upstream)
    }

    /// The `application/x-www-form-urlencoded` body (§5.1): `response_type=code` and PKCE only on the first request.
    public var form: FormParameters {
        var pairs = [FormParameters.Pair]()
        func add(_ name: String, _ value: String?) { if let value { pairs.append(.init(name, value)) } }
        if authSession == nil { add("response_type", "code") }
        add("client_id", clientID)
        add("scope", scope)
        add("code_challenge", codeChallenge?.value)
        add("code_challenge_method", codeChallenge?.method.rawValue)
        add(StepName.authSession, authSession)
        add(StepName.username, username)
        add(StepName.password, password)
        add(StepName.upstream, upstream)
        return FormParameters(pairs)
    }
}
