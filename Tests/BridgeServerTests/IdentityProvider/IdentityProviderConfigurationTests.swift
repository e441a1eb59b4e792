@testable import BridgeServer
import Foundation
import Testing

/// `identityProvider:`: defaults, environment overrides, the refusals with their key paths, the sample.
struct IdentityProviderConfigurationTests {
    static let base = """
        issuer: https://files.example.com
        listen: {host: 127.0.0.1, port: 0}
        """

    static func yaml(_ provider: String) -> String { base + "\nidentityProvider:\n" + provider }

    func problems(_ yaml: String, environment: [String: String] = [:]) -> [ConfigurationProblem] {
        do {
            _ = try ConfigurationLoader(environment: environment).load(yaml: yaml)
            return []
        } catch {
            return error.problems
        }
    }

    @Test func absentIsTheEmbeddedProvider() throws {
        let configuration = try ConfigurationLoader(environment: [:]).load(yaml: Self.base).configuration
        #expect(configuration.identityProvider == nil)
        #expect(configuration.challengeAuthorizationURI == "https://files.example.com/oauth2/authorize")
        #expect(configuration.challengeTokenIssuanceURI == "https://files.example.com/oauth2/token")
    }

    @Test func theSchemaDefaultsFillTheProvider() throws {
        let yaml = Self.yaml("""
              issuer: https://idp.example.com/realms/host
              audience: signin-bridge
              introspection: {clientId: signin-bridge, clientSecret: s3cret}
            """)
        let provider = try #require(try ConfigurationLoader(environment: [:]).load(yaml: yaml).configuration.identityProvider)
        #expect(provider.profile == .generic)
        #expect(provider.clockSkewSeconds == 60)
        #expect(provider.allowInsecureHTTP == false)
        #expect(provider.userInfo == true)
        #expect(provider.introspection?.cacheSeconds == 300)
        #expect(provider.claims == nil)
    }

    @Test func theEnvironmentSetsIssuerAndAudience() throws {
        let yaml = Self.yaml("  issuer: https://old.example.com\n  audience: old")
        let environment = [
            "SIGNIN_BRIDGE_IDENTITY_ISSUER": "https://login.microsoftonline.com/72f988bf-86f1-41af-91ab-2d7cd011db47/v2.0",
            "SIGNIN_BRIDGE_IDENTITY_AUDIENCE": "api://signin-bridge",
        ]
        let provider = try #require(try ConfigurationLoader(environment: environment).load(yaml: yaml).configuration.identityProvider)
        #expect(provider.issuer == environment["SIGNIN_BRIDGE_IDENTITY_ISSUER"])
        #expect(provider.audience == "api://signin-bridge")
    }

    @Test func anIssuerThatIsNoURLIsRefusedAtItsKeyPath() {
        let problems = problems(Self.yaml("  issuer: idp.example.com\n  audience: a"))
        #expect(problems.map(\.keyPath) == ["identityProvider.issuer"])
    }

    @Test func anHTTPIssuerNeedsAllowInsecureHTTP() {
        let refused = problems(Self.yaml("  issuer: http://127.0.0.1:8081/realms/test\n  audience: a"))
        #expect(refused.map(\.keyPath) == ["identityProvider.issuer"])
        #expect(refused.first?.message.contains("https") == true)
        #expect(problems(Self.yaml("  issuer: http://127.0.0.1:8081/realms/test\n  audience: a\n  allowInsecureHTTP: true")).isEmpty)
    }

    @Test func aJWTProfileWithoutAudienceIsRefused() {
        let refused = problems(Self.yaml("  issuer: https://idp.example.com\n  profile: keycloak"))
        #expect(refused.map(\.keyPath) == ["identityProvider.audience"])
        #expect(refused.first?.message.contains("RFC 9068") == true)
        // Opaque tokens only: introspection without an audience is a working configuration.
        #expect(problems(Self.yaml("  issuer: https://idp.example.com\n  introspection: {clientId: c, clientSecret: s}")).isEmpty)
    }

    @Test func introspectionNeedsASecret() {
        let refused = problems(Self.yaml("  issuer: https://idp.example.com\n  audience: a\n  introspection: {clientId: c}"))
        #expect(refused.map(\.keyPath) == ["identityProvider.introspection.clientSecret"])
    }

