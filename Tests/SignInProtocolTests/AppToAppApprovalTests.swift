import SignInProtocol
import Testing

@Suite("App-to-app approval values")
struct AppToAppApprovalTests {
    @Test func theDeepLinkAddsTheReferenceAndKeepsTheConfiguredQuery() throws {
        let link = AppToAppDeepLink(base: "com.example.files:/app-to-app?v=1", reference: "r/ef+1")
        #expect(link.url == "com.example.files:/app-to-app?v=1&reference=r%2Fef%2B1")
        #expect(try AppToAppDeepLink.decode(url: link.url) == link)
    }

    @Test func aDeepLinkWithoutOrWithTwoReferencesIsRefused() {
        #expect(throws: OAuthDecodingError.missingParameter("reference")) {
            try AppToAppDeepLink.decode(url: "https://files.example.com/app-to-app")
        }
        #expect(throws: OAuthDecodingError.duplicateParameter("reference")) {
            try AppToAppDeepLink.decode(url: "https://files.example.com/app-to-app?reference=a&reference=b")
        }
    }

    @Test func theApprovalIsAFormWithReferenceAndDecision() throws {
        let approval = AppToAppApproval(reference: "abc", decision: .deny)
        #expect(approval.body == "reference=abc&decision=deny")
        #expect(try AppToAppApproval.decode(approval.body) == approval)
        #expect(throws: OAuthDecodingError.invalidParameter("decision", reason: "must be 'approve' or 'deny'")) {
            try AppToAppApproval.decode("reference=abc&decision=maybe")
        }
        #expect(throws: OAuthDecodingError.missingParameter("reference")) { try AppToAppApproval.decode("decision=approve") }
    }

    @Test func theAnswerCarriesTheCallbackWithResumeURIOrError() throws {
        let approved = AppCallback(
            callbackURI: "com.example.merchant:/app-callback", state: "s1",
            outcome: .approved(resumeURI: "https://files.example.com/oauth2/app-to-app/resume?token=t"))
        let answer = AppToAppApprovalAnswer(callback: approved)
        #expect(
            answer.json
                == #"{"app_callback_url":"com.example.merchant:/app-callback?state=s1&resume_uri=https%3A%2F%2Ffiles.example.com%2Foauth2%2Fapp-to-app%2Fresume%3Ftoken%3Dt"}"#
        )
        #expect(try AppToAppApprovalAnswer.decode(json: answer.json).callback() == approved)
        let denied = AppCallback(
            callbackURI: "com.example.merchant:/app-callback", state: "s1",
            outcome: .failed(OAuthError(.accessDenied, description: "no")))
        #expect(try AppToAppApprovalAnswer(callback: denied).callback().error?.code == .accessDenied)
    }

    @Test func theRequestDetailsAreJSONWithSnakeCaseNames() throws {
        let details = AppToAppRequestDetails(clientID: "merchant-app", clientName: "Example Merchant", scope: "openid", expiresIn: 290)
        #expect(details.json == #"{"client_id":"merchant-app","client_name":"Example Merchant","expires_in":290,"scope":"openid"}"#)
        #expect(try AppToAppRequestDetails.decode(json: details.json) == details)
    }
}
