@testable import BridgeServer
import Foundation
import Testing

/// Which server answers `EcosystemUrl`, as `serve` routes it and `config check` says it.
@Suite("Ecosystem host")
struct EcosystemHostTests {
    static func load(_ yaml: String) throws -> LoadedConfiguration {
        try ConfigurationLoader(environment: [:]).load(yaml: yaml)
    }

    @Test func theDerivedDefaultIsServedBySignInBridge() throws {
        let loaded = try Self.load("issuer: https://files.example.com/bridge\nlisten: {host: 127.0.0.1, port: 8080}\n")
        let host = EcosystemHost(configuration: loaded.configuration)
        #expect(host == .signInBridge(url: "https://files.example.com/bridge/wopi/ecosystem"))
        #expect(host.summary.contains("served by SignInBridge at https://files.example.com/bridge/wopi/ecosystem"))
        #expect(!loaded.warnings.contains { $0.keyPath == "wopi.ecosystemUrlTemplate" })
    }

    @Test func theSameURLWrittenOutWithAnotherCaseOrPortIsStillOurs() throws {
        let loaded = try Self.load("""
            issuer: https://files.example.com
            wopi: {ecosystemUrlTemplate: "https://FILES.example.com:443/wopi/ecosystem?access_token={access_token}&x=1"}
            """)
        #expect(EcosystemHost(configuration: loaded.configuration).servedBySignInBridge)
    }

    @Test func anotherOriginIsTheHostsWOPIServer() throws {
        let loaded = try Self.load("""
            issuer: https://files.example.com
            wopi: {ecosystemUrlTemplate: "https://wopi.example.com/wopi/ecosystem?access_token={access_token}"}
            """)
        let host = EcosystemHost(configuration: loaded.configuration)
        #expect(host == .hostWOPIServer(url: "https://wopi.example.com/wopi/ecosystem"))
        #expect(host.summary.contains("the host's own WOPI server at https://wopi.example.com/wopi/ecosystem"))
        #expect(!loaded.warnings.contains { $0.keyPath == "wopi.ecosystemUrlTemplate" })
    }

    @Test func anotherPathOnOurOriginIsServedByNobodyAndWarned() throws {
        let loaded = try Self.load("""
            issuer: https://files.example.com
            wopi: {ecosystemUrlTemplate: "https://files.example.com/api/wopi/ecosystem?access_token={access_token}"}
            """)
        #expect(!EcosystemHost(configuration: loaded.configuration).servedBySignInBridge)
        let warning = try #require(loaded.warnings.first { $0.keyPath == "wopi.ecosystemUrlTemplate" })
        #expect(warning.message.contains("https://files.example.com/wopi/ecosystem"))
    }

    @Test func containersAreSupportedUnlessConfigured() throws {
        #expect(try Self.load("issuer: https://files.example.com\n").configuration.wopi.ecosystem.supportsContainers)
        let off = try Self.load("issuer: https://files.example.com\nwopi: {ecosystem: {supportsContainers: false}}\n")
        #expect(!off.configuration.wopi.ecosystem.supportsContainers)
    }
}
