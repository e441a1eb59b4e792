import BridgeStore
import Foundation
import Logging
import SignInProtocol

/// `POST /oauth2/interaction/{id}/signin`: two store calls, a read (the request, the account, the recent failures)
/// before the password hash is checked and a write (the session, or the failure) after, so that no transaction is
/// open while bcrypt runs.
extension InteractionEndpoints {
    func signIn(_ input: BrowserRequest, logger: Logger) async throws -> BrowserAnswer {
        guard let idSecret = BrowserCookies.secret(input.interactionID) else {
            return .errorPage(input.fallbackLanguage, status: .badRequest, message: .expired)
        }
        let form = input.usableForm
        let name = (form?["username"] ?? "").trimmingCharacters(in: .whitespaces)
        let passwordText = form?["password"] ?? ""
        let now = environment.now()
        let keys = SignInThrottle.keys(signInName: name, address: input.clientAddress ?? "")
        let password = PasswordSignIn(environment: environment)
        let prepared = try await password.prepare(interaction: TokenDigest(of: idSecret), signInName: name, keys: keys, at: now)
        let loaded: Loaded
        switch checkedPost(prepared.pending, id: idSecret, input, logger: logger) {
        case .failure(let page): return page.answer
        case .success(let result): loaded = result
        }
        func retry(_ problem: SignInRetry.Problem) -> BrowserAnswer {
            BrowserAnswer(kind: .need(.signIn(retry: SignInRetry(userName: name, problem: problem)), loaded.parked))
        }
        let session: SecretToken
        switch try await password.check(name: name, password: passwordText, prepared, keys: keys, at: now, logger: logger) {
        case .throttled(let wait): return retry(.throttled(retryAfterSeconds: wait))
        case .wrongCredentials: return retry(.wrongCredentials)
        case .signedIn(let started, _): session = started
        }
        return BrowserAnswer(
            kind: .redirect(BrowserNavigation.interactionPath(loaded.id)), cookies: [.session(session.value)])
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
    /// body is a form (else 400, or 413 over the size limit, naming what was wrong), its CSRF token is present
    /// (else 400) and right (else 403).
    func checkedPost(
        _ record: PendingAuthorizationRecord?, id: String, _ input: BrowserRequest, logger: Logger
    ) -> Result<Loaded, PageAnswer> {
        guard let record, let pending = try? PendingAuthorization.decode(record.payload),
            let client = environment.client(id: pending.clientID)
        else {
            return .failure(PageAnswer(.errorPage(input.fallbackLanguage, status: .badRequest, message: .expired)))
        }
        let language = pending.language
        guard let browserSecret = input.browserSecret, TokenDigest(of: browserSecret) == record.browserDigest else {
            logger.notice("interaction used from another browser")
            return .failure(PageAnswer(.errorPage(language, status: .forbidden, message: .otherBrowser)))
        }
        let form: FormParameters
        switch input.form {
        case .success(let posted): form = posted
        case .failure(let error):
            logger.notice("unreadable form", metadata: ["error": .string(error.description)])
            return .failure(PageAnswer(.unreadableForm(error, language: language, message: .formExpired)))
        case nil: return .failure(PageAnswer(.errorPage(language, status: .badRequest, message: .formExpired)))
        }
        guard let presented = form["csrf_token"], !presented.isEmpty else {
            logger.notice("form without CSRF token")
            return .failure(PageAnswer(.errorPage(language, status: .badRequest, message: .formExpired)))
        }
        let expected = CSRFToken.derive(browserSecret: browserSecret, interactionID: id)
        guard CSRFToken.matches(presented, expected), TokenDigest(of: presented) == record.csrfDigest else {
            logger.notice("form with a wrong CSRF token")
            return .failure(PageAnswer(.errorPage(language, status: .forbidden, message: .formExpired)))
        }
        return .success(Loaded(id: id, record: record, pending: pending, client: client, browserSecret: browserSecret))
    }

    /// Reads the parked request and runs `checkedPost` on it (the consent form's deny and error paths).
    func loadedForPost(_ input: BrowserRequest, logger: Logger) async throws -> Result<Loaded, PageAnswer> {
        guard let idSecret = BrowserCookies.secret(input.interactionID) else {
            return .failure(PageAnswer(.errorPage(input.fallbackLanguage, status: .badRequest, message: .expired)))
        }
        let now = environment.now()
        let record = try await callStore { try await environment.store.pendingAuthorization(TokenDigest(of: idSecret), at: now) }
        return checkedPost(record, id: idSecret, input, logger: logger)
    }

    /// The page for a post that failed the CSRF check before any store call.
    func refusedPost(_ input: BrowserRequest, logger: Logger) async throws -> BrowserAnswer {
        switch try await loadedForPost(input, logger: logger) {
        case .failure(let page): return page.answer
        case .success(let loaded):
            return .errorPage(loaded.pending.language, status: .forbidden, message: .formExpired)
        }
    }
}

/// An error page as a `Result` failure.
struct PageAnswer: Error {
    let answer: BrowserAnswer
    init(_ answer: BrowserAnswer) { self.answer = answer }
}
