import Foundation

/// RFC 6749 §5.1: "The authorization server MUST include the HTTP Cache-Control response header field with a value
/// of no-store in any response containing tokens".
struct NoStoreCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "token.no-store", group: .token, level: .must, source: .rfc(6749, "§5.1", "Successful Response"),
        summary: "The token response has Cache-Control: no-store")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let exchange = try await session.officeTokens().orSkip()
        guard exchange.response.status == 200 else { return .skip("the code redemption answered \(exchange.summary)") }
        let directives = exchange.response.values("Cache-Control").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        return directives.contains("no-store") ? .pass("Cache-Control: no-store") : .fail("Cache-Control lacks no-store")
    }
}
