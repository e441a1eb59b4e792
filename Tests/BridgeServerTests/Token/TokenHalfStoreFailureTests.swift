import BridgeStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SignInProtocol
import Testing

@testable import BridgeServer
@testable import BridgeStoreSQLite

/// What the token half answers when a store read or write fails, over real sockets: an outage is 503 with
/// `Retry-After` (RFC 9110 §15.6.4); a fault of the server's own is 500 (§15.6.1), which trying again cannot mend, so
/// it neither says the store is unavailable nor refuses the token. The faults are the database's own: a column that
/// holds what no build of the store writes, and a write that leaves a dangling reference.
@Suite("Store failures in the token half")
struct TokenHalfStoreFailureTests {
    /// Puts text where the store keeps milliseconds, as an edit of the database outside the server would: reading
    /// the row is then a `StoreColumnError`.
    static func corrupt(_ column: String, of table: String, _ bridge: TestBridge) async throws {
        try await bridge.store.transaction("test corrupt column") { tx in
            try tx.query("UPDATE \(table) SET \(column) = 'not a time'")
        }
    }

    static func expectServerFault(_ response: TestResponse, _ comment: Comment? = nil) {
        #expect(response.status == .internalServerError, comment)
        #expect(response.headers[.retryAfter] == nil, comment)
        #expect(!String(buffer: response.body).lowercased().contains("unavailable"), comment)
    }

    @Test func aBootstrapWhoseTokenRowCannotBeReadIsA500NotAnOutageNorAChallenge() async throws {
        let bridge = try await TestBridge.makeForTokens()
        try await bridge.app.makeApplication().test(.live) { client in
            let (access, _) = try await RevocationAndIntrospectionTests.officeTokens(bridge, client)
            try await Self.corrupt("expires_at", of: "access_tokens", bridge)
            let answer = try await client.executeRequest(
                uri: "/wopibootstrapper", method: .get, headers: [.authorization: "Bearer \(access)"], body: nil)
            Self.expectServerFault(answer)
            #expect(answer.headers[.wwwAuthenticate] == nil)
        }
    }

    /// The other side of the rule: a closed store is an outage, 503 with `Retry-After`.
    @Test func aBootstrapWhileTheStoreIsClosedIsTheOutage() async throws {
        let bridge = try await TestBridge.makeForTokens()
        try await bridge.app.makeApplication().test(.live) { client in
            let (access, _) = try await RevocationAndIntrospectionTests.officeTokens(bridge, client)
            try await bridge.store.close()
            let answer = try await client.executeRequest(
                uri: "/wopibootstrapper", method: .get, headers: [.authorization: "Bearer \(access)"], body: nil)
            #expect(answer.status == .serviceUnavailable)
            #expect(answer.headers[.retryAfter] == StoreOutage.retryAfterSeconds)
        }
    }

    /// RFC 7662 §2.2 answers `active` from the store; a row it cannot read is `server_error`, not `{"active":false}`
    /// (which would tell the caller a good token is dead) and not `temporarily_unavailable`.
    @Test func introspectingATokenWhoseRowCannotBeReadIsServerError() async throws {
        let bridge = try await TestBridge.makeForTokens()
        try await bridge.app.makeApplication().test(.live) { client in
            let (access, _) = try await RevocationAndIntrospectionTests.officeTokens(bridge, client)
            try await Self.corrupt("issued_at", of: "access_tokens", bridge)
            let answer = try await client.postForm(
                "/oauth2/introspect", ["token": access], basic: RevocationAndIntrospectionTests.office)
            Self.expectServerFault(answer.response)
            #expect(answer.error == "server_error")
        }
    }

    /// RFC 9449 §11.1's replay check is a store write; one that fails for a reason of the server's own is
    /// `server_error`, never a pass and never an outage.
    @Test func aDPoPProofWhoseReplayRecordFailsIsServerError() async throws {
        let bridge = try await TestBridge.makeForTokens()
        try await StoreFailureAnswerTests.danglingReference(on: "dpop_proofs", bridge)
        try await bridge.app.makeApplication().test(.live) { client in
            let proof = DPoPProofMaker().proof(uri: DPoPTokenEndpointTests.tokenURL, iat: bridge.clock.now)
            let answer = try await DPoPTokenEndpointTests.partnerTokens(bridge, client, proof: proof)
            Self.expectServerFault(answer.response)
            #expect(answer.error == "server_error")
        }
    }
}
