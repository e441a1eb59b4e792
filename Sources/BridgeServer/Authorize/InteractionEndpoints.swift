import BridgeStore
import Foundation
import Logging
import SignInProtocol

/// The steps between the authorize request and the final redirect, under `/oauth2/interaction/{id}`:
/// `GET` shows the current step (sign-in, consent, or straight to the client), `GET …/upstream/{upstream}` asks
/// for sign-in at that upstream provider, `POST …/signin` checks a password, `POST …/consent` records the user's
/// decision. Each is one store call (a sign-in: a read before the password hash is checked and a write after); the
/// store checks the browser binding, and posts carry a CSRF token. What comes next is decided by
/// `InteractionSteps`; the answer is a `BrowserAnswer`, drawn by `InteractionRenderer`.
struct InteractionEndpoints: Sendable {
    let environment: AuthorizeEnvironment
    let completion: CodeIssuance
    let steps: InteractionSteps

    func show(_ input: BrowserRequest, logger: Logger) async throws -> BrowserAnswer {
        try await proceed(input, consent: false, signInHere: input.asksToSignInHere, logger: logger)
    }

    /// The sign-in page's "Continue with …": the same step as `show`, asking for that provider
    /// (`UpstreamSignInStep`). An unknown provider, or an id that cannot be one, is 404.
    func continueUpstream(_ input: BrowserRequest, logger: Logger) async throws -> BrowserAnswer {
        guard BrowserCookies.secret(input.interactionID) != nil, let upstream = input.upstream,
            environment.configuration.upstreams.contains(where: { $0.id == upstream })
        else {
            return .errorPage(input.fallbackLanguage, status: .notFound, message: .expired)
        }
        return try await proceed(input, consent: false, upstream: upstream, logger: logger)
    }

    /// Continues the parked request for this browser (one store call) and answers with what comes next.
    func proceed(
        _ input: BrowserRequest, consent: Bool, upstream: String? = nil, signInHere: Bool = false, logger: Logger
    ) async throws -> BrowserAnswer {
        let fallback = input.fallbackLanguage
        guard let idSecret = BrowserCookies.secret(input.interactionID) else {
            return .errorPage(fallback, status: .badRequest, message: .expired)
        }
        let now = environment.now()
        let (code, issue) = completion.newCode(at: now)
        let continuation = try await callStore {
            try await environment.store.continueAuthorization(
                TokenDigest(of: idSecret), browser: input.browserSecret.map { TokenDigest(of: $0) },
                session: input.sessionSecret.map { TokenDigest(of: $0) }, consent: consent, issue: issue, at: now)
        }
        switch continuation {
        case .unknown:
            return .errorPage(fallback, status: .badRequest, message: .expired)
        case .otherBrowser(let record):
            logger.notice("interaction used from another browser")
            let language = (try? PendingAuthorization.decode(record.payload))?.language ?? fallback
            return .errorPage(language, status: .forbidden, message: .otherBrowser)
        case .progress(let record, let progress):
            guard let pending = try? PendingAuthorization.decode(record.payload), let browserSecret = input.browserSecret,
                let client = environment.client(id: pending.clientID)
            else {
                return .errorPage(fallback, status: .badRequest, message: .expired)
            }
            if consent, case .needsSignIn = progress {
                // The consent form of a session that ended meanwhile: back to the step, which asks to sign in.
                return .redirect(BrowserNavigation.interactionPath(idSecret))
            }
            return try await respond(
                to: progress, code: code,
                parked: ParkedInteraction(id: idSecret, pending: pending, client: client, browserSecret: browserSecret),
                upstream: upstream, signInHere: signInHere, logger: logger)
        }
    }

    /// Where a request stands: what the first applying step of `InteractionSteps` says it needs. Never inlined:
    /// its callers await the store first, and an inlined copy made their async frames hold its temporaries too.
    @inline(never)
    func respond(
        to progress: AuthorizationProgress, code: SecretToken, parked: ParkedInteraction, upstream: String? = nil,
        signInHere: Bool = false, logger: Logger
    ) async throws -> BrowserAnswer {
        let state = InteractionState(
            progress: progress, code: code, parked: parked, requestedUpstream: upstream, signInHere: signInHere,
            logger: logger)
        return BrowserAnswer(kind: .need(try await steps.need(state, environment: environment), parked))
    }

    func consent(_ input: BrowserRequest, logger: Logger) async throws -> BrowserAnswer {
        let form = input.usableForm
        guard let form, let idSecret = BrowserCookies.secret(input.interactionID),
            let browserSecret = input.browserSecret,
            let presented = form["csrf_token"],
            CSRFToken.matches(presented, CSRFToken.derive(browserSecret: browserSecret, interactionID: idSecret))
        else {
            // Only a broken or forged post reads the request, to answer with the page it would have had before.
            return try await refusedPost(input, logger: logger)
        }
        switch form["decision"] {
        case "allow":
            return try await proceed(input, consent: true, logger: logger)
        case "deny":
            switch try await loadedForPost(input, logger: logger) {
            case .failure(let page): return page.answer
            case .success(let loaded):
                return try await completion.deny(loaded, logger: logger)
            }
        default:
            return .errorPage(
                input.fallbackLanguage, status: .badRequest, message: .formExpired,
                oauthError: .invalidRequest("decision must be allow or deny"))
        }
    }
}
