/// The "Back" URL: the partner app returns to Office with the result and the unchanged `action`
/// (Microsoft's app-to-app docs, "Your app invoking Office iOS"):
///
/// `ms-word-tp:code=abcdefg&tk=https%3A%2F%2Fcontoso.com%2Fapi%2Ftoken%2F%3Fextra%3Dstuff&sc=xyz&action=76d173ad-a43f-4e3c-a5e7-0e7276b4c624`
public struct OfficeBackURL: Sendable, Hashable {
    /// Which Office app to open; its scheme is the URL's scheme.
    public var app: OfficeApp
    public var result: OfficeSignInResult
    /// The To URL's `action`, byte for byte.
    public var action: String
    /// Parameters beyond the documented ones (e.g. `state`), in order; emitted before `action`.
    public var otherParameters: FormParameters

    public init(
        app: OfficeApp, result: OfficeSignInResult, action: String, otherParameters: FormParameters = FormParameters()
    ) {
        self.app = app
        self.result = result
        self.action = action
        self.otherParameters = otherParameters
    }

    /// The documented form: `ms-word-tp:` (no `//`), the result parameters, other parameters, then `action`.
    public var url: String {
        var form = result.parameters
        for pair in otherParameters { form.append(pair.name, pair.value) }
        form.append(OfficeToURL.actionName, action)
        return form.encoded(after: app.scheme + ":")
    }

    static let names = ParameterNames(OfficeSignInResult.Name.all + [OfficeToURL.actionName])

    /// Decodes a Back URL: an Office scheme (any case, with or without `//`), `code` or `error`, and `action`.
    public init(url: some StringProtocol, limit: InputLimit = .default) throws(OfficeURLError) {
        // One pass sorts the query into the result parameters, `action`, and the rest.
        var app: OfficeApp?
        let (_, values, rest) = try OfficeURLParts.decode(url, taking: Self.names, limit: limit, what: "Back URL") {
            app = OfficeApp(scheme: $0)
            return app == nil ? .unknownOfficeScheme($0) : nil
        }
        guard let app else { throw .unknownOfficeScheme("") }  // Unreachable: checkScheme refused it.
        let result = try OfficeSignInResult(values: values)
        guard let action = values[values.count - 1] else { throw .missingParameter(OfficeToURL.actionName) }
        self.init(app: app, result: result, action: action, otherParameters: rest)
    }
}
