import BridgeStore
import Foundation
import Hummingbird
import Logging
import SignInProtocol

/// `POST /oauth2/interaction/{id}/signin`: two store calls, a read (the request, the account, the recent failures)
/// before the password hash is checked and a write (the session, or the failure) after, so that no transaction is
/// open while bcrypt runs.
extension InteractionEndpoints {
    func signIn(_ request: Request, _ context: BridgeRequestContext) async throws -> Response {
        let fallback = PageLanguage.negotiate(culture: nil, acceptLanguage: request.headers[.acceptLanguage])
        let form = await environment.postedForm(request)
        guard let id = context.parameters.get("id"), let idSecret = BrowserCookies.secret(id) else {
            return environment.pages.error(fallback, status: .badRequest, message: \.expired)
        }
        let name = (form?["username"] ?? "").trimmingCharacters(in: .whitespaces)
        let password = form?["password"] ?? ""
        let address = environment.clientAddress.resolve(
            peer: context.remoteAddress?.ipAddress, forwardedFor: request.headers[values: ClientAddress.forwardedForField])
        let now = environment.now()
        let keys = SignInThrottle.keys(signInName: name, address: address)
        let prepared = try await environment.store.prepareSignIn(
            interaction: TokenDigest(of: idSecret), signInName: name, throttleKeys: keys,
            failuresSince: environment.throttle.windowStart(at: now), at: now)
        let loaded: Loaded
        switch checkedPost(prepared.pending, id: idSecret, request, context, form: form) {
        case .failure(let page): return page.response
        case .success(let result): loaded = result
        }
        func retry(_ problem: SignInRetry.Problem) -> Response {
            renderer.signIn(loaded.parked, retry: SignInRetry(userName: name, problem: problem))
        }
        if let wait = environment.throttle.retryAfter(failures: prepared.failures) {
            context.logger.notice("sign-in throttled")
            return retry(.throttled(retryAfterSeconds: wait))
        }
        let user = name.isEmpty ? nil : prepared.user
        guard try await environment.hasher.verify(password, hash: user?.passwordHash), let user else {
            try await environment.store.recordSignInFailure(keys: keys, at: now)
            context.logger.info("sign-in failed")
            return retry(.wrongCredentials)
        }
        let session = SecretToken()
        try await environment.store.completeSignIn(
            SessionRecord(
                digest: session.digest, userID: user.id, createdAt: now,
                expiresAt: now.addingTimeInterval(TimeInterval(environment.configuration.signIn.sessionLifetimeSeconds))),
            clearingFailuresOf: keys[0])
        context.logger.info("signed in", metadata: ["user": .string(user.id)])
        var response = AuthorizeEnvironment.redirect(to: AuthorizeEnvironment.interactionPath(loaded.id), after: .post)
        response.setCookie(environment.cookies.session(session.value))
        return response
    }
}

// MARK: Guarding posts

extension InteractionEndpoints {
    /// A parked request checked for a post from this browser.
    struct Loaded {
        var id: String
        var record: PendingAuthorizationRecord
        var pending: PendingAuthorization
        var client: BridgeConfiguration.Client
        var browserSecret: String

        var parked: ParkedInteraction {
            ParkedInteraction(id: id, pending: pending, client: client, browserSecret: browserSecret)
        }
    }

    /// The checks of a post, in order: the request is live (else 400), it belongs to this browser (else 403), the
    /// body is a form (else 400), its CSRF token is present (else 400) and right (else 403).
    func checkedPost(
        _ record: PendingAuthorizationRecord?, id: String, _ request: Request, _ context: BridgeRequestContext,
        form: FormParameters?
    ) -> Result<Loaded, PageResponse> {
        let fallback = PageLanguage.negotiate(culture: nil, acceptLanguage: request.headers[.acceptLanguage])
        guard let record, let pending = try? PendingAuthorization.decode(record.payload),
            let client = environment.client(id: pending.clientID)
        else {
            return .failure(PageResponse(environment.pages.error(fallback, status: .badRequest, message: \.expired)))
        }
        let language = pending.language
        guard let browserSecret = environment.cookies.browserSecret(in: request),
            TokenDigest(of: browserSecret) == record.browserDigest
        else {
            context.logger.notice("interaction used from another browser")
            return .failure(PageResponse(environment.pages.error(language, status: .forbidden, message: \.otherBrowser)))
        }
        guard let form else {
            return .failure(PageResponse(environment.pages.error(language, status: .badRequest, message: \.formExpired)))
        }
        guard let presented = form["csrf_token"], !presented.isEmpty else {
            context.logger.notice("form without CSRF token")
            return .failure(PageResponse(environment.pages.error(language, status: .badRequest, message: \.formExpired)))
        }
        let expected = CSRFToken.derive(browserSecret: browserSecret, interactionID: id)
        guard CSRFToken.matches(presented, expected), TokenDigest(of: presented) == record.csrfDigest else {
            context.logger.notice("form with a wrong CSRF token")
            return .failure(PageResponse(environment.pages.error(language, status: .forbidden, message: \.formExpired)))
        }
        return .success(Loaded(id: id, record: record, pending: pending, client: client, browserSecret: browserSecret))
    }

    /// Reads the parked request and runs `checkedPost` on it (the consent form's deny and error paths).
    func loadedForPost(
        _ request: Request, _ context: BridgeRequestContext, form: FormParameters?
    ) async throws -> Result<Loaded, PageResponse> {
        let fallback = PageLanguage.negotiate(culture: nil, acceptLanguage: request.headers[.acceptLanguage])
        guard let id = context.parameters.get("id"), let idSecret = BrowserCookies.secret(id) else {
            return .failure(PageResponse(environment.pages.error(fallback, status: .badRequest, message: \.expired)))
        }
        let record = try await environment.store.pendingAuthorization(TokenDigest(of: idSecret), at: environment.now())
        return checkedPost(record, id: idSecret, request, context, form: form)
    }

    /// The page for a post that failed the CSRF check before any store call.
    func refusedPost(_ request: Request, _ context: BridgeRequestContext, form: FormParameters?) async throws -> Response {
        switch try await loadedForPost(request, context, form: form) {
        case .failure(let page): return page.response
        case .success(let loaded):
            return environment.pages.error(loaded.pending.language, status: .forbidden, message: \.formExpired)
        }
    }
}

/// An error page as a `Result` failure.
struct PageResponse: Error {
    let response: Response
    init(_ response: Response) { self.response = response }
}
