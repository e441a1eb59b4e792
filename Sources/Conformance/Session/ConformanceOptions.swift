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

    public var bootstrapURL: String
    public var office: ConfidentialClient?
    public var user: User?
    /// A WopiSrc the host serves, for `GET_NEW_ACCESS_TOKEN`.
    public var wopiSrc: String?
    public var publicClient: PublicClient?
    /// Empty: every group.
    public var groups: Set<CheckGroup>
    /// Accept `http` endpoints on loopback hosts (development only).
    public var allowLoopbackHTTP: Bool
    /// Set for `--manual`: shows the authorize URL to a person and returns the URL the browser was redirected to.
    public var manualSignIn: (@Sendable (_ authorizeURL: String) async -> String?)?
    public var timeoutSeconds: Int64

    public init(
        bootstrapURL: String, office: ConfidentialClient? = nil, user: User? = nil, wopiSrc: String? = nil,
        publicClient: PublicClient? = nil, groups: Set<CheckGroup> = [], allowLoopbackHTTP: Bool = false,
        manualSignIn: (@Sendable (String) async -> String?)? = nil, timeoutSeconds: Int64 = 20
    ) {
        self.bootstrapURL = bootstrapURL
        self.office = office
        self.user = user
        self.wopiSrc = wopiSrc
        self.publicClient = publicClient
        self.groups = groups
        self.allowLoopbackHTTP = allowLoopbackHTTP
        self.manualSignIn = manualSignIn
        self.timeoutSeconds = timeoutSeconds
    }
}
