import BridgeStore
import Foundation
import Hummingbird
import Logging
import SignInProtocol

/// The steps between the authorize request and the final redirect, under `/oauth2/interaction/{id}`:
/// `GET` shows the current step (sign-in, consent, or straight to the client), `POST …/signin` checks a password,
/// `POST …/consent` records the user's decision. Every step checks the browser binding and, for posts, the CSRF token.
struct InteractionEndpoints: Sendable {
    let environment: AuthorizeEnvironment
    let completion: CodeIssuance

    /// A pending request loaded for this browser, or the error page to answer instead.
    struct Loaded {
        var id: String
        var record: PendingAuthorizationRecord
        var pending: PendingAuthorization
        var client: BridgeConfiguration.Client
        var browserSecret: String
    }

    func show(_ request: Request, _ context: BridgeRequestContext) async throws -> Response {
        switch try await load(request, context) {
        case .failure(let page): return page.response
        case .success(let loaded):
            return try await nextStep(
                id: loaded.id, record: loaded.record, pending: loaded.pending, browserSecret: loaded.browserSecret,
                method: .get, request: request, context: context)
        }
    }

    /// Sign-in page without a session; consent page when the user has not yet allowed this client these scopes;
    /// otherwise the code and the redirect.
    func nextStep(
        id: String, record: PendingAuthorizationRecord, pending: PendingAuthorization, browserSecret: String,
        method: HTTPRequest.Method, request: Request, context: BridgeRequestContext
    ) async throws -> Response {
        guard let client = environment.client(id: pending.clientID) else {
            return environment.pages.error(pending.language, status: .badRequest, message: \.expired)
        }
        let csrf = CSRFToken.derive(browserSecret: browserSecret, interactionID: id)
        let formTarget = PageRenderer.formTarget(for: pending.redirectURI)
        guard let user = try await signedInUser(request, for: pending, requestedAt: record.createdAt) else {
            if pending.showsNoPages {
                return try await completion.refuse(
                    digest: record.digest, OAuthError(.other("login_required"), description: "the user must sign in"), method: method,
                    language: pending.language, context: context)
            }
            return environment.pages.signIn(
                .init(
                    language: pending.language, clientName: client.displayName,
                    action: AuthorizeEnvironment.interactionPath(id) + "/signin", csrfToken: csrf, formTarget: formTarget))
        }
        var consented = client.isFirstParty && !pending.asksConsentAgain
        if !consented && !pending.asksConsentAgain {
            consented = try await hasConsent(user: user, client: client, scopes: pending.scopes)
        }
        if !consented && pending.showsNoPages {
            return try await completion.refuse(
                digest: record.digest, OAuthError(.other("consent_required"), description: "the user must allow this client first"),
                method: method, language: pending.language, context: context)
        }
        if consented {
            return try await completion.finish(
                digest: record.digest, user: user, client: client, method: method, language: pending.language,
                context: context)
        }
        return environment.pages.consent(
            .init(
                language: pending.language, clientName: client.displayName, userName: user.friendlyName ?? user.signInName,
                scopes: pending.scopes, action: AuthorizeEnvironment.interactionPath(id) + "/consent", csrfToken: csrf,
                formTarget: formTarget))
    }

    func signIn(_ request: Request, _ context: BridgeRequestContext) async throws -> Response {
        let loaded: Loaded
        let form: FormParameters
        switch try await loadForPost(request, context) {
        case .failure(let page): return page.response
        case .success(let result): (loaded, form) = result
        }
        let language = loaded.pending.language
        let name = (form["username"] ?? "").trimmingCharacters(in: .whitespaces)
        let password = form["password"] ?? ""
        let address = environment.clientAddress.resolve(
            peer: context.remoteAddress?.ipAddress, forwardedFor: request.headers[values: ClientAddress.forwardedForField])
        let now = environment.now()
        func page(error: String?, status: HTTPResponse.Status = .ok) -> Response {
            environment.pages.signIn(
                .init(
                    language: language, clientName: loaded.client.displayName,
                    action: AuthorizeEnvironment.interactionPath(loaded.id) + "/signin",
                    csrfToken: CSRFToken.derive(browserSecret: loaded.browserSecret, interactionID: loaded.id),
                    userName: name, error: error, formTarget: PageRenderer.formTarget(for: loaded.pending.redirectURI)),
                status: status)
        }
        if let wait = try await environment.throttle.retryAfter(signInName: name, address: address, at: now) {
            context.logger.notice("sign-in throttled")
            let minutes = String(max(1, (wait + 59) / 60))
            var response = page(error: PageText.for(language).throttled.filling("minutes", with: minutes), status: .tooManyRequests)
            response.headers[.retryAfter] = String(wait)
            return response
        }
        let user = name.isEmpty ? nil : try await environment.store.user(signInName: name)
        guard try await environment.hasher.verify(password, hash: user?.passwordHash), let user else {
            try await environment.throttle.recordFailure(signInName: name, address: address, at: now)
            context.logger.info("sign-in failed")
            return page(error: PageText.for(language).wrongCredentials)
        }
        try await environment.throttle.recordSuccess(signInName: name)
        let session = SecretToken()
        try await environment.store.createSession(
            SessionRecord(
                digest: session.digest, userID: user.id, createdAt: now,
                expiresAt: now.addingTimeInterval(TimeInterval(environment.configuration.signIn.sessionLifetimeSeconds))))
        context.logger.info("signed in", metadata: ["user": .string(user.id)])
        var response = AuthorizeEnvironment.redirect(to: AuthorizeEnvironment.interactionPath(loaded.id), after: .post)
        response.setCookie(environment.cookies.session(session.value))
        return response
    }

