import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

/// `make run PORT=9090` in small: the sample served with `--port` advertises that port everywhere, and a token
/// issued for the same port (`SIGNIN_BRIDGE_PORT`) is accepted.
@Suite("CLI: serve on another port")
struct ServeOnAnotherPortTests {
    /// A port the kernel says is free right now.
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRINUSE) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    @Test func theChallengeAndTheBootstrapNameThePortServedOn() async throws {
        let config = try ServerCommandsTests.temporaryConfig()
        let port = try Self.freePort()
        let (process, log) = try LogCollector.serve(["--config", config, "--port", "\(port)"])
        defer { if process.isRunning { process.terminate() } }
        for _ in 0..<200 where !log.text.contains("msg=listening") { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!log.text.contains("level=warning msg=configuration problem=issuer"), "\(log.text)")

        let base = "http://127.0.0.1:\(port)"
        let url = try #require(URL(string: "\(base)/wopibootstrapper"))
        let (_, response) = try await URLSession.shared.data(from: url)
        let challenge = try #require((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "WWW-Authenticate"))
        #expect(challenge.contains("authorization_uri=\"\(base)/oauth2/authorize\""), "\(challenge)")
        #expect(challenge.contains("tokenIssuance_uri=\"\(base)/oauth2/token\""), "\(challenge)")
        #expect(!challenge.contains(":8080"))

        let issued = try CLIRunner.run(
            ["token", "issue", "--config", config, "--user", "demo", "--client", "office"],
            environment: ["SIGNIN_BRIDGE_PORT": "\(port)"])
        #expect(issued.status == 0, "\(issued.stderr)")
        var request = URLRequest(url: url)
        request.setValue("Bearer \(issued.stdout.trimmingCharacters(in: .whitespacesAndNewlines))", forHTTPHeaderField: "Authorization")
        let (body, authorized) = try await URLSession.shared.data(for: request)
        #expect((authorized as? HTTPURLResponse)?.statusCode == 200)
        let text = String(decoding: body, as: UTF8.self)
        #expect(text.contains("\(base)/wopi/ecosystem?access_token="), "\(text)")
        request.httpMethod = "POST"
        request.setValue("GET_ROOT_CONTAINER", forHTTPHeaderField: "X-WOPI-EcosystemOperation")
        let (root, _) = try await URLSession.shared.data(for: request)
        let rootText = String(decoding: root, as: UTF8.self)
        #expect(rootText.contains("\(base)/wopi/containers/root?access_token="), "\(rootText)")
    }
}
