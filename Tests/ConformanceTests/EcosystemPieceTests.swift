import Foundation
import Testing

@testable import Conformance

/// The pieces of the ecosystem, AccessTokenExpiry and resume_uri checks, on values shaped like real answers.
@Suite struct EcosystemPieceTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func accessTokenExpiryInMillisecondsPassesAndInSecondsFailsSayingSo() {
        let inTenHours = Int64(1_800_036_000)
        guard case .pass = AccessTokenExpiryCheck.judge(inTenHours * 1000, now: Self.now) else {
            Issue.record("milliseconds should pass")
            return
        }
        guard case .fail(let detail) = AccessTokenExpiryCheck.judge(inTenHours, now: Self.now) else {
            Issue.record("seconds should fail")
            return
        }
        #expect(detail.contains("reads as seconds since the epoch"))
        if case .pass = AccessTokenExpiryCheck.judge(0, now: Self.now) {} else { Issue.record("0 is no expiry") }
        guard case .fail(let past) = AccessTokenExpiryCheck.judge(1_799_999_000_000, now: Self.now) else {
            Issue.record("a past expiry should fail")
            return
        }
        #expect(past.contains("in the past"))
    }

    @Test func theRootContainerPointerURLIsTheEcosystemPathPlusItsOperation() {
        let probe = EcosystemProbe(
            url: "https://files.example.com/wopi/ecosystem?access_token=w1.abc.def.ghi",
            answer: ObservedResponse(status: 200, headers: [], body: []))
        #expect(probe.rootContainerPointerURL == "https://files.example.com/wopi/ecosystem/root_container_pointer?access_token=w1.abc.def.ghi")
        #expect(EcosystemProbe.appendingPath("/x", to: "https://h.example/eco/?a=1") == "https://h.example/eco/x?a=1")
    }

    @Test func anInvalidTokenDiffersInTheMiddleAndKeepsTheRest() {
        let url = "https://files.example.com/wopi/ecosystem?access_token=AAAAAAAA&x=1"
        let altered = EcosystemProbe.withInvalidToken(url)
        #expect(altered == "https://files.example.com/wopi/ecosystem?access_token=AAAABAAA&x=1")
    }

    @Test func aPointerUrlMustBeAbsoluteAndCarryAnAccessToken() {
        #expect(EcosystemProbe.carriesAccessToken("https://files.example.com/wopi/containers/root?access_token=t"))
        #expect(!EcosystemProbe.carriesAccessToken("https://files.example.com/wopi/containers/root"))
        #expect(!EcosystemProbe.carriesAccessToken("https://files.example.com/wopi/containers/root?access_token="))
        #expect(!EcosystemProbe.carriesAccessToken("/wopi/containers/root?access_token=t"))
    }

    @Test func theParkedPagesDeepLinkGivesItsReference() {
        let ours = #"<a class="button" href="http://127.0.0.1:8080/app-to-app?reference=Ab_c-9~x">Open the Example Files app</a>"#
        #expect(HostAppApproval.reference(in: ours) == "Ab_c-9~x")
        #expect(HostAppApproval.reference(in: #"<a href="app://x?a=1&amp;reference=r%2B1">"#) == "r+1")
        #expect(HostAppApproval.reference(in: "<p>Sign in</p>") == nil)
    }
}
