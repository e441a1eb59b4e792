import SignInProtocol

/// What `url decode` prints: one of the five sign-in URLs, tagged with its `kind`, under the wire names.
enum URLReport: Encodable {
    case officeTo(OfficeToURL)
    case officeBack(OfficeBackURL)
    case appCallback(AppCallback)
    case authorizationResponse(AuthorizationResponse)
    case authorizationRequest(AuthorizationRequest)

    /// A URL that is none of the five, or one that breaks its kind's rules.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    var kind: String {
        switch self {
        case .officeTo: "office_to_url"
        case .officeBack: "office_back_url"
        case .appCallback: "app_callback"
        case .authorizationResponse: "authorization_response"
        case .authorizationRequest: "authorization_request"
        }
    }

    /// The five kinds, as `classify` tells them apart.
    enum Kind: String {
        case officeBack = "Office Back URL", officeTo = "Office To URL", appCallback = "app callback"
        case authorizationResponse = "authorization response", authorizationRequest = "authorization request"
    }

    /// Recognises a URL by its scheme and parameter names: an Office scheme is a Back URL; `app` with `action` is
    /// a To URL; `resume_uri`, or an `error` behind a second `?` (Vipps Login app-to-app docs), is an app callback; `code` or `error`
    /// is a redirect; `client_id` is an authorize request.
    static func classify(_ url: String) -> Kind? {
        guard let colon = url.firstIndex(of: ":") else { return nil }
        if OfficeApp(scheme: url[..<colon]) != nil { return .officeBack }
        let names = parameterNames(url)
        if names.contains("app") && names.contains("action") { return .officeTo }
        let afterFirstQuestionMark = url.firstIndex(of: "?").map { url[url.index(after: $0)...] } ?? ""
        if names.contains("resume_uri") || afterFirstQuestionMark.contains("?error=") { return .appCallback }
        if names.contains("code") || names.contains("error") { return .authorizationResponse }
        if names.contains("client_id") { return .authorizationRequest }
        return nil
    }

    /// Classifies, then decodes with the matching type, so that an error names the rule that kind breaks.
    static func decode(_ url: String) throws(Failure) -> URLReport {
        guard let kind = classify(url) else {
            throw Failure(description: "not a sign-in URL: expected an Office To or Back URL, an app callback (state, resume_uri), a redirect (code or error) or an authorize request (client_id)")
        }
        do {
            switch kind {
            case .officeBack: return .officeBack(try OfficeBackURL(url: url))
            case .officeTo: return .officeTo(try OfficeToURL(url: url))
            case .appCallback: return .appCallback(try AppCallback.decode(url: url))
            case .authorizationResponse: return .authorizationResponse(try AuthorizationResponse.decode(redirectURL: url))
            case .authorizationRequest: return .authorizationRequest(try AuthorizationRequest.decode(url: url))
            }
        } catch {
            throw Failure(description: "\(kind.rawValue): \(error)")
        }
    }

    /// The lower-cased parameter names of the query (after `?`, or after `scheme:` when there is no `?`), also
    /// those hidden behind a second `?` (the `state=…?error=…` form the Vipps iOS integration guide shows).
    static func parameterNames(_ url: String) -> Set<String> {
        var text = Substring(url)
        if let question = text.firstIndex(of: "?") {
            text = text[text.index(after: question)...]
        } else if let colon = text.firstIndex(of: ":") {
            text = text[text.index(after: colon)...]
        }
        if let hash = text.firstIndex(of: "#") { text = text[..<hash] }
        var names = Set<String>()
        for segment in text.split(whereSeparator: { $0 == "&" || $0 == "?" }) {
            let name = segment.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            names.insert(name.asciiLowercased())
        }
        return names
    }

    // MARK: JSON

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(kind, forKey: Key("kind"))
        switch self {
        case .officeTo(let to):
            try container.encode(to.scheme, forKey: Key("scheme"))
            try Self.encode(to.query.parameters, into: &container)
            try container.encode(to.action, forKey: Key("action"))
            try container.encodeIfPresent(to.query.officeApp?.scheme, forKey: Key("back_scheme"))
        case .officeBack(let back):
            try container.encode(back.app.scheme, forKey: Key("scheme"))
            try container.encode(back.app.rawValue, forKey: Key("app"))
            try Self.encode(back.result.parameters, into: &container)
            try Self.encode(back.otherParameters, into: &container)
            try container.encode(back.action, forKey: Key("action"))
        case .appCallback(let callback):
            try callback.encode(to: encoder)
        case .authorizationResponse(let response):
            try response.encode(to: encoder)
        case .authorizationRequest(let request):
            try request.encode(to: encoder)
        }
    }

    /// Parameters as JSON fields; a name seen twice keeps its first value (the decoders refuse defined duplicates).
    private static func encode(_ form: FormParameters, into container: inout KeyedEncodingContainer<Key>) throws {
        var seen = Set<String>()
        for pair in form where seen.insert(pair.name).inserted && pair.name != "kind" {
            try container.encode(pair.value, forKey: Key(pair.name))
        }
    }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
