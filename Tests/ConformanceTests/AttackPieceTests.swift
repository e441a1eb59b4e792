import Testing

@testable import Conformance

/// The pieces the attack checks compute themselves, against published values and hand-made answers.
@Suite struct AttackPieceTests {
    /// OpenID Connect Core 1.0 Appendix A.3's example: this access token's at_hash under RS256.
    @Test func atHashIsTheLeftHalfOfTheAlgorithmsHash() {
        #expect(OpenIDSignIn.atHash(of: "jHkWEdUXMU1BwAsC4vtUsZwnNvTIxEl0z9K3vx5KF0Y", alg: "RS256") == "77QmUPtjPfzWtF2AnpK9RQ")
        #expect(OpenIDSignIn.atHash(of: "x", alg: "ES384")?.count == 32)
        #expect(OpenIDSignIn.atHash(of: "x", alg: "none") == nil)
    }

    @Test func callbackVariantsDifferOnlyAsAForgivingHostWouldIgnore() {
        let variants = Dictionary(uniqueKeysWithValues: AppToAppProbe.variants(of: "com.example.merchant:/app-callback"))
        #expect(variants["a trailing '/'"] == "com.example.merchant:/app-callback/")
        #expect(variants["a letter percent-encoded"] == "com.example.merchant:/app-callbac%6B")
        #expect(variants["a letter in the other case"] == "com.example.merchant:/app-callbacK")
    }

    /// An error is a JSON body with `error` on a 4xx, a Bearer challenge's `error`, or a redirect whose query has
    /// `error` and the suite's `state`; a sign-in page's own `?error=` redirect (no state) is not the host's answer.
    @Test func errorsAreReadFromBodiesChallengesAndRedirectsThatCarryState() {
        let json = ObservedResponse(
            status: 400, headers: [(name: "Content-Type", value: "application/json")],
            body: Array(#"{"error":"invalid_grant","error_description":"code used"}"#.utf8))
        #expect(ObservedError(json, url: "https://as.example/token", checkID: "x")?.description == "code used")
        let redirect = ObservedResponse(
            status: 302, headers: [(name: "Location", value: "https://localhost?error=access_denied&state=s")], body: [])
        #expect(ObservedError(redirect, url: "https://as.example/authorize", checkID: nil)?.error == "access_denied")
        let page = ObservedResponse(status: 302, headers: [(name: "Location", value: "/login?error=1")], body: [])
        #expect(ObservedError(page, url: "https://as.example/authorize", checkID: nil) == nil)
        let challenge = ObservedResponse(
            status: 401, headers: [(name: "WWW-Authenticate", value: #"Bearer realm="r", error="invalid_token", error_description="gone""#)],
            body: [])
        #expect(ObservedError.all(in: challenge, url: "https://rs.example/", checkID: nil).map(\.error) == ["invalid_token"])
        #expect(ObservedError.all(in: ObservedResponse(status: 401, headers: [(name: "WWW-Authenticate", value: "Bearer")], body: []),
                                  url: "https://rs.example/", checkID: nil).isEmpty)
        let success = ObservedResponse(status: 200, headers: [], body: Array(#"{"error":"x"}"#.utf8))
        #expect(ObservedError(success, url: "https://as.example/token", checkID: nil) == nil)
    }
}
