import BridgeHTTP
import BridgeStore
import Foundation
import Logging
import SignInProtocol

/// What the host's app sends to read a parked request: its bearer credential and the deep link's `reference`.
struct AppToAppDetailsRequest: Sendable {
    var authorization: String?
    var reference: String?
}

/// What the host's app sends to decide a parked request: its bearer credential and the body, or why it could not
/// be read.
struct AppToAppDecisionRequest: Sendable {
    var authorization: String?
    var body: Result<String, RequestBodyError>
}

/// What the browser brings to `resume_uri`: the `token` of the query and its browser cookie's secret.
struct AppToAppResumeRequest: Sendable {
    var token: String?
    var browserSecret: String?
}

/// What the decision endpoint answers the host's app: the merchant app's callback (`app_to_app`), or the merchant's
/// `redirect_uri` with the code or the error (Simple Login, `app_to_app_v2`).
enum AppToAppDecisionAnswer: Sendable, Hashable {
    case callback(AppToAppApprovalAnswer)
    case redirect(AppToAppRedirectAnswer)

    var json: String {
        switch self {
        case .callback(let answer): answer.json
        case .redirect(let answer): answer.json
        }
    }
}

/// The approved request goes on in the browser that parked it, signed in with a new session.
struct AppToAppResumed: Sendable, Equatable {
    /// The interaction to continue (consent if needed, then the code).
    var interactionID: String
    /// The new browser session's secret, for the session cookie.
    var session: String
}

/// Why `resume_uri` does not continue; each is a page.
enum AppToAppResumeRefusal: Error, Sendable, Equatable {
    /// Unknown, expired, or not a resume token: 400.
    case expired
    /// Opened in a browser other than the one that parked the request: 403.
    case otherBrowser
    /// Used already: 400.
    case alreadyUsed
    /// The store could not be asked: 503.
    case storeUnavailable
    /// The server's own fault (a store fault that is not an outage): 500, said as nothing more.
    case serverFault
}

extension AppToAppResumeRefusal: StoreCallFailure {
    init(_ outage: StoreUnavailable) { self = .storeUnavailable }
    init(storeFault: any Error) { self = .serverFault }
}

/// The provider side of the app-to-app flow after the parked page (`AppToAppWaitStep`):
/// - `GET /oauth2/app-to-app/request?reference=…`: the host's app reads who asks and for what (`AppToAppRequestDetails`);
/// - `POST /oauth2/app-to-app/decision`: the host's app, with its own first-party access token, approves or denies
///   the request behind a deep link's reference, and gets the URL it opens next (`AppToAppApprovalAnswer`);
/// - `GET /oauth2/app-to-app/resume?token=…`: the `resume_uri`, opened in the browser that parked the request,
///   signs that browser in as the approving user and continues the interaction (consent if needed, then the code);
/// - `GET /app-to-app`: what a browser shows when the default deep link opens without the app (a page; for a Simple
///   Login reference, the sign-in page of its parked request: `landing`).
/// Values in, values or a typed refusal out; the routes are in `OpenIDRoutes+AppToApp.swift`.
struct AppToAppEndpoints: Sendable {
    static let decisionPath = "/oauth2/app-to-app/decision"
    static let resumePath = "/oauth2/app-to-app/resume"
    static let landingPath = "/app-to-app"
    static let detailsPath = "/oauth2/app-to-app/request"

    let configuration: BridgeConfiguration
    /// The parked references: read, decided, resumed, or approved as a Simple Login.
    let store: any AppToAppStore
    /// Drafts a Simple Login's code and its redirect.
    let issuance: CodeIssuance
    let bearer: BearerTokenCheck
    let now: @Sendable () -> Date

    /// The approving app as its bearer token names it: the user it is signed in as and the clients whose requests
    /// it may decide; or the RFC 6750 answer that refuses it.
    struct Approver {
        let verified: VerifiedAccessToken
        let approvable: [String]
    }

    func approver(authorization: String?, at now: Date) async throws(BearerRefusal) -> Approver {
        let verified = try await bearer.verified(authorization: authorization, at: now)
        let client = verified.grant.clientID
        let approvable = configuration.clients.filter { ($0.appToAppApprovers ?? []).contains(client) }.map(\.id)
        guard !verified.grant.userID.isEmpty, !approvable.isEmpty else {
            throw .insufficientScope("this client may not approve app-to-app requests")
        }
        return Approver(verified: verified, approvable: approvable)
    }

