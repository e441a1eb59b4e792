/// The provider side of the app-to-app flow (Vipps Login app-to-app docs, with the host's own app in the
/// provider's seat): the link the parked browser page offers, the host app's decision, and the server's answer.

/// The deep link on the parked page that opens the host's app: its base URI plus `reference`, an unguessable,
/// single-use, short-lived reference to the parked request (never the request itself).
public struct AppToAppDeepLink: Sendable, Hashable {
    /// The link without the reference (`https://files.example.com/app-to-app`, `com.example.files:/app-to-app`).
    public var base: String
    public var reference: String

    public init(base: String, reference: String) {
        self.base = base
        self.reference = reference
    }

    public var url: String {
        var form = FormParameters()
        form.append("reference", reference)
        return form.appended(to: base)
    }

    /// Reads the link the host's app was opened with.
    public static func decode(url: String, limit: InputLimit = .default) throws(OAuthDecodingError) -> AppToAppDeepLink {
        do { try limit.check(url, what: "app-to-app link") } catch { throw .tooLarge(error) }
        let parts = URIComponents(url)
        guard let query = parts.query else { throw .missingParameter("reference") }
        let offset = url.utf8.distance(from: url.utf8.startIndex, to: query.startIndex)
        let form = try FormParameters.decodeForOAuth(query, limit: limit, baseOffset: offset, what: "app-to-app link")
        try form.rejectDuplicates(of: ["reference"])
        var base = parts
        base.query = nil
        base.fragment = nil
        let reference = try form.required("reference")
        // Other parameters of the configured link stay part of its base.
        return AppToAppDeepLink(base: form.excluding(["reference"]).appended(to: base.description), reference: reference)
    }
}

/// What the host's app posts to the approval endpoint (`application/x-www-form-urlencoded`, with its own
/// first-party access token as `Authorization: Bearer`): the reference from the deep link and the user's answer.
public struct AppToAppApproval: Sendable, Hashable {
    public enum Decision: String, Sendable, Hashable {
        case approve
        case deny
    }

    public var reference: String
    public var decision: Decision

    public init(reference: String, decision: Decision) {
        self.reference = reference
        self.decision = decision
    }

    public var parameters: FormParameters {
        var form = FormParameters()
        form.append("reference", reference)
        form.append("decision", decision.rawValue)
        return form
    }

    /// The form body.
    public var body: String { parameters.encoded }

    public static func decode(_ body: String, limit: InputLimit = .default) throws(OAuthDecodingError) -> AppToAppApproval {
        let form = try FormParameters.decodeForOAuth(body, limit: limit, what: "app-to-app approval")
        try form.rejectDuplicates(of: ["reference", "decision"])
        let reference = try form.required("reference")
        let value = try form.required("decision")
        guard let decision = Decision(rawValue: value) else {
            throw .invalidParameter("decision", reason: "must be 'approve' or 'deny'")
        }
        return AppToAppApproval(reference: reference, decision: decision)
    }
}

/// The approval endpoint's answer: the URL the host's app opens next, `app_callback_uri?state=…&resume_uri=…` or
/// `app_callback_uri?state=…&error=…` (an `AppCallback`), as JSON `{"app_callback_url": …}`.
public struct AppToAppApprovalAnswer: Sendable, Hashable, Codable {
    public var appCallbackURL: String

    enum CodingKeys: String, CodingKey { case appCallbackURL = "app_callback_url" }

    public init(callback: AppCallback) { appCallbackURL = callback.url }

    public init(appCallbackURL: String) { self.appCallbackURL = appCallbackURL }

    /// The callback, decoded as the merchant app will decode it.
    public func callback(limit: InputLimit = .default) throws(OAuthDecodingError) -> AppCallback {
        try AppCallback.decode(url: appCallbackURL, limit: limit)
    }

    public var json: String { JSONBody.encode(self) }

    public static func decode(json: some StringProtocol, limit: InputLimit = .default) throws(OAuthDecodingError) -> AppToAppApprovalAnswer {
        try JSONBody.decode(AppToAppApprovalAnswer.self, from: json, limit: limit, what: "app-to-app approval answer")
    }
}

/// What the host's app shows before the user decides (`GET` with the reference and its own access token): which
/// client asks, for which scope, and for how much longer the reference can be decided.
public struct AppToAppRequestDetails: Sendable, Hashable, Codable {
    public var clientID: String
    public var clientName: String
    /// Space-separated scopes the merchant asked for.
    public var scope: String
    /// Seconds until the reference expires.
    public var expiresIn: Int

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id", clientName = "client_name", scope, expiresIn = "expires_in"
    }

    public init(clientID: String, clientName: String, scope: String, expiresIn: Int) {
        self.clientID = clientID
        self.clientName = clientName
        self.scope = scope
        self.expiresIn = expiresIn
    }

    public var json: String { JSONBody.encode(self) }

    public static func decode(json: some StringProtocol, limit: InputLimit = .default) throws(OAuthDecodingError) -> AppToAppRequestDetails {
        try JSONBody.decode(AppToAppRequestDetails.self, from: json, limit: limit, what: "app-to-app request details")
    }
}
