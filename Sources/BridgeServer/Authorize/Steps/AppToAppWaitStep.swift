import BridgeStore
import Foundation
import SignInProtocol

/// What the server keeps with an app-to-app reference to answer the host's app and resume the browser. The
/// interaction id is kept because `resume_uri` must lead the browser back to its parked request; it is worth
/// nothing without that browser's binding cookie, which every interaction step checks.
struct AppToAppPayload: Codable, Sendable, Hashable {
    var state: String?
    /// `app_callback_uri` of `requested_flow=app_to_app`; nil for Simple Login (`app_to_app_v2`).
    var appCallbackURI: String?
    /// Simple Login only: the registered `redirect_uri` a denial is sent to.
    var redirectURI: String?
    var interactionID: String
    /// The scopes asked for, shown by the host's app before the user decides.
    var scope: String?

    func encoded() throws -> String { String(decoding: try JSONEncoder().encode(self), as: UTF8.self) }

    static func decode(_ payload: String) throws -> AppToAppPayload {
        try JSONDecoder().decode(AppToAppPayload.self, from: Data(payload.utf8))
    }
}

/// `requested_flow=app_to_app` or `app_to_app_v2` with nobody signed in here: park the request under a new
/// single-use, short-lived reference (one store call); the page offers the host's app through a deep link carrying
/// it, with the password form as the fallback on the same page. A browser that asked to sign in here gets the
/// sign-in step instead.
struct AppToAppWaitStep: InteractionStep {
    func need(_ state: InteractionState, environment: AuthorizeEnvironment) async throws -> InteractionNeed? {
        guard case .needsSignIn = state.progress, state.pending.waitsForHostApp, !state.pending.showsNoPages,
            !state.signInHere
        else { return nil }
        let reference = SecretToken()
        let now = environment.now()
        let lifetime = TimeInterval(environment.configuration.appToApp.referenceLifetimeSeconds)
        let payload = AppToAppPayload(
            state: state.pending.request.state, appCallbackURI: state.pending.appCallbackURI,
            redirectURI: state.pending.isSimpleLogin ? state.pending.redirectURI : nil, interactionID: state.id,
            scope: state.pending.scope)
        try await environment.store.parkAppToApp(
            AppToAppRequestRecord(
                referenceDigest: reference.digest, interactionDigest: TokenDigest(of: state.id),
                clientID: state.client.id, payload: try payload.encoded(), createdAt: now,
                expiresAt: now.addingTimeInterval(lifetime)))
        state.logger.info("app-to-app request parked", metadata: ["client": .string(state.client.id)])
        let link = AppToAppDeepLink(base: environment.configuration.appToAppDeepLink, reference: reference.value)
        return .waitForHostApp(deepLink: link.url)
    }
}