    /// `GET /oauth2/app-to-app/request?reference=…`: what the host's app shows before the user decides. Reading
    /// uses nothing up; an unknown, decided or expired reference is `invalid_request`.
    func details(_ request: AppToAppDetailsRequest) async throws(BearerRefusal) -> AppToAppRequestDetails {
        let now = self.now()
        let caller = try await approver(authorization: request.authorization, at: now)
        guard let reference = request.reference.nonEmpty else {
            throw .request(.invalidRequest("required parameter 'reference' is missing"))
        }
        let record = try await callStore(failingAs: BearerRefusal.self) {
            try await store.undecidedAppToApp(TokenDigest(of: reference), at: now)
        }
        guard let record, let payload = try? AppToAppPayload.decode(record.payload) else {
            throw .request(.invalidRequest("the reference is unknown, used or expired"))
        }
        guard caller.approvable.contains(record.clientID), let client = configuration.client(id: record.clientID) else {
            throw .insufficientScope("this client may not approve the requesting client's requests")
        }
        return AppToAppRequestDetails(
            clientID: client.id, clientName: client.displayName, scope: payload.scope ?? "",
            expiresIn: max(0, Int(record.expiresAt.timeIntervalSince(now).rounded(.down))))
    }

    /// `POST /oauth2/app-to-app/decision`: the host's app approves or denies; the answer says which URL it opens.
    /// A Simple Login request's approval ends in the code (`approveSimpleLogin`); every other decision is one
    /// `decideAppToApp`.
    func decide(
        _ request: AppToAppDecisionRequest, logger: Logger = Logger(label: "app-to-app")
    ) async throws(BearerRefusal) -> AppToAppDecisionAnswer {
        let now = self.now()
        let caller = try await approver(authorization: request.authorization, at: now)
        let body: String
        switch request.body {
        case .success(let text): body = text
        case .failure(let error): throw .request(error.oauthError)
        }
        let approval: AppToAppApproval
        do {
            approval = try AppToAppApproval.decode(body)
        } catch {
            throw .request(error.oauthError)
        }
        if approval.decision == .approve, try await isSimpleLogin(reference: approval.reference, at: now) {
            return .redirect(try await approveSimpleLogin(approval.reference, by: caller, at: now, logger: logger))
        }
        let resume = SecretToken()
        let decision: AppToAppDecision =
            approval.decision == .approve ? .approve(userID: caller.verified.grant.userID, resume: resume.digest) : .deny
        let outcome = try await callStore(failingAs: BearerRefusal.self) {
            try await store.decideAppToApp(
                TokenDigest(of: approval.reference), decision: decision, clientIDs: caller.approvable, at: now)
        }
        switch outcome {
        case .decided(let record):
            guard let payload = try? AppToAppPayload.decode(record.payload) else {
                throw .request(.invalidRequest("the reference is unknown"))
            }
            guard let appCallbackURI = payload.appCallbackURI else { return .redirect(deniedSimpleLogin(payload)) }
            let resumeURI = configuration.issuerURL(path: Self.resumePath) + "?token=" + resume.value
            // RFC 9207 §2: the callback ends the request with an error or hands it on, so it names its issuer too.
            var issuer = FormParameters()
            issuer.append("iss", configuration.issuer)
            let callback = AppCallback(
                callbackURI: appCallbackURI, state: payload.state ?? "",
                outcome: approval.decision == .approve
                    ? .approved(resumeURI: resumeURI)
                    : .failed(OAuthError(.accessDenied, description: "the user denied the request in the app")),
                additionalParameters: issuer)
            return .callback(AppToAppApprovalAnswer(callback: callback))
        case .alreadyDecided: throw Self.alreadyUsed
        case .expired: throw Self.expired
        case .unknown: throw Self.unknown
        case .notAllowed: throw Self.notAllowed
        }
    }

    static let alreadyUsed = BearerRefusal.request(.invalidRequest("the reference was already used"))
    static let expired = BearerRefusal.request(.invalidRequest("the reference has expired"))
    static let unknown = BearerRefusal.request(.invalidRequest("the reference is unknown"))
    static let notAllowed = BearerRefusal.insufficientScope("this client may not approve the requesting client's requests")

    /// `GET /oauth2/app-to-app/resume?token=…`: one store step checks the token and the browser, and starts the
    /// approving user's session in it.
    func resume(_ request: AppToAppResumeRequest, logger: Logger) async throws(AppToAppResumeRefusal) -> AppToAppResumed {
        guard let token = BrowserCookies.secret(request.token) else { throw .expired }
        let now = self.now()
        let session = SecretToken()
        let lifetime = TimeInterval(configuration.signIn.sessionLifetimeSeconds)
        let outcome = try await callStore(failingAs: AppToAppResumeRefusal.self) {
            try await store.resumeAppToApp(
                TokenDigest(of: token), browser: request.browserSecret.map { TokenDigest(of: $0) },
                session: session.digest, sessionExpiresAt: now.addingTimeInterval(lifetime), at: now)
        }
        switch outcome {
        case .resumed(let record):
            guard let payload = try? AppToAppPayload.decode(record.payload) else { throw .expired }
            logger.info("app-to-app request resumed", metadata: ["client": .string(record.clientID)])
            return AppToAppResumed(interactionID: payload.interactionID, session: session.value)
        case .otherBrowser:
            logger.notice("app-to-app resume from another browser")
            throw .otherBrowser
        case .alreadyUsed:
            throw .alreadyUsed
        case .expired, .unknown:
            throw .expired
        }
    }
}
