import BridgeStore
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SignInProtocol
import Testing

@testable import BridgeServer
@testable import BridgeStoreSQLite

/// What the browser half answers when the store fails, over real sockets: an outage is 503 with `Retry-After`
/// (RFC 9110 §15.6.4), a fault of the server's own is 500 and never says the store is unavailable. The failures are
/// the database's own: a trigger that aborts the write (a driver error the store does not classify, as a busy or
/// broken database gives), and a trigger that writes a dangling row, which the store reports as
/// `StoreError.missingReference`.
@Suite("Store failures in the browser half")
struct StoreFailureAnswerTests {
    /// Aborts every write to `table`, as a database that cannot take it would.
    static func abortWrites(to table: String, _ bridge: TestBridge) async throws {
        try await bridge.store.transaction("test outage") { tx in
            try tx.query("CREATE TRIGGER outage BEFORE INSERT ON \(table) BEGIN SELECT RAISE(ABORT, 'outage'); END")
            try tx.query("CREATE TRIGGER outage_update BEFORE UPDATE ON \(table) BEGIN SELECT RAISE(ABORT, 'outage'); END")
        }
    }

    /// Makes every write to `table` also write an access token of a grant that does not exist: a foreign key fails.
    static func danglingReference(on table: String, _ bridge: TestBridge) async throws {
        let dangling = "INSERT INTO access_tokens (token_id, grant_id, issued_at, expires_at) VALUES ('t', 'no-grant', 0, 0)"
        try await bridge.store.transaction("test dangling reference") { tx in
            try tx.query("CREATE TRIGGER dangling AFTER INSERT ON \(table) BEGIN \(dangling); END")
            try tx.query("CREATE TRIGGER dangling_update AFTER UPDATE ON \(table) BEGIN \(dangling); END")
        }
    }

    @Test func theRuleCallsUnavailableAndClosedAndDriverErrorsOutagesButNotTheServersOwnFaults() {
        struct DriverError: Error {}
        #expect(StoreUnavailable(classifying: StoreError.unavailable(reason: "no connection")) != nil)
        #expect(StoreUnavailable(classifying: StoreError.closed) != nil)
        #expect(StoreUnavailable(classifying: DriverError()) != nil)
        #expect(StoreUnavailable(classifying: StoreError.missingReference(what: "the grant")) == nil)
        #expect(StoreUnavailable(classifying: StoreError.duplicate(what: "the token")) == nil)
        #expect(StoreUnavailable(classifying: CancellationError()) == nil)
        #expect(StoreUnavailable(classifying: StoreColumnError(column: "expires_at")) == nil)
    }

    @Test func anOutageWhileSigningInIsTheOutagePageWithRetryAfter() async throws {
        let bridge = try await AuthorizeFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let browser = TestBrowser(client)
            let signInPage = try await browser.get("/oauth2/authorize?" + AuthorizeFixture.officeQuery)
            #expect(signInPage.status == .ok)
            try await Self.abortWrites(to: "sessions", bridge)
            let answer = try await browser.signIn(on: signInPage)
            #expect(answer.status == .serviceUnavailable)
            #expect(answer.headers[.retryAfter] == StoreOutage.retryAfterSeconds)
            #expect(answer.body.contains("Sign-in is unavailable for a moment"))
        }
    }

    /// `StoreError.closed` (a server shutting down) is an outage too.
    @Test func aClosedStoreWhileSigningInIsTheOutagePage() async throws {
        let bridge = try await AuthorizeFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let browser = TestBrowser(client)
            let signInPage = try await browser.get("/oauth2/authorize?" + AuthorizeFixture.officeQuery)
            #expect(signInPage.status == .ok)
            try await bridge.store.close()
            let answer = try await browser.signIn(on: signInPage)
            #expect(answer.status == .serviceUnavailable)
            #expect(answer.headers[.retryAfter] == StoreOutage.retryAfterSeconds)
        }
    }

    @Test func aStoreFaultThatIsNoOutageWhileSigningInIsA500ThatSaysNothingOfAnOutage() async throws {
        let bridge = try await AuthorizeFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let browser = TestBrowser(client)
            let signInPage = try await browser.get("/oauth2/authorize?" + AuthorizeFixture.officeQuery)
            #expect(signInPage.status == .ok)
            try await Self.danglingReference(on: "sessions", bridge)
            let answer = try await browser.signIn(on: signInPage)
            #expect(answer.status == .internalServerError)
            #expect(answer.headers[.retryAfter] == nil)
            #expect(!answer.body.lowercased().contains("unavailable"))
            #expect(!answer.body.contains("no-grant"))
        }
    }

    /// The host's app deciding a parked request (`POST /oauth2/app-to-app/decision`), the store failing as it writes.
    func decideWhileTheStoreFails(
        _ failure: @escaping @Sendable (TestBridge) async throws -> Void, then check: @escaping @Sendable (TestResponse) -> Void
    ) async throws {
        let bridge = try await OpenIDFixture.make()
        try await bridge.app.makeApplication().test(.live) { client in
            let token = try await AppToAppFlowTests.hostAppToken(client)
            let parked = try await TestBrowser(client).get("/oauth2/authorize?" + AppToAppFlowTests.merchantQuery())
            let reference = try AppToAppFlowTests.reference(in: parked)
            try await failure(bridge)
            check(try await AppToAppFlowTests.decide(client, token: token, reference: reference, .approve))
        }
    }

    @Test func anOutageWhileTheHostAppDecidesIsTemporarilyUnavailableWithRetryAfter() async throws {
        try await decideWhileTheStoreFails({ try await Self.abortWrites(to: "app_to_app_requests", $0) }) { answer in
            #expect(answer.status == .serviceUnavailable)
            #expect(answer.headers[.retryAfter] == StoreOutage.retryAfterSeconds)
            #expect(String(buffer: answer.body).contains(#""error":"temporarily_unavailable""#))
        }
    }

    @Test func aStoreFaultThatIsNoOutageWhileTheHostAppDecidesIsServerError() async throws {
        try await decideWhileTheStoreFails({ try await Self.danglingReference(on: "app_to_app_requests", $0) }) { answer in
            #expect(answer.status == .internalServerError)
            #expect(answer.headers[.retryAfter] == nil)
            let body = String(buffer: answer.body)
            #expect(body.contains(#""error":"server_error""#))
            #expect(!body.contains("unavailable"))
            #expect(!body.contains("no-grant"))
        }
    }
}
