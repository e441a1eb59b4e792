/// What the provider's app (Vipps, MobilePay) sends to the merchant app's `app_callback_uri` after the user
/// approved or failed (Vipps Login app-to-app docs, step 4): `state` plus `resume_uri`, or `state` plus `error`.
///
/// The merchant app then shows the browser tab it started, or opens `resume_uri` in that same tab (it holds
/// the cookies of the login); the code arrives later, at `redirect_uri`.
public struct AppCallback: Sendable, Hashable {
    public enum Outcome: Sendable, Hashable {
        /// The user approved in the provider's app. `resumeURI` continues the login in the original browser;
        /// nil when the provider sent none (the app then shows the tab it kept open).
        case approved(resumeURI: String?)
        /// The provider reports an error (Vipps sends codes such as `unknown_error`).
        case failed(OAuthError)
    }

    /// The callback URI the provider opened, without its query (`merchantapp://app-callback`).
    public var callbackURI: String
    /// The `state` of the authorization request, to find the login it belongs to.
    public var state: String
    public var outcome: Outcome
    /// Other parameters, in order.
    public var additionalParameters: FormParameters

    public init(callbackURI: String, state: String, outcome: Outcome, additionalParameters: FormParameters = FormParameters()) {
        self.callbackURI = callbackURI
        self.state = state
        self.outcome = outcome
        self.additionalParameters = additionalParameters
    }

    public var resumeURI: String? {
        if case .approved(let uri) = outcome { uri } else { nil }
    }

    public var error: OAuthError? {
        if case .failed(let error) = outcome { error } else { nil }
    }

    static let known = ["state", "resume_uri", "error", "error_description", "error_uri"]

    // MARK: Decoding

    /// Parses the URL the app was opened with. Tolerates the Vipps iOS integration guide's error form, where the provider joins
    /// `error` with a second `?` (`?state=…?error=unknown_error`).
    public static func decode(url: String, limit: InputLimit = .default) throws(OAuthDecodingError) -> AppCallback {
        do { try limit.check(url, what: "app callback URL") } catch { throw .tooLarge(error) }
        let parts = URIComponents(url)
        guard let query = parts.query else { throw .missingParameter("state") }
        var base = parts
        base.query = nil
        base.fragment = nil
        let offset = url.utf8.distance(from: url.utf8.startIndex, to: query.startIndex)
        var form = try FormParameters.decodeForOAuth(query, limit: limit, baseOffset: offset, what: "app callback")
        form = try splitJoinedError(form, query: query, offset: offset, limit: limit)
        try form.rejectDuplicates(of: known)
        let state = try form.required("state")
        let outcome: Outcome
        if let error = try OAuthError.decode(from: form) {
            outcome = .failed(error)
        } else {
            outcome = .approved(resumeURI: form["resume_uri"].nonEmpty)
        }
        return AppCallback(
            callbackURI: base.description, state: state, outcome: outcome,
            additionalParameters: form.excluding(Set(known)))
    }

    /// Seed 000 shows `state=218gz…?error=unknown_error`: when the raw `state` segment holds `?error=`, the part
    /// after that `?` is read as more parameters. Only `state` is split, because an unencoded `resume_uri`
    /// legitimately contains `?` (`…/index.html?tabid=…`).
    static func splitJoinedError(
        _ form: FormParameters, query: Substring, offset: Int, limit: InputLimit
    ) throws(OAuthDecodingError) -> FormParameters {
        guard let state = form["state"], let joint = state.range(of: "?error=") else { return form }
        guard let rawState = query.split(separator: "&").first(where: { $0.hasPrefix("state=") }),
            let rawJoint = rawState.range(of: "?error=")
        else { return form }
        let tailOffset = offset + query.utf8.distance(from: query.startIndex, to: rawJoint.lowerBound) + 1
        let tail = try FormParameters.decodeForOAuth(
            rawState[rawState.index(after: rawJoint.lowerBound)...], limit: limit, baseOffset: tailOffset,
            what: "app callback")
        var result = FormParameters()
        for pair in form.pairs {
            if pair.name == "state" && pair.value == state {
                result.append("state", String(state[..<joint.lowerBound]))
                result.append(contentsOf: tail)
            } else {
                result.append(pair.name, pair.value)
            }
        }
        return result
    }

    // MARK: Encoding

    /// `state` first, then `resume_uri` or the error, then the others, percent-encoded (unlike the Vipps iOS integration guide's
    /// example, which leaves `resume_uri` unencoded).
    public var parameters: FormParameters {
        var form = FormParameters()
        form.append("state", state)
        switch outcome {
        case .approved(let resumeURI): form.append("resume_uri", resumeURI.nonEmpty)
        case .failed(let error): form.append(contentsOf: error.parameters)
        }
        form.append(contentsOf: additionalParameters)
        return form
    }

    /// The callback URL the provider opens.
    public var url: String { URIComponents.appending(parameters, to: callbackURI) }
}

// MARK: JSON form (the CLI prints this)

extension AppCallback: Codable {
    enum CodingKeys: String, CodingKey {
        case callbackURI = "callback_uri", state, resumeURI = "resume_uri", error
        case additionalParameters = "additional_parameters"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let outcome: Outcome =
            container.contains(.error)
            ? .failed(try OAuthError(from: decoder))
            : .approved(resumeURI: try container.decodeIfPresent(String.self, forKey: .resumeURI))
        self.init(
            callbackURI: try container.decode(String.self, forKey: .callbackURI),
            state: try container.decode(String.self, forKey: .state), outcome: outcome,
            additionalParameters: try container.decodeIfPresent(NamedValues.self, forKey: .additionalParameters)?.form
                ?? FormParameters())
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(callbackURI, forKey: .callbackURI)
        try container.encode(state, forKey: .state)
        switch outcome {
        case .approved(let resumeURI): try container.encodeIfPresent(resumeURI, forKey: .resumeURI)
        case .failed(let error): try error.encode(to: encoder)
        }
        if !additionalParameters.isEmpty {
            try container.encode(NamedValues(additionalParameters), forKey: .additionalParameters)
        }
    }
}
