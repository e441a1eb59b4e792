import BridgeServer
import Testing

/// Every key a configuration may leave out, with the value it then has: the contract of the defaults, whichever
/// code supplies them.
@Suite("Configuration: defaults")
struct ConfigurationDefaultsTests {
    /// Only what the schema requires: one confidential client and one upstream, nothing else.
    static let minimal = """
        clients:
          - id: web
            secretHash: sha256:6e15e3912e04b1b7a42a4b562c390a7054a80b3092cc2283c9e74dd9eada34b7
            redirectUris: [https://app.example/cb]
            grants: [authorization_code]
        upstreams:
          - {id: idp, name: IdP, issuer: https://idp.example, clientId: bridge}
        """

    static func load(_ yaml: String) throws -> BridgeConfiguration {
        try ConfigurationLoader(environment: [:]).load(yaml: yaml).configuration
    }

    @Test func topLevelSectionsGetTheirDefaults() throws {
        let c = try Self.load(Self.minimal)
        #expect(c.issuer == "http://127.0.0.1:8080")
        #expect(c.listen.host == "127.0.0.1")
        #expect(c.listen.port == 8080)
        #expect(c.listen.trustedProxies.isEmpty)
        #expect(c.store.sqlite.path == "data/bridge.sqlite")
        #expect(c.store.sqlite.durability == "normal")
        #expect(c.store.postgres == nil)
        #expect(c.store.purgeIntervalSeconds == 600)
        #expect(c.signingKeys.file == "data/signing-keys.json")
        #expect(c.signingKeys.publishBeforeSigningSeconds == 86400)
        #expect(c.log.level == "info")
        #expect(c.log.format == "logfmt")
        #expect(c.log.requests == true)
        #expect(c.limits.maxBodyBytes == 65536)
        #expect(c.limits.maxHeaderValueBytes == 8192)
        #expect(c.limits.idleTimeoutSeconds == 60)
        #expect(c.tokens.accessTokenLifetimeSeconds == 3600)
        #expect(c.tokens.refreshTokenLifetimeSeconds == 7_776_000)
        #expect(c.tokens.refreshReuseGraceSeconds == 0)
        #expect(c.tokens.statusCacheMilliseconds == 1000)
        #expect(c.authorize.codeLifetimeSeconds == 60)
        #expect(c.authorize.requestLifetimeSeconds == 900)
        #expect(c.authorize.allowPlainPKCE == false)
        #expect(c.exchange.codeLifetimeSeconds == 30)
        #expect(c.exchange.sessionLifetimeSeconds == 60)
        #expect(c.appToApp.referenceLifetimeSeconds == 300)
        #expect(c.appToApp.deepLink == nil)
        #expect(c.appToAppDeepLink == "http://127.0.0.1:8080/app-to-app")
        #expect(c.signIn.sessionLifetimeSeconds == 28800)
        #expect(c.signIn.bcryptCost == 12)
        #expect(c.signIn.throttle.maxFailures == 5)
        #expect(c.signIn.throttle.windowSeconds == 900)
        #expect(c.office.resourceMetadata == false)
        #expect(c.office.urlSchemes == nil)
        #expect(c.authorizationURI == "http://127.0.0.1:8080/oauth2/authorize")
        #expect(c.tokenIssuanceURI == "http://127.0.0.1:8080/oauth2/token")
        #expect(c.wopi.accessTokenLifetimeSeconds == 36000)
        #expect(c.wopi.ecosystemUrlTemplate == "http://127.0.0.1:8080/wopi/ecosystem?access_token={access_token}")
        #expect(c.wopi.rootContainer.name == "Files")
        #expect(c.wopi.rootContainer.urlTemplate == "http://127.0.0.1:8080/wopi/containers/root?access_token={access_token}")
        #expect(c.wopi.wopiSrcPrefixes == ["http://127.0.0.1:8080/wopi/files/"])
        #expect(c.users.isEmpty)
        #expect(c.broker.clientId == nil)
        #expect(c.broker.sessionLifetimeSeconds == 180)
        #expect(c.broker.loginLifetimeSeconds == 600)
        #expect(c.partnerApps == nil)
    }

    @Test func aClientGetsItsDefaults() throws {
        let client = try #require(try Self.load(Self.minimal).clients.first)
        #expect(client.public == false)
        #expect(client.profile == .strict)
        #expect(client.sessionContext == false)
        #expect(client.firstParty == false)
        #expect(client.requireNonce == false)
        #expect(client.idTokenSignedResponseAlg == .rs256)
        #expect(client.scopes == ["wopi"])
        #expect(client.displayName == "web")
    }

    @Test func anUpstreamGetsItsDefaults() throws {
        let upstream = try #require(try Self.load(Self.minimal).upstreams.first)
        #expect(upstream.scopes == ["openid", "profile", "email"])
        #expect(upstream.appToApp == false)
        #expect(upstream.linkByVerifiedEmail == false)
        #expect(upstream.timeoutSeconds == 10)
        #expect(upstream.claims.name == "name")
        #expect(upstream.claims.email == "email")
        #expect(upstream.claims.emailVerified == "email_verified")
        #expect(upstream.claims.phoneNumber == "phone_number")
    }

    @Test func aWrittenPostgresStoreGetsItsPoolDefaults() throws {
        let c = try Self.load(Self.minimal + "\nstore: {postgres: {url: postgres://bridge@db.internal/bridge}}\n")
        let postgres = try #require(c.store.postgres)
        #expect(postgres.maxConnections == 10)
        #expect(postgres.connectTimeoutMilliseconds == 5000)
        #expect(c.store.sqlite.path == "data/bridge.sqlite")
    }

    @Test func writtenValuesWinOverDefaults() throws {
        let c = try Self.load(
            Self.minimal + """

                listen: {port: 9090}
                signIn: {throttle: {maxFailures: 3}}
                """)
        #expect(c.listen.port == 9090)
        #expect(c.listen.host == "127.0.0.1")
        #expect(c.signIn.throttle.maxFailures == 3)
        #expect(c.signIn.throttle.windowSeconds == 900)
        #expect(c.issuer == "http://127.0.0.1:9090")
    }
}
