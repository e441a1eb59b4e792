import BridgeStore
import Foundation
import Logging
import SignInProtocol

/// `GET` and `POST /oauth2/authorize` (RFC 6749 §3.1: both must be supported). Runs the checks, keeps the accepted
/// request server side under an unguessable id, and continues with the sign-in step. Takes the route's
/// `BrowserRequest`, answers a `BrowserAnswer`.
struct AuthorizeEndpoint: Sendable {
    let environment: AuthorizeEnvironment
    let interaction: InteractionEndpoints
    let pushed: PushedAuthorizationEndpoint

    func respond(_ input: BrowserRequest, logger: Logger) async throws -> BrowserAnswer {
        switch decide(input, logger: logger) {
        case .answer(let answer): return answer
        case .start(let pending): return try await start(pending, input, logger: logger)
        case .takePushed(let requestURI, let clientID, let language):
            switch try await pushed.take(requestURI: requestURI, clientID: clientID) {
            case .failure(let error):
                logger.info("authorize refused", metadata: ["error": .string(error.code.rawValue)])
                return .errorPage(language, status: .badRequest, message: .errorLead, oauthError: error)
            case .success(let parameters):
                switch decide(parameters, input, pushed: true, logger: logger) {
                case .answer(let answer): return answer
                case .start(let pending): return try await start(pending, input, logger: logger)
                case .takePushed: return .errorPage(language, status: .badRequest, message: .errorLead)
                }
            }
        }
    }

    enum Decision {
        case answer(BrowserAnswer)
        case start(PendingAuthorization)
        /// RFC 9126 §4: the request is behind this `request_uri`.
        case takePushed(requestURI: String, clientID: String?, language: PageLanguage)
    }

    /// The request's parameters through the checks, outside `respond`: an async function's frame holds every
    /// temporary of its body while the request runs, and a connection keeps its deepest frames while it is open
    /// (3,136 bytes when this was inlined there).
    @inline(never)
    func decide(_ input: BrowserRequest, logger: Logger) -> Decision {
        let parameters: FormParameters
        switch input.form {
        case .success(let form):
            parameters = form
        case .failure(let error):
            return .answer(.unreadableForm(error, language: input.fallbackLanguage, message: .errorLead))
        case nil:
            do {
                parameters = try FormParameters.decode(input.query ?? "")
            } catch {
                return .answer(
                    .errorPage(
                        input.fallbackLanguage, status: .badRequest, message: .errorLead,
                        oauthError: .invalidRequest(error.description)))
            }
        }
        return decide(parameters, input, pushed: false, logger: logger)
    }

    /// `pushed`: the parameters were taken from a pushed request (RFC 9126 §4), which is never pushed again.
    @inline(never)
    func decide(_ parameters: FormParameters, _ input: BrowserRequest, pushed: Bool, logger: Logger) -> Decision {
        let language = PageLanguage.negotiate(
            culture: parameters.value(forCaseInsensitive: "rs"), acceptLanguage: input.acceptLanguage)
        if !pushed {
            if let requestURI = parameters["request_uri"] {
                return .takePushed(requestURI: requestURI, clientID: parameters["client_id"], language: language)
            }
            if self.pushed.isRequired(for: parameters["client_id"]) {
                // RFC 9126 §5: without a pushed request, the request is refused (a page: nothing is trusted yet).
                logger.info("authorize refused", metadata: ["error": "invalid_request"])
                return .answer(
                    .errorPage(
                        language, status: .badRequest, message: .errorLead,
                        oauthError: .invalidRequest("this client must use pushed authorization requests (RFC 9126)")))
            }
        }
        switch environment.pipeline.evaluate(parameters) {
        case .showError(let error):
            logger.info("authorize refused", metadata: ["error": .string(error.code.rawValue)])
            return .answer(
                .errorPage(
                    language, status: .init(code: error.httpStatus == 401 ? 400 : error.httpStatus), message: .errorLead,
                    oauthError: error))
        case .redirectError(let location, let error):
            logger.info("authorize error redirected", metadata: ["error": .string(error.code.rawValue)])
            return .answer(.redirect(location))
        case .accepted(let draft):
            return .start(PendingAuthorization(draft, language: language))
        }
    }

    /// One store call: finishes at once for a browser whose session and consent suffice, else parks the request
    /// bound to this browser and shows the first step.
    func start(_ pending: PendingAuthorization, _ input: BrowserRequest, logger: Logger) async throws -> BrowserAnswer {
        guard let client = environment.client(id: pending.clientID) else {
            return .errorPage(pending.language, status: .badRequest, message: .expired)
        }
        let browserSecret = input.browserSecret ?? SecretToken().value
        let id = SecretToken().value
        let now = environment.now()
        let record = PendingAuthorizationRecord(
            digest: TokenDigest(of: id), clientID: pending.clientID, browserDigest: TokenDigest(of: browserSecret),
            csrfDigest: TokenDigest(of: CSRFToken.derive(browserSecret: browserSecret, interactionID: id)),
            payload: try pending.encoded(), terms: pending.terms(client: client, requestedAt: now), createdAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(environment.configuration.authorize.requestLifetimeSeconds)))
        let (code, issue) = interaction.completion.newCode(at: now)
        let progress = try await callStore {
            try await environment.store.startAuthorization(
                record, session: input.sessionSecret.map { TokenDigest(of: $0) }, issue: issue, park: !pending.showsNoPages,
                at: now)
        }
        var answer = try await interaction.respond(
            to: progress, code: code,
            parked: ParkedInteraction(id: id, pending: pending, client: client, browserSecret: browserSecret),
            logger: logger)
        if input.browserSecret == nil { answer.cookies.append(.browser(browserSecret)) }
        return answer
    }
}
