import BridgeStore
import Foundation
import Testing

/// Store contract: the step of a grant that starts with its token response (client credentials, token exchange):
/// the grant and its access token, both or neither, in one call.
enum NewGrantStepContract {
    static func token(_ id: String, in grant: GrantID) -> AccessTokenRecord {
        AccessTokenRecord(tokenID: id, grantID: grant, issuedAt: t0, expiresAt: seconds(300))
    }

    static let grantAndTokenAreRecordedInOneCall = StoreContractCheck(
        "new grant step: the grant and its access token are recorded in one call"
    ) { kind in
        try await withStore(kind) { store in
            let grant = GrantRecord(userID: "", clientID: "backend", scope: "files.read", createdAt: t0)
            let access = token("jti", in: grant.id)
            let before = store.roundTrips
            try await store.createGrant(grant, withAccessToken: access)
            #expect(store.roundTrips - before == 1)
            #expect(try await store.grant(id: grant.id) == grant)
            #expect(try await store.accessTokenStatus(tokenID: "jti", at: seconds(1)) == .active(access, grant))
        }
    }

    static let aRefusedStepRecordsNothing = StoreContractCheck(
        "new grant step: a duplicate grant, a duplicate token or a token of another grant records nothing"
    ) { kind in
        try await withStore(kind) { store in
            let existing = try await makeGrant(in: store)
            try await store.recordAccessToken(token("taken", in: existing.id))
            // The grant exists already: no token is recorded.
            await #expect(throws: StoreError.duplicate(what: "grant \(existing.id)")) {
                try await store.createGrant(existing, withAccessToken: token("new", in: existing.id))
            }
            #expect(try await store.accessTokenStatus(tokenID: "new", at: seconds(1)) == .unknown)
            // The token id is taken: the grant is rolled back.
            let fresh = GrantRecord(userID: "", clientID: "backend", createdAt: t0)
            await #expect(throws: StoreError.duplicate(what: "access token taken")) {
                try await store.createGrant(fresh, withAccessToken: token("taken", in: fresh.id))
            }
            #expect(try await store.grant(id: fresh.id) == nil)
            // A token in a grant that does not exist: refused, and the step's grant is rolled back.
            await #expect(throws: StoreError.missingReference(what: "the grant of access token stray")) {
                try await store.createGrant(fresh, withAccessToken: token("stray", in: GrantID("missing")))
            }
            #expect(try await store.grant(id: fresh.id) == nil)
        }
    }

    static let all: [StoreContractCheck] = [
        grantAndTokenAreRecordedInOneCall,
        aRefusedStepRecordsNothing,
    ]
}
