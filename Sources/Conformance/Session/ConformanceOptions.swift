/// What the suite was told about the host under test (the `conform` command's flags).
public struct ConformanceOptions: Sendable {
    /// Office's confidential client, as registered with the host.
    public struct ConfidentialClient: Sendable {
        public var id: String
        public var secret: String
        public var redirectURI: String
        public init(id: String, secret: String, redirectURI: String) {
            self.id = id
            self.secret = secret
            self.redirectURI = redirectURI
        }
    }

    /// A partner app's public client (no secret; PKCE).
    public struct PublicClient: Sendable {
        public var id: String
        public var redirectURI: String
        public init(id: String, redirectURI: String) {
            self.id = id
            self.redirectURI = redirectURI
        }
    }

    public struct User: Sendable {
        public var username: String
        public var password: String
        public init(username: String, password: String) {
            self.username = username
            self.password = password
        }
    }

    /// The WOPI bootstrapper; nil for an OAuth/OpenID server without one (then `issuer` names it).
    public var bootstrapURL: String?
    /// Where discovery is read (`<issuer>/.well-known/openid-configuration`, else RFC 8414 metadata) when there is no
    /// bootstrapper to name the endpoints.
    public var issuer: String?
    public var office: ConfidentialClient?
    public var user: User?
    /// A WopiSrc the host serves, for `GET_NEW_ACCESS_TOKEN`.
    public var wopiSrc: String?
    public var publicClient: PublicClient?
    /// A public client that may ask for `requested_flow=app_to_app` (Vipps Login API), with its registered callback.
    public struct AppToAppClient: Sendable {
        public var id: String
        public var redirectURI: String
        public var callbackURI: String
        public init(id: String, redirectURI: String, callbackURI: String) {
            self.id = id
            self.redirectURI = redirectURI
            self.callbackURI = callbackURI
        }
    }

    public var appToAppClient: AppToAppClient?
    /// Where the host's own app approves an `app_to_app` request (the host's API; ours is
    /// `<issuer>/oauth2/app-to-app/decision`), so the suite can reach `resume_uri`.
    public var appToAppDecisionURI: String?
    /// A merchant that may ask for `requested_flow=app_to_app_v2` (Vipps "Simple Login"), with its registered
    /// https redirect URI (the merchant app's universal link).
    public var simpleLoginClient: PublicClient?
    /// The host's own app's client, allowed at the authorization challenge endpoint (OAuth 2.0 for First-Party
    /// Applications); `secret` when it is confidential.
    public struct FirstPartyClient: Sendable {
        public var id: String
        public var secret: String?
        public init(id: String, secret: String?) {
            self.id = id
            self.secret = secret
        }
    }

    public var firstPartyClient: FirstPartyClient?
    /// Two apps of one vendor for Native SSO: the first signs in (a public client with its redirect URI), the second
    /// exchanges the first's ID token and device secret (`secret` when it is confidential).
    public struct NativeSSOApps: Sendable {
        public var first: PublicClient
        public var second: FirstPartyClient
        public init(first: PublicClient, second: FirstPartyClient) {
            self.first = first
            self.second = second
        }
    }

    public var nativeSSOApps: NativeSSOApps?
    /// The client attester the host trusts (its P-256 private key, PEM) and a client it may attest.
    public struct Attestation: Sendable {
        public var attesterKeyPEM: String
        public var clientID: String
        public init(attesterKeyPEM: String, clientID: String) {
            self.attesterKeyPEM = attesterKeyPEM
            self.clientID = clientID
        }
    }

    public var attestation: Attestation?
    /// The grace window the host documents for a rotated refresh token (0: none); the reuse checks replay after it.
    public var refreshGraceSeconds: Int64 = 0
    /// The confidential client that redeems `/oauth/exchange` codes made for it from the public client's token.
    public var exchangeTarget: ConfidentialClient?
    /// `--app-link`: partner apps' https sign-in callbacks that the host's association files must open in the app.
    public var appLinks: [String] = []
    /// `scope` on Office's authorize request (Office itself sends none; an OpenID server may need `openid`).
    public var scope: String?
    /// Empty: every group.
    public var groups: Set<CheckGroup>
    /// Accept `http` endpoints on loopback hosts (development only).
    public var allowLoopbackHTTP: Bool
    /// Set for `--manual`: shows the authorize URL to a person and returns the URL the browser was redirected to.
    public var manualSignIn: (@Sendable (_ authorizeURL: String) async -> String?)?
    /// Seconds one request may take, from connect to the last byte.
    public var timeoutSeconds: Int64
    /// Seconds the whole run may take: later requests fail at once and later checks are skipped.
    public var deadlineSeconds: Int64

    public init(
        bootstrapURL: String?, issuer: String? = nil, office: ConfidentialClient? = nil, user: User? = nil, wopiSrc: String? = nil,
        publicClient: PublicClient? = nil, groups: Set<CheckGroup> = [], allowLoopbackHTTP: Bool = false,
        manualSignIn: (@Sendable (String) async -> String?)? = nil, timeoutSeconds: Int64 = 5,
        deadlineSeconds: Int64 = 120
    ) {
        self.bootstrapURL = bootstrapURL
        self.issuer = issuer
        self.scope = issuer == nil ? nil : "openid"
        self.office = office
        self.user = user
        self.wopiSrc = wopiSrc
        self.publicClient = publicClient
        self.groups = groups
        self.allowLoopbackHTTP = allowLoopbackHTTP
        self.manualSignIn = manualSignIn
        self.timeoutSeconds = timeoutSeconds
        self.deadlineSeconds = deadlineSeconds
    }
}
