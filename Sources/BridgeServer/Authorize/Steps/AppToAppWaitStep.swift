import BridgeStore
import Foundation
import Logging
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
        let parked = try await AppToAppParking(environment: environment).park(
            interaction: state.parked.digest, interactionID: state.id, pending: state.pending, logger: state.logger)
        return .waitForHostApp(deepLink: parked.deepLink, reference: parked.reference)
    }
}

/// Parks a request for the host's app: a new reference, recorded with what the host's app is shown, and the deep
/// link that carries it (`AppToAppWaitStep`).
struct AppToAppParking: Sendable {
    let environment: AuthorizeEnvironment

    /// `interactionID`: where `resume_uri` leads the browser back to ("" when no browser takes part).
    func park(
        interaction: TokenDigest, interactionID: String, pending: PendingAuthorization, logger: Logger
    ) async throws -> (deepLink: String, reference: TokenDigest) {
        let reference = SecretToken()
        let now = environment.now()
        let lifetime = TimeInterval(environment.configuration.appToApp.referenceLifetimeSeconds)
        let payload = AppToAppPayload(
            state: pending.request.state, appCallbackURI: pending.appCallbackURI,
            redirectURI: pending.isSimpleLogin ? pending.redirectURI : nil, interactionID: interactionID,
            scope: pending.scope)
        let record = AppToAppRequestRecord(
            referenceDigest: reference.digest, interactionDigest: interaction, clientID: pending.clientID,
            payload: try payload.encoded(), createdAt: now, expiresAt: now.addingTimeInterval(lifetime))
        try await callStore { try await environment.store.parkAppToApp(record) }
        logger.info("app-to-app request parked", metadata: ["client": .string(pending.clientID)])
        let link = AppToAppDeepLink(base: environment.configuration.appToAppDeepLink, reference: reference.value)
        return (link.url, reference.digest)
    }
}
