import BridgeStore
import Foundation
import Hummingbird
import SignInProtocol

/// The provider side of the app-to-app flow after the parked page (`AppToAppWaitStep`):
/// - `GET /oauth2/app-to-app/request?reference=…`: the host's app reads who asks and for what (`AppToAppRequestDetails`);
/// - `POST /oauth2/app-to-app/decision`: the host's app, with its own first-party access token, approves or denies
///   the request behind a deep link's reference, and gets the URL it opens next (`AppToAppApprovalAnswer`);
/// - `GET /oauth2/app-to-app/resume?token=…`: the `resume_uri`, opened in the browser that parked the request,
///   signs that browser in as the approving user and continues the interaction (consent if needed, then the code);
/// - `GET /app-to-app`: what a browser shows when the default deep link opens without the app.
struct AppToAppEndpoints: Sendable {
    static let decisionPath = "/oauth2/app-to-app/decision"
    static let resumePath = "/oauth2/app-to-app/resume"
    static let landingPath = "/app-to-app"
    static let detailsPath = "/oauth2/app-to-app/request"

    let environment: AuthorizeEnvironment
    let bearer: BearerTokenCheck
    let challenge: BearerChallenge

    /// The approving app as its bearer token names it: the user it is signed in as and the clients whose requests
    /// it may decide; or the RFC 6750 answer that refuses it.
    struct Approver {
        let verified: VerifiedAccessToken
        let approvable: [String]
    }

    func approver(_ request: Request, at now: Date) async throws(BearerRefusal) -> Approver {
        let verified = try await bearer.verified(authorization: request.headers[.authorization], at: now)
        let client = verified.grant.clientID
        let approvable = environment.configuration.clients.filter { ($0.appToAppApprovers ?? []).contains(client) }.map(\.id)
        guard !verified.grant.userID.isEmpty, !approvable.isEmpty else {
            throw .insufficientScope("this client may not approve app-to-app requests")
        }
        return Approver(verified: verified, approvable: approvable)
    }

    /// `GET /oauth2/app-to-app/request?reference=…`: what the host's app shows before the user decides. Reading
    /// uses nothing up; an unknown, decided or expired reference is `invalid_request`.
    func details(_ request: Request) async -> Response {
        let now = environment.now()
        let caller: Approver
        do throws(BearerRefusal) {
            caller = try await approver(request, at: now)
        } catch {
            return challenge.response(error)
        }
        let query = (try? FormParameters.decode(request.uri.query ?? "")) ?? FormParameters()
        guard let reference = query["reference"].nonEmpty else {
            return refusal(.invalidRequest("required parameter 'reference' is missing"))
        }
        let record: AppToAppRequestRecord?
        do {
            record = try await environment.store.undecidedAppToApp(TokenDigest(of: reference), at: now)
        } catch {
            return challenge.response(.storeUnavailable)
        }
        guard let record, let payload = try? AppToAppPayload.decode(record.payload) else {
            return refusal(.invalidRequest("the reference is unknown, used or expired"))
        }
        guard caller.approvable.contains(record.clientID), let client = environment.client(id: record.clientID) else {
            return challenge.response(.insufficientScope("this client may not approve the requesting client's requests"))
        }
        let details = AppToAppRequestDetails(
            clientID: client.id, clientName: client.displayName, scope: payload.scope ?? "",
            expiresIn: max(0, Int(record.expiresAt.timeIntervalSince(now).rounded(.down))))
        return OAuthHTTPResponse.json(Array(details.json.utf8))
    }

