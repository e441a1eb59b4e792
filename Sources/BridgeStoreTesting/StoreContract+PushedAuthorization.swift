import BridgeStore
import Foundation
import Testing

/// Store contract: a pushed authorization request (RFC 9126) is taken once, by the client that pushed it, before it
/// expires.
enum PushedAuthorizationContract {
    static func pushed(_ secret: SecretToken, client: String = "partner-app") -> PushedAuthorizationRecord {
        PushedAuthorizationRecord(
            digest: secret.digest, clientID: client, parameters: "response_type=code&client_id=\(client)&state=s%201",
            pushedAt: t0, expiresAt: seconds(60))
    }

    static let aPushedRequestIsTakenOnce = StoreContractCheck("pushed requests: aPushedRequestIsTakenOnce") { kind in
        try await withStore(kind) { store in
            let secret = SecretToken()
            let request = pushed(secret)
            try await store.pushAuthorizationRequest(request)
            let outcome1 = try await store.takePushedAuthorizationRequest(secret.digest, clientID: "partner-app", at: seconds(1))
            #expect(outcome1 == .taken(request))
            let outcome2 = try await store.takePushedAuthorizationRequest(secret.digest, clientID: "partner-app", at: seconds(2))
            #expect(outcome2 == .used)
        }
    }

    static let anotherClientCannotTakeIt = StoreContractCheck("pushed requests: anotherClientCannotTakeIt") { kind in
        try await withStore(kind) { store in
            let secret = SecretToken()
            try await store.pushAuthorizationRequest(pushed(secret))
            let outcome3 = try await store.takePushedAuthorizationRequest(secret.digest, clientID: "office", at: seconds(1))
            #expect(outcome3 == .unknown)
            // …and trying did not use it up for its own client.
            let outcome4 = try await store.takePushedAuthorizationRequest(secret.digest, clientID: "partner-app", at: seconds(1))
            #expect(outcome4 == .taken(pushed(secret)))
        }
    }

    static let aPushedRequestExpires = StoreContractCheck("pushed requests: aPushedRequestExpires") { kind in
        try await withStore(kind) { store in
            let secret = SecretToken()
            try await store.pushAuthorizationRequest(pushed(secret))
            let outcome5 = try await store.takePushedAuthorizationRequest(secret.digest, clientID: "partner-app", at: seconds(60))
            #expect(outcome5 == .expired)
            let outcome6 = try await store.takePushedAuthorizationRequest(SecretToken().digest, clientID: "partner-app", at: t0)
            #expect(outcome6 == .unknown)
        }
    }

    static let racingTakesHaveOneWinner = StoreContractCheck("pushed requests: racingTakesHaveOneWinner") { kind in
        try await withStore(kind) { store in
            let secret = SecretToken()
            try await store.pushAuthorizationRequest(pushed(secret))
            let outcomes = try await withThrowingTaskGroup(of: PushedAuthorizationTaking.self) { group in
                for _ in 0..<8 {
                    group.addTask { try await store.takePushedAuthorizationRequest(secret.digest, clientID: "partner-app", at: seconds(1)) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.filter { if case .taken = $0 { true } else { false } }.count == 1)
            #expect(outcomes.filter { $0 == .used }.count == 7)
        }
    }

    static let all = [aPushedRequestIsTakenOnce, anotherClientCannotTakeIt, aPushedRequestExpires, racingTakesHaveOneWinner]
}