    @Test func anUnknownProfileIsRefused() {
        #expect(problems(Self.yaml("  issuer: https://idp.example.com\n  audience: a\n  profile: okta")).map(\.keyPath) == [
            "identityProvider.profile"
        ])
    }

    @Test func theUserIdClaimIsOneNameOrAList() throws {
        let one = Self.yaml("  issuer: https://idp.example.com\n  audience: a\n  claims: {userId: sub}")
        let list = Self.yaml("  issuer: https://idp.example.com\n  audience: a\n  claims: {userId: [tid, oid]}")
        let loader = ConfigurationLoader(environment: [:])
        #expect(try loader.load(yaml: one).configuration.identityProvider?.claims?.userId?.names == ["sub"])
        #expect(try loader.load(yaml: list).configuration.identityProvider?.claims?.userId?.names == ["tid", "oid"])
    }

    @Test func theSampleChecksGreen() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let loaded = try ConfigurationLoader(environment: [:]).load(file: root.appendingPathComponent("samples/external-idp.yaml").path)
        let provider = try #require(loaded.configuration.identityProvider)
        #expect(provider.profile == .keycloak)
        #expect(provider.summary.contains("upstreams:"))
        #expect(loaded.warnings.isEmpty)
    }

    @Test func theChallengeNamesTheProvidersEndpoints() throws {
        let yaml = Self.yaml("""
              issuer: https://idp.example.com/realms/host
              audience: signin-bridge
              authorizationEndpoint: https://idp.example.com/realms/host/protocol/openid-connect/auth
              tokenEndpoint: https://idp.example.com/realms/host/protocol/openid-connect/token
            """)
        let configuration = try ConfigurationLoader(environment: [:]).load(yaml: yaml).configuration
        let challenge = ChallengeResponse(configuration: configuration, securityFields: []).challenge
        #expect(challenge.authorizationURI == "https://idp.example.com/realms/host/protocol/openid-connect/auth")
        #expect(challenge.tokenIssuanceURI == "https://idp.example.com/realms/host/protocol/openid-connect/token")
        // Our own authorization server's metadata still names our own endpoints.
        #expect(configuration.authorizationURI == "https://files.example.com/oauth2/authorize")
    }

    @Test func startFillsTheChallengeFromDiscoveryAndKeepsOverrides() throws {
        let yaml = Self.yaml("""
              issuer: https://idp.example.com
              audience: signin-bridge
              tokenEndpoint: https://proxy.example.com/token
            """)
        let configuration = try ConfigurationLoader(environment: [:]).load(yaml: yaml).configuration
        var settings = try #require(configuration.identityProvider)
        let document = ProviderMetadata(
            issuer: "https://idp.example.com", authorizationEndpoint: "https://idp.example.com/authorize",
            tokenEndpoint: "https://idp.example.com/oauth/token", jwksURI: "https://idp.example.com/.well-known/jwks.json")
        let filled = try IdentityProviderStartup.filled(configuration, &settings, from: document)
        #expect(filled.challengeAuthorizationURI == "https://idp.example.com/authorize")
        #expect(filled.challengeTokenIssuanceURI == "https://proxy.example.com/token")
        var plain = try #require(configuration.identityProvider)
        plain.tokenEndpoint = nil
        let insecure = ProviderMetadata(
            issuer: "https://idp.example.com", authorizationEndpoint: "http://idp.example.com/authorize", tokenEndpoint: nil)
        #expect(throws: ConfigurationError.self) { try IdentityProviderStartup.filled(configuration, &plain, from: insecure) }
    }

    @Test func discoveryLooksAtOpenIDThenRFC8414() throws {
        let configuration = try ConfigurationLoader(environment: [:])
            .load(yaml: Self.yaml("  issuer: https://idp.example.com/tenant/\n  audience: a")).configuration
        #expect(IdentityProviderDiscovery.candidateURLs(for: try #require(configuration.identityProvider)) == [
            "https://idp.example.com/tenant/.well-known/openid-configuration",
            "https://idp.example.com/.well-known/oauth-authorization-server/tenant",
        ])
    }
}
