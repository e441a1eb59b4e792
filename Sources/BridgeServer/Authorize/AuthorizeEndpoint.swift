import BridgeStore
import Foundation
import Hummingbird
import Logging
import SignInProtocol

/// `GET` and `POST /oauth2/authorize` (RFC 6749 §3.1: both must be supported). Runs the checks, keeps the accepted
/// request server side under an unguessable id, and continues with the sign-in step.
struct AuthorizeEndpoint: Sendable {
    let environment: AuthorizeEnvironment
    let interaction: InteractionEndpoints

    func handle(_ request: Request, _ context: BridgeRequestContext) async throws -> Response {
        let postedForm = request.method == .post ? await environment.postedForm(request) : nil
        switch decide(request, postedForm: postedForm, logger: context.logger) {
        case .answer(let response): return response
        case .start(let pending): return try await start(pending, request, context)
        }
    }

    enum Decision {
        case answer(Response)
        case start(PendingAuthorization)
    }

    /// The request's parameters through the checks, outside `handle`: an async function's frame holds every temporary
    /// of its body while the request runs, and a connection keeps its deepest frames while it is open (3,136 bytes
    /// when this was inlined there).
    @inline(never)
    func decide(_ request: Request, postedForm: FormParameters?, logger: Logger) -> Decision {
        let parameters: FormParameters
        let fallbackLanguage = PageLanguage.negotiate(culture: nil, acceptLanguage: request.headers[.acceptLanguage])
        if request.method == .post {
            guard let form = postedForm else {
                return .answer(
                    environment.pages.error(
                        fallbackLanguage, status: .badRequest, message: \.errorLead,
                        oauthError: .invalidRequest("the body must be application/x-www-form-urlencoded")))
            }
            parameters = form
        } else {
            do {
                parameters = try FormParameters.decode(request.uri.query ?? "")
            } catch {
                return .answer(
                    environment.pages.error(
                        fallbackLanguage, status: .badRequest, message: \.errorLead,
                        oauthError: .invalidRequest(error.description)))
            }
        }
        let language = PageLanguage.negotiate(
            culture: parameters.value(forCaseInsensitive: "rs"), acceptLanguage: request.headers[.acceptLanguage])

        switch environment.pipeline.evaluate(parameters) {
        case .showError(let error):
            logger.info("authorize refused", metadata: ["error": .string(error.code.rawValue)])
            return .answer(
                environment.pages.error(
                    language, status: .init(code: error.httpStatus == 401 ? 400 : error.httpStatus), message: \.errorLead,
                    oauthError: error))
        case .redirectError(let location, let error):
            logger.info("authorize error redirected", metadata: ["error": .string(error.code.rawValue)])
            return .answer(AuthorizeEnvironment.redirect(to: location, after: request.method))
        case .accepted(let draft):
            return .start(PendingAuthorization(draft, language: language))
        }
    }

    /// One store call: finishes at once for a browser whose session and consent suffice, else parks the request
    /// bound to this browser and shows the first step.
    func start(_ pending: PendingAuthorization, _ request: Request, _ context: BridgeRequestContext) async throws -> Response {
        guard let client = environment.client(id: pending.clientID) else {
            return environment.pages.error(pending.language, status: .badRequest, message: \.expired)
        }
        var newCookies: [Cookie] = []
        let browserSecret: String
        if let existing = environment.cookies.browserSecret(in: request) {
            browserSecret = existing
        } else {
            browserSecret = SecretToken().value
            newCookies.append(environment.cookies.browser(browserSecret))
        }
        let id = SecretToken().value
        let now = environment.now()
        let record = PendingAuthorizationRecord(
            digest: TokenDigest(of: id), clientID: pending.clientID, browserDigest: TokenDigest(of: browserSecret),
            csrfDigest: TokenDigest(of: CSRFToken.derive(browserSecret: browserSecret, interactionID: id)),
            payload: try pending.encoded(), terms: pending.terms(client: client, requestedAt: now), createdAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(environment.configuration.authorize.requestLifetimeSeconds)))
        let (code, issue) = interaction.completion.newCode(at: now)
        let progress = try await environment.store.startAuthorization(
            record, session: interaction.sessionDigest(request), issue: issue, park: !pending.showsNoPages, at: now)
        var response = try await interaction.respond(
            to: progress, code: code,
            parked: ParkedInteraction(id: id, pending: pending, client: client, browserSecret: browserSecret),
            method: request.method, logger: context.logger)
        for cookie in newCookies { response.setCookie(cookie) }
        return response
    }
}
