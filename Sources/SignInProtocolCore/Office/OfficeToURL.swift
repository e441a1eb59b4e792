/// The "To" URL: Office opens the partner app with the authorize parameters plus `app` and `action`
/// (Microsoft's app-to-app docs, "Office iOS invoking your app"):
///
/// `Contoso:client_id=abcdefg&response_type=code&scope=wopi&rs=enUS&build=16.1.1234&platform=iOS&app=word&action=76d173ad-a43f-4e3c-a5e7-0e7276b4c624`
public struct OfficeToURL: Sendable, Hashable {
    /// The partner app's scheme, as registered (`Contoso`); its case is kept so re-encoding gives the same bytes.
    public var scheme: String
    /// Everything but `action`. `query.app` is required in a To URL: it says which Office app to return to.
    public var query: OfficeAuthorizeQuery
    /// Opaque to the partner: returned unchanged, byte for byte, in the Back URL.
    public var action: String

    public init(scheme: String, query: OfficeAuthorizeQuery, action: String) {
        self.scheme = scheme
        self.query = query
        self.action = action
    }

    public static let actionName = "action"

    static let names = ParameterNames(OfficeAuthorizeQuery.Name.all + [actionName])

    /// The documented form: `scheme:` (no `//`), the query in the documented order, then `action`.
    public var url: String {
        var form = query.parameters
        form.append(Self.actionName, action)
        return form.encoded(after: scheme + ":")
    }

    /// Decodes a To URL. Accepts `scheme:`, `scheme://` and `scheme://?`, parameter names in any case
    /// (`Build`, `Platform`), and keeps unknown parameters. `client_id`, `response_type`, `app` and `action` are
    /// required.
    public init(url: some StringProtocol, limit: InputLimit = .default) throws(OfficeURLError) {
        // One pass sorts the query into the authorize parameters, `action`, and the rest.
        let (scheme, values, rest) = try OfficeURLParts.decode(url, taking: Self.names, limit: limit, what: "To URL")
        guard let action = values[values.count - 1] else { throw .missingParameter(Self.actionName) }
        let query = try OfficeAuthorizeQuery(values: values, rest: rest)
        guard query.app != nil else { throw .missingParameter(OfficeAuthorizeQuery.Name.app) }
        self.init(scheme: scheme, query: query, action: action)
    }

    /// The Back URL that answers this request: same Office app, same `action`. Nil when `app` names an app this
    /// library does not know (then the partner cannot know which scheme to open).
    public func backURL(_ result: OfficeSignInResult) -> OfficeBackURL? {
        guard let app = query.officeApp else { return nil }
        return OfficeBackURL(app: app, result: result, action: action)
    }
}