    func decide(_ request: Request) async -> Response {
        let configuration = environment.configuration
        let now = environment.now()
        let verified: VerifiedAccessToken
        let approvable: [String]
        do throws(BearerRefusal) {
            let found = try await approver(request, at: now)
            (verified, approvable) = (found.verified, found.approvable)
        } catch {
            return challenge.response(error)
        }
        let approval: AppToAppApproval
        do throws(RequestBodyError) {
            let body = try await RequestBodyReader(configuration).text(request)
            do {
                approval = try AppToAppApproval.decode(body)
            } catch {
                return refusal(error.oauthError)
            }
        } catch {
            return refusal(error.oauthError)
        }
        let resume = SecretToken()
        let decision: AppToAppDecision =
            approval.decision == .approve ? .approve(userID: verified.grant.userID, resume: resume.digest) : .deny
        let outcome: AppToAppDecisionOutcome
        do {
            outcome = try await environment.store.decideAppToApp(
                TokenDigest(of: approval.reference), decision: decision, clientIDs: approvable, at: now)
        } catch {
            return challenge.response(.storeUnavailable)
        }
        switch outcome {
        case .decided(let record):
            guard let payload = try? AppToAppPayload.decode(record.payload) else {
                return refusal(.invalidRequest("the reference is unknown"))
            }
            let resumeURI = configuration.issuerURL(path: Self.resumePath) + "?token=" + resume.value
            let callback = AppCallback(
                callbackURI: payload.appCallbackURI, state: payload.state ?? "",
                outcome: approval.decision == .approve
                    ? .approved(resumeURI: resumeURI)
                    : .failed(OAuthError(.accessDenied, description: "the user denied the request in the app")))
            return OAuthHTTPResponse.json(Array(AppToAppApprovalAnswer(callback: callback).json.utf8))
        case .alreadyDecided: return refusal(.invalidRequest("the reference was already used"))
        case .expired: return refusal(.invalidRequest("the reference has expired"))
        case .unknown: return refusal(.invalidRequest("the reference is unknown"))
        case .notAllowed:
            return challenge.response(.insufficientScope("this client may not approve the requesting client's requests"))
        }
    }

    private func refusal(_ error: OAuthError) -> Response {
        challenge.response(.request(error))
    }

    func resume(_ request: Request, _ context: BridgeRequestContext) async throws -> Response {
        let language = PageLanguage.negotiate(culture: nil, acceptLanguage: request.headers[.acceptLanguage])
        let query = (try? FormParameters.decode(request.uri.query ?? "")) ?? FormParameters()
        guard let token = BrowserCookies.secret(query["token"]) else {
            return environment.pages.error(language, status: .badRequest, message: \.expired)
        }
        let now = environment.now()
        let session = SecretToken()
        let lifetime = TimeInterval(environment.configuration.signIn.sessionLifetimeSeconds)
        let outcome = try await environment.store.resumeAppToApp(
            TokenDigest(of: token), browser: environment.cookies.browserSecret(in: request).map { TokenDigest(of: $0) },
            session: session.digest, sessionExpiresAt: now.addingTimeInterval(lifetime), at: now)
        switch outcome {
        case .resumed(let record):
            guard let payload = try? AppToAppPayload.decode(record.payload) else {
                return environment.pages.error(language, status: .badRequest, message: \.expired)
            }
            context.logger.info("app-to-app request resumed", metadata: ["client": .string(record.clientID)])
            var response = AuthorizeEnvironment.redirect(
                to: AuthorizeEnvironment.interactionPath(payload.interactionID), after: .get)
            response.setCookie(environment.cookies.session(session.value))
            return response
        case .otherBrowser:
            context.logger.notice("app-to-app resume from another browser")
            return environment.pages.error(language, status: .forbidden, message: \.otherBrowser)
        case .alreadyUsed:
            return environment.pages.error(language, status: .badRequest, message: \.resumeUsed)
        case .expired, .unknown:
            return environment.pages.error(language, status: .badRequest, message: \.expired)
        }
    }

    func landing(_ request: Request) -> Response {
        let language = PageLanguage.negotiate(culture: nil, acceptLanguage: request.headers[.acceptLanguage])
        return environment.pages.notice(language, heading: \.parkedTitle, message: \.appToAppLanding)
    }
}
