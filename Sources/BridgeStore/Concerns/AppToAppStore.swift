import Foundation

/// The app-to-app steps of the provider side (Vipps/MobilePay-style login): the parked page's reference, the host
/// app's decision, the browser's resume. One call each.
public protocol AppToAppStore: Sendable {
    /// The parked page is shown: records the reference its deep link carries.
    func parkAppToApp(_ record: AppToAppRequestRecord) async throws

    /// What the host's app shows before the user decides: the request under `reference` while it is undecided and
    /// live (a read; nil otherwise).
    func undecidedAppToApp(_ reference: TokenDigest, at now: Date) async throws -> AppToAppRequestRecord?

    /// The host's app approves or denies (one call): decides the request under `reference` once, before it
    /// expires, and only when its client is one of `clientIDs` (the clients the approving app may approve for).
    func decideAppToApp(
        _ reference: TokenDigest, decision: AppToAppDecision, clientIDs: [String], at now: Date
    ) async throws -> AppToAppDecisionOutcome

    /// Simple Login (`requested_flow=app_to_app_v2`): the host's app approves, and the request ends here in a code
    /// (one call). Decides the request under `reference` as `decideAppToApp` does; takes its parked request, so one
    /// request ends in at most one code; adds the request's scopes to `userID`'s remembered consent (the user allowed
    /// them in the app); and creates the grant and code (`issue`) for `userID`, signed in at `now`. Nothing changes
    /// unless all of it does.
    func approveSimpleLogin(
        _ reference: TokenDigest, userID: String, clientIDs: [String], issue: CodeIssue, at now: Date
    ) async throws -> SimpleLoginApproval

    /// The browser opens `resume_uri` (one call): checks the approved request is live, unused and parked by
    /// `browser`, marks it resumed and creates the browser session `session` for the approving user, so that the
    /// interaction continues signed in.
    func resumeAppToApp(
        _ resume: TokenDigest, browser: TokenDigest?, session: TokenDigest, sessionExpiresAt: Date, at now: Date
    ) async throws -> AppToAppResumeOutcome
}
