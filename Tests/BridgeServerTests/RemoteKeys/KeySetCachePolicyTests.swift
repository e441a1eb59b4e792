import Testing

@testable import BridgeServer

/// How long a fetched JWKS is kept: the provider's `max-age` (RFC 9111 §5.2.2.1) within the floor and ceiling.
@Suite struct KeySetCachePolicyTests {
    let policy = KeySetCachePolicy(floor: .seconds(30), ceiling: .seconds(86_400), unspecified: .seconds(300))

    @Test func maxAgeIsTakenWithinTheFloorAndTheCeiling() {
        #expect(policy.lifetime(cacheControl: "public, max-age=3600") == .seconds(3600))
        #expect(policy.lifetime(cacheControl: "max-age=5") == .seconds(30))
        #expect(policy.lifetime(cacheControl: "max-age=31536000, immutable") == .seconds(86_400))
        #expect(policy.lifetime(cacheControl: "MAX-AGE = 600") == .seconds(600), "read leniently: spaces around = mean the same")
        #expect(policy.lifetime(cacheControl: "Max-Age=600") == .seconds(600), "directive names are case-insensitive")
        #expect(policy.lifetime(cacheControl: #"max-age="120""#) == .seconds(120), "the quoted form (RFC 9111 §5.2)")
        #expect(policy.lifetime(cacheControl: "max-age=99999999999999999999") == .seconds(86_400))
    }

    @Test func noCacheAndNoStoreFetchAsOftenAsTheFloorAllows() {
        #expect(policy.lifetime(cacheControl: "no-cache") == .seconds(30))
        #expect(policy.lifetime(cacheControl: "max-age=3600, no-store") == .seconds(30))
    }

    @Test func anAnswerThatSaysNothingReadableIsKeptTheUnspecifiedTime() {
        for value in [nil, "", "private", "max-age=", "max-age=-1", "max-age=1h", "=", ",,", "max-age"] as [String?] {
            #expect(policy.lifetime(cacheControl: value) == .seconds(300), "\(value ?? "nil")")
        }
    }
}
