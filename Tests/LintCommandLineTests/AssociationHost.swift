import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTLS
import HummingbirdTesting
import NIOSSL
import Testing

/// A host serving association files over TLS on a free loopback port, each answer set by the test: the fixture
/// `lint --fetch` is pointed at.
struct AssociationHost {
    struct Answer: Sendable {
        var status: HTTPResponse.Status = .ok
        var headers: HTTPFields = [.contentType: "application/json"]
        var body: String
    }

    /// By file name (`assetlinks.json`, `apple-app-site-association`); anything else is a 404.
    var answers: [String: Answer]

    /// Runs the host for the duration of `body`, which gets the `https://127.0.0.1:PORT` origin.
    func serve<T: Sendable>(with authority: TestCertificateAuthority, _ body: @Sendable (String) async throws -> T) async throws -> T {
        let router = Router()
        let answers = self.answers
        router.get("/.well-known/:file") { _, context -> Response in
            guard let file = context.parameters.get("file"), let answer = answers[file] else {
                return Response(status: .notFound, headers: [.contentType: "text/html"], body: .init(byteBuffer: ByteBuffer(string: "<h1>Not found</h1>")))
            }
            return Response(status: answer.status, headers: answer.headers, body: .init(byteBuffer: ByteBuffer(string: answer.body)))
        }
        let tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: authority.serverChain.map { .certificate($0) }, privateKey: .privateKey(authority.serverKey))
        let app = Application(
            router: router, server: try .tls(.http1(), tlsConfiguration: tls),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        return try await app.test(.live) { client in
            try await body("https://127.0.0.1:\(try #require(client.port))")
        }
    }
}
