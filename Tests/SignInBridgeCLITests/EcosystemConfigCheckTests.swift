import Foundation
import Testing

/// `config check` says which server answers the bootstrap's `EcosystemUrl`, as `serve` routes it.
@Suite("CLI: config check names the ecosystem host")
struct EcosystemConfigCheckTests {
    @Test func theSampleIsServedBySignInBridge() throws {
        let result = try CLIRunner.run("config", "check", ServerCommandsTests.sample)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains("the WOPI ecosystem (CheckEcosystem, GetRootContainer) is served by SignInBridge at "
                + "http://127.0.0.1:8080/wopi/ecosystem"), "\(result.stdout)")
    }

    @Test func anotherOriginIsTheHostsWOPIServer() throws {
        let path = try ServerCommandsTests.temporaryConfig {
            $0.replacingOccurrences(
                of: "  # ecosystemUrlTemplate: <issuer>/wopi/ecosystem?access_token={access_token}",
                with: "  ecosystemUrlTemplate: \"https://wopi.example.com/wopi/ecosystem?access_token={access_token}\"")
        }
        let result = try CLIRunner.run("config", "check", path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.contains("the WOPI ecosystem is the host's own WOPI server at https://wopi.example.com/wopi/ecosystem"),
            "\(result.stdout)")
    }
}
