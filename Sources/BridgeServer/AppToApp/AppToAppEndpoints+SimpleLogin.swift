import BridgeStore
import Foundation
import Logging
import SignInProtocol

/// Simple Login (`requested_flow=app_to_app_v2`,
/// https://developer.vippsmobilepay.com/docs/APIs/login-api/api-guide/mobile-app-flows/simple-login/): the user
/// consents in the host's app, which then opens the merchant's registered `redirect_uri` with the code itself; no
/// `resume_uri`, no browser step after the parked page. Without the host's app, the deep link opened in the browser
/// leads to the sign-in page of the parked request (`landing`).
extension AppToAppEndpoints {
    /// Whether `reference` names a live, undecided Simple Login request (a read, before the one write step).
    func isSimpleLogin(reference: String, at now: Date) async throws(BearerRefusal) -> Bool {
        let record = try await callStore(failingAs: BearerRefusal.self) {
            try await store.undecidedAppToApp(TokenDigest(of: reference), at: now)
        }
        return record.flatMap { try? AppToAppPayload.decode($0.payload) }.map { $0.appCallbackURI == nil } ?? false
    }

    /// The approval in the host's app is the user's consent, so one store step decides the reference, takes the
    /// parked request, remembers the consent and issues the code; the answer is `redirect_uri?code=…&state=…&iss=…`.
    func approveSimpleLogin(
        _ reference: String, by caller: Approver, at now: Date, logger: Logger
    ) async throws(BearerRefusal) -> AppToAppRedirectAnswer {
        let (code, issue) = issuance.newCode(at: now)
        let outcome = try await callStore(failingAs: BearerRefusal.self) {
            try await store.approveSimpleLogin(
                TokenDigest(of: reference), userID: caller.verified.grant.userID, clientIDs: caller.approvable,
                issue: issue, at: now)
        }
        switch outcome {
        case .issued(_, let record, let grant, _):
            guard let pending = try? PendingAuthorization.decode(record.payload),
                let client = configuration.client(id: pending.clientID)
            else { throw Self.unknown }
            logger.info("app-to-app request approved in the app", metadata: ["client": .string(client.id)])
            return AppToAppRedirectAnswer(
                redirectURL: issuance.redirect(code: code, grant: grant, pending: pending, client: client, logger: logger))
        case .alreadyDecided: throw Self.alreadyUsed
        case .expired: throw Self.expired
        case .unknown: throw Self.unknown
        case .notAllowed: throw Self.notAllowed
        }
    }

    /// A denied Simple Login request: `access_denied` with its `state` and `iss` at the registered `redirect_uri`
    /// (RFC 6749 §4.1.2.1, RFC 9207 §2), which the host's app opens to return the user to the merchant.
    func deniedSimpleLogin(_ payload: AppToAppPayload) -> AppToAppRedirectAnswer {
        let response = AuthorizationResponse.failure(
            OAuthError(.accessDenied, description: "the user denied the request in the app"), state: payload.state)
        return AppToAppRedirectAnswer(
            response.issued(by: configuration.issuer), redirectURI: payload.redirectURI ?? "")
    }

    /// `GET /app-to-app?reference=…` in a browser (the host's app is not installed): for a live, undecided Simple
    /// Login reference, the interaction page of its parked request with the sign-in form instead of the deep link;
    /// nil for anything else (the page that says to open the app). The interaction still checks that this is the
    /// browser that parked the request, so the reference alone signs nobody in.
    func landing(reference: String?) async throws(AppToAppResumeRefusal) -> String? {
        guard let reference = reference.nonEmpty else { return nil }
        let now = self.now()
        let record = try await callStore(failingAs: AppToAppResumeRefusal.self) {
            try await store.undecidedAppToApp(TokenDigest(of: reference), at: now)
        }
        guard let record, let payload = try? AppToAppPayload.decode(record.payload), payload.appCallbackURI == nil
        else { return nil }
        return BrowserNavigation.interactionPath(payload.interactionID) + "?sign_in=" + BrowserRequest.signInHere
    }
}