    func consent(_ request: Request, _ context: BridgeRequestContext) async throws -> Response {
        let loaded: Loaded
        let form: FormParameters
        switch try await loadForPost(request, context) {
        case .failure(let page): return page.response
        case .success(let result): (loaded, form) = result
        }
        guard let user = try await signedInUser(request, for: loaded.pending, requestedAt: loaded.record.createdAt) else {
            return AuthorizeEnvironment.redirect(to: AuthorizeEnvironment.interactionPath(loaded.id), after: .post)
        }
        switch form["decision"] {
        case "allow":
            let previous = try await environment.store.consent(userID: user.id, clientID: loaded.client.id)
            var scopes = previous?.scopes ?? []
            scopes.formUnion(loaded.pending.scopes)
            try await environment.store.saveConsent(
                ConsentRecord(
                    userID: user.id, clientID: loaded.client.id, scope: scopes.sorted().joined(separator: " "),
                    grantedAt: environment.now()))
            return try await completion.finish(
                digest: loaded.record.digest, user: user, client: loaded.client, method: .post,
                language: loaded.pending.language, context: context)
        case "deny":
            return try await completion.deny(
                digest: loaded.record.digest, method: .post, language: loaded.pending.language, context: context)
        default:
            return environment.pages.error(
                loaded.pending.language, status: .badRequest, message: \.formExpired,
                oauthError: .invalidRequest("decision must be allow or deny"))
        }
    }

    // MARK: Loading and guarding

    /// The user of the browser's session, if it is active and recent enough for `pending` (`prompt=login`,
    /// `max_age`). Every step that acts for a user asks here, so a form posted straight to `/consent` cannot skip
    /// the fresh sign-in the request demands.
    func signedInUser(
        _ request: Request, for pending: PendingAuthorization, requestedAt: Date
    ) async throws -> UserRecord? {
        let now = environment.now()
        let earliest = pending.earliestSignIn(requestedAt: requestedAt, now: now) ?? .distantPast
        guard let secret = environment.cookies.sessionSecret(in: request),
            let session = try await environment.store.activeSession(TokenDigest(of: secret), at: now),
            session.createdAt >= earliest
        else { return nil }
        return try await environment.store.user(id: session.userID)
    }

    func hasConsent(user: UserRecord, client: BridgeConfiguration.Client, scopes: [String]) async throws -> Bool {
        guard let consent = try await environment.store.consent(userID: user.id, clientID: client.id) else { return false }
        return Set(scopes).isSubset(of: consent.scopes)
    }

    func load(_ request: Request, _ context: BridgeRequestContext) async throws -> Result<Loaded, PageResponse> {
        let fallback = PageLanguage.negotiate(culture: nil, acceptLanguage: request.headers[.acceptLanguage])
        guard let id = context.parameters.get("id"), let idSecret = BrowserCookies.secret(id),
            let record = try await environment.store.pendingAuthorization(TokenDigest(of: idSecret), at: environment.now()),
            let pending = try? PendingAuthorization.decode(record.payload),
            let client = environment.client(id: pending.clientID)
        else {
            return .failure(PageResponse(environment.pages.error(fallback, status: .badRequest, message: \.expired)))
        }
        guard let browserSecret = environment.cookies.browserSecret(in: request),
            TokenDigest(of: browserSecret) == record.browserDigest
        else {
            context.logger.notice("interaction used from another browser")
            return .failure(PageResponse(environment.pages.error(pending.language, status: .forbidden, message: \.otherBrowser)))
        }
        return .success(Loaded(id: idSecret, record: record, pending: pending, client: client, browserSecret: browserSecret))
    }

    /// `load`, then the form body and its CSRF token: missing → 400, wrong → 403.
    func loadForPost(_ request: Request, _ context: BridgeRequestContext) async throws
        -> Result<(Loaded, FormParameters), PageResponse>
    {
        let loaded: Loaded
        switch try await load(request, context) {
        case .failure(let page): return .failure(page)
        case .success(let result): loaded = result
        }
        let language = loaded.pending.language
        guard let form = try await AuthorizeEnvironment.formParameters(of: request) else {
            return .failure(PageResponse(environment.pages.error(language, status: .badRequest, message: \.formExpired)))
        }
        guard let presented = form["csrf_token"], !presented.isEmpty else {
            context.logger.notice("form without CSRF token")
            return .failure(PageResponse(environment.pages.error(language, status: .badRequest, message: \.formExpired)))
        }
        let expected = CSRFToken.derive(browserSecret: loaded.browserSecret, interactionID: loaded.id)
        guard CSRFToken.matches(presented, expected), TokenDigest(of: presented) == loaded.record.csrfDigest else {
            context.logger.notice("form with a wrong CSRF token")
            return .failure(PageResponse(environment.pages.error(language, status: .forbidden, message: \.formExpired)))
        }
        return .success((loaded, form))
    }
}

/// An error page as a `Result` failure.
struct PageResponse: Error {
    let response: Response
    init(_ response: Response) { self.response = response }
}
