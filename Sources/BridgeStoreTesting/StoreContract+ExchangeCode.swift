import BridgeStore
import Foundation
import Testing

/// Store contract: the exchange-code step (`issueExchangeCode`), whose code then follows every single-use rule of
/// an authorization code.
enum ExchangeCodeContract {
    /// A code for client "backend" with no redirect URI and no PKCE challenge, as the exchange endpoint issues one.
    static func exchange(_ secret: SecretToken, expiresAt: Date = seconds(30)) -> (AuthorizationCodeRecord, GrantRecord) {
        let grant = GrantRecord(userID: "alice", clientID: "backend", scope: "wopi", createdAt: t0)
        let code = AuthorizationCodeRecord(
            digest: secret.digest, grantID: grant.id, clientID: "backend", redirectURI: "", scope: "wopi",
            issuedAt: t0, expiresAt: expiresAt)
        return (code, grant)
    }

    static let exchangeCodeCreatesItsGrantAndRedeemsOnce = StoreContractCheck(
        "exchange codes: exchangeCodeCreatesItsGrantAndRedeemsOnce"
    ) { kind in
        try await withStore(kind) { store in
            let secret = SecretToken()
            let (code, grant) = exchange(secret)
            try await store.issueExchangeCode(code, in: grant)
            #expect(try await store.grant(id: grant.id) == grant)
            #expect(try await store.redeemAuthorizationCode(secret.digest, at: seconds(29)) == .redeemed(code, grant))
            #expect(try await store.redeemAuthorizationCode(secret.digest, at: seconds(29)) == .replayed(grant.id))
        }
    }

    static let exchangeCodeExpires = StoreContractCheck("exchange codes: exchangeCodeExpires") { kind in
        try await withStore(kind) { store in
            let secret = SecretToken()
            let (code, grant) = exchange(secret)
            try await store.issueExchangeCode(code, in: grant)
            #expect(try await store.redeemAuthorizationCode(secret.digest, at: seconds(30)) == .expired)
        }
    }

    static let exchangeCodeIsAllOrNothing = StoreContractCheck("exchange codes: exchangeCodeIsAllOrNothing") { kind in
        try await withStore(kind) { store in
            let secret = SecretToken()
            let (code, grant) = exchange(secret)
            try await store.issueExchangeCode(code, in: grant)
            // The same code digest again, in a new grant: refused, and the new grant is not left behind.
            var (again, otherGrant) = exchange(secret)
            again.grantID = otherGrant.id
            otherGrant.userID = "bob"
            await #expect(throws: StoreError.self) { try await store.issueExchangeCode(again, in: otherGrant) }
            #expect(try await store.grant(id: otherGrant.id) == nil)
        }
    }

    static func sessionCode(_ secret: SecretToken, expiresAt: Date = seconds(60)) -> SessionExchangeCodeRecord {
        SessionExchangeCodeRecord(
            digest: secret.digest, userID: "alice", clientID: "web", redirectURI: "https://web.example/home",
            issuedAt: t0, expiresAt: expiresAt)
    }

    static let sessionCodeOpensOnceAndCreatesTheSession = StoreContractCheck(
        "exchange codes: sessionCodeOpensOnceAndCreatesTheSession"
    ) { kind in
        try await withStore(kind) { store in
            let secret = SecretToken()
            let code = sessionCode(secret)
            try await store.issueSessionCode(code)
            let cookie = SecretToken().digest
            var opened = code
            opened.usedAt = seconds(10)
            #expect(
                try await store.openSessionCode(secret.digest, session: cookie, sessionExpiresAt: seconds(100), at: seconds(10))
                    == .opened(opened))
            #expect(
                try await store.activeSession(cookie, at: seconds(11))
                    == SessionRecord(digest: cookie, userID: "alice", createdAt: seconds(10), expiresAt: seconds(100)))
            let second = SecretToken().digest
            #expect(
                try await store.openSessionCode(secret.digest, session: second, sessionExpiresAt: seconds(100), at: seconds(12))
                    == .replayed)
            #expect(try await store.activeSession(second, at: seconds(13)) == nil)
        }
    }

    static let sessionCodeIsRefusedWhenExpiredOrUnknown = StoreContractCheck(
        "exchange codes: sessionCodeIsRefusedWhenExpiredOrUnknown"
    ) { kind in
        try await withStore(kind) { store in
            let secret = SecretToken()
            try await store.issueSessionCode(sessionCode(secret, expiresAt: seconds(60)))
            let cookie = SecretToken().digest
            #expect(
                try await store.openSessionCode(secret.digest, session: cookie, sessionExpiresAt: seconds(100), at: seconds(60))
                    == .expired)
            #expect(try await store.activeSession(cookie, at: seconds(61)) == nil)
            #expect(
                try await store.openSessionCode(SecretToken().digest, session: cookie, sessionExpiresAt: seconds(100), at: t0)
                    == .unknown)
            await #expect(throws: StoreError.self) { try await store.issueSessionCode(sessionCode(secret)) }
        }
    }

    static let concurrentOpeningsGiveExactlyOneSession = StoreContractCheck(
        "exchange codes: concurrentOpeningsGiveExactlyOneSession"
    ) { kind in
        try await withStore(kind) { store in
            let secret = SecretToken()
            try await store.issueSessionCode(sessionCode(secret))
            let outcomes = try await withThrowingTaskGroup(of: SessionCodeOpening.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        try await store.openSessionCode(
                            secret.digest, session: SecretToken().digest, sessionExpiresAt: seconds(100), at: seconds(1))
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.filter { if case .opened = $0 { true } else { false } }.count == 1)
            #expect(outcomes.filter { $0 == .replayed }.count == 7)
        }
    }

    static let all: [StoreContractCheck] = [
        exchangeCodeCreatesItsGrantAndRedeemsOnce, exchangeCodeExpires, exchangeCodeIsAllOrNothing,
        sessionCodeOpensOnceAndCreatesTheSession, sessionCodeIsRefusedWhenExpiredOrUnknown,
        concurrentOpeningsGiveExactlyOneSession,
    ]
}
