import Foundation
import SignInProtocol
import Testing

@testable import BridgeServer

/// The registries the token endpoint and the interaction read: one list each, and everything that names grants
/// agrees with it.
@Suite("Grant and interaction registries")
struct ExtensionPointTests {
    @Test func theRegistryHoldsTheFourGrantsOnceEach() {
        #expect(
            GrantRegistry.grantTypes == [
                "authorization_code", "refresh_token", "client_credentials",
                "urn:ietf:params:oauth:grant-type:token-exchange",
            ])
        #expect(Set(GrantRegistry.grantTypes).count == GrantRegistry.handlerTypes.count)
        // Every kind the configuration can name has its handler, in the same order.
        #expect(GrantRegistry.handlerTypes.map { $0.grant } == GrantKind.allCases)
    }

    @Test func theConfigurationSchemaAllowsExactlyTheRegisteredGrants() throws {
        let schema = try #require(
            try JSONSerialization.jsonObject(with: Data(ConfigurationLoader.schemaText.utf8)) as? [String: Any])
        let properties = schema["properties"] as? [String: Any]
        let clients = (properties?["clients"] as? [String: Any])?["items"] as? [String: Any]
        let grants = ((clients?["properties"] as? [String: Any])?["grants"] as? [String: Any])?["items"] as? [String: Any]
        #expect(grants?["enum"] as? [String] == GrantRegistry.grantTypes)
    }

    @Test func theMetadataListsTheRegistry() throws {
        let configuration = try ConfigurationLoader(environment: [:]).load(yaml: OpenIDFixture.yaml).configuration
        #expect(AuthorizationServerMetadata(configuration: configuration).grant_types_supported == GrantRegistry.grantTypes)
    }

    @Test(arguments: [
        ("password", "unsupported_grant_type"), ("urn:ietf:params:oauth:grant-type:jwt-bearer", "unsupported_grant_type"),
        ("client_credentials", "unauthorized_client"),
    ])
    func thePerClientCheckReadsTheRegistry(grantType: String, error: String) throws {
        let configuration = try ConfigurationLoader(environment: [:]).load(yaml: OpenIDFixture.yaml).configuration
        let client = try #require(configuration.clients.first)
        do throws(OAuthError) {
            try CheckGrantTypeAllowed.check(grantType, for: client)
            Issue.record("accepted")
        } catch let refusal {
            #expect(refusal.code.rawValue == error)
        }
    }

    @Test func theInteractionAsksTheFinishStepFirstAndSignInBeforeConsent() {
        #expect(AuthorizeRegistryTests.stepOrder == ["FinishStep", "UpstreamSignInStep", "AppToAppWaitStep", "SignInStep", "ConsentStep"])
    }
}

/// The configuration rules of the app-to-app clients.
@Suite("App-to-app configuration")
struct AppToAppConfigurationTests {
    static func problems(_ yaml: String) -> [String] {
        do {
            _ = try ConfigurationLoader(environment: [:]).load(yaml: yaml)
            return []
        } catch {
            return ["\(error)"]
        }
    }

    @Test(arguments: [
        (
            ConfigurationBuilder.openIDFixture.client("merchant-app", setting: "appToAppApprovers", to: ["nobody"]),
            "clients[1].appToAppApprovers[0]: names no configured client \"nobody\""
        ),
        (
            ConfigurationBuilder.openIDFixture.client("merchant-app", setting: "appToAppApprovers", to: ["merchant-app"]),
            "clients[1].appToAppApprovers[0]: \"merchant-app\" must be a first-party client"
        ),
        (
            ConfigurationBuilder.openIDFixture.removing("clients[merchant-app].appCallbackUris"),
            "clients[1].appCallbackUris: app-to-app needs both appCallbackUris and appToAppApprovers"
        ),
    ])
    func approversMustBeConfiguredFirstPartyClientsAndComeWithCallbackURIs(edited: ConfigurationBuilder, message: String) throws {
        #expect(Self.problems(OpenIDFixture.yaml).isEmpty)
        let problems = Self.problems(try edited.yaml())
        #expect(problems.contains { $0.contains(message) }, "\(problems)")
    }
}
