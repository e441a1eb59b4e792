import BridgeStore
import Foundation
import Hummingbird
import Logging
import SignInProtocol

/// The steps between the authorize request and the final redirect, under `/oauth2/interaction/{id}`:
/// `GET` shows the current step (sign-in, consent, or straight to the client), `GET …/upstream/{upstream}` asks
/// for sign-in at that upstream provider, `POST …/signin` checks a password, `POST …/consent` records the user's
/// decision. Each is one store call (a sign-in: a read before the password hash is checked and a write after); the
/// store checks the browser binding, and posts carry a CSRF token. What comes next is decided by
/// `InteractionSteps` and drawn by `InteractionRenderer`.
struct InteractionEndpoints: Sendable {
    let environment: AuthorizeEnvironment
    let completion: CodeIssuance
    let steps: InteractionSteps

    var renderer: InteractionRenderer { InteractionRenderer(environment: environment, completion: completion) }

    func show(_ request: Request, _ context: BridgeRequestContext) async throws -> Response {
        try await proceed(request, context, consent: false, method: .get)
    }

    /// The sign-in page's "Continue with …": the same step as `show`, asking for that provider
    /// (`UpstreamSignInStep`). An unknown provider, or an id that cannot be one, is 404.
    func continueUpstream(_ request: Request, _ context: BridgeRequestContext) async throws -> Response {
        guard let id = context.parameters.get("id"), BrowserCookies.secret(id) != nil,
            let upstream = context.parameters.get("upstream"),
            environment.configuration.upstreams.contains(where: { $0.id == upstream })
        else {
            let language = PageLanguage.negotiate(culture: nil, acceptLanguage: request.headers[.acceptLanguage])
            return environment.pages.error(language, status: .notFound, message: \.expired)
        }
        return try await proceed(request, context, consent: false, method: .get, upstream: upstream)
    }

    /// Continues the parked request for this browser (one store call) and answers with what comes next.
    func proceed(
        _ request: Request, _ context: BridgeRequestContext, consent: Bool, method: HTTPRequest.Method,
        upstream: String? = nil
    ) async throws -> Response {
        let fallback = PageLanguage.negotiate(culture: nil, acceptLanguage: request.headers[.acceptLanguage])
        guard let id = context.parameters.get("id"), let idSecret = BrowserCookies.secret(id) else {
            return environment.pages.error(fallback, status: .badRequest, message: \.expired)
        }
        let now = environment.now()
        let browserSecret = environment.cookies.browserSecret(in: request)
        let (code, issue) = completion.newCode(at: now)
        let continuation = try await environment.store.continueAuthorization(
            TokenDigest(of: idSecret), browser: browserSecret.map { TokenDigest(of: $0) }, session: sessionDigest(request),
            consent: consent, issue: issue, at: now)
        switch continuation {
        case .unknown:
            return environment.pages.error(fallback, status: .badRequest, message: \.expired)
        case .otherBrowser(let record):
            context.logger.notice("interaction used from another browser")
            let language = (try? PendingAuthorization.decode(record.payload))?.language ?? fallback
            return environment.pages.error(language, status: .forbidden, message: \.otherBrowser)
        case .progress(let record, let progress):
            guard let pending = try? PendingAuthorization.decode(record.payload), let browserSecret,
                let client = environment.client(id: pending.clientID)
            else {
                return environment.pages.error(fallback, status: .badRequest, message: \.expired)
            }
            if consent, case .needsSignIn = progress {
                // The consent form of a session that ended meanwhile: back to the step, which asks to sign in.
                return AuthorizeEnvironment.redirect(to: AuthorizeEnvironment.interactionPath(idSecret), after: .post)
            }
            return try await respond(
                to: progress, code: code,
                parked: ParkedInteraction(id: idSecret, pending: pending, client: client, browserSecret: browserSecret),
                upstream: upstream, method: method, logger: context.logger)
        }
    }

    /// The answer to where a request stands: what the first applying step of `InteractionSteps` says it needs,
    /// drawn by `InteractionRenderer`. Never inlined: its callers await the store first, and an inlined copy made
    /// their async frames hold its temporaries too.
    @inline(never)
    func respond(
        to progress: AuthorizationProgress, code: SecretToken, parked: ParkedInteraction, upstream: String? = nil,
        method: HTTPRequest.Method, logger: Logger
    ) async throws -> Response {
        let state = InteractionState(
            progress: progress, code: code, parked: parked, requestedUpstream: upstream, logger: logger)
        let need = try await steps.need(state, environment: environment)
        return renderer.response(need, for: parked, method: method, logger: logger)
    }

    func consent(_ request: Request, _ context: BridgeRequestContext) async throws -> Response {
        let fallback = PageLanguage.negotiate(culture: nil, acceptLanguage: request.headers[.acceptLanguage])
        let form = await environment.postedForm(request)
        guard let form, let id = context.parameters.get("id"), let idSecret = BrowserCookies.secret(id),
            let browserSecret = environment.cookies.browserSecret(in: request),
            let presented = form["csrf_token"],
            CSRFToken.matches(presented, CSRFToken.derive(browserSecret: browserSecret, interactionID: idSecret))
        else {
            // Only a broken or forged post reads the request, to answer with the page it would have had before.
            return try await refusedPost(request, context, form: form)
        }
        switch form["decision"] {
        case "allow":
            return try await proceed(request, context, consent: true, method: .post)
        case "deny":
            switch try await loadedForPost(request, context, form: form) {
            case .failure(let page): return page.response
            case .success(let loaded):
                return try await completion.deny(
                    digest: loaded.record.digest, method: .post, language: loaded.pending.language, logger: context.logger)
            }
        default:
            return environment.pages.error(
                fallback, status: .badRequest, message: \.formExpired,
                oauthError: .invalidRequest("decision must be allow or deny"))
        }
    }

    // MARK: The browser's session

    /// The digest of the browser's session cookie, if it carries a well-formed one.
    func sessionDigest(_ request: Request) -> TokenDigest? {
        environment.cookies.sessionSecret(in: request).map { TokenDigest(of: $0) }
    }
}
