/// The authorize parameters Office passes to the partner app: the query of the "To" URL without `action`, which
/// is also, verbatim, the Android `AuthorizeUrlQueryParams` extra (Microsoft's app-to-app docs, "URL scheme design" and "Client-side
/// Changes").
///
/// `client_id=abcdefg&response_type=code&scope=wopi&rs=enUS&build=16.1.1234&platform=iOS&app=word`
public struct OfficeAuthorizeQuery: Sendable, Hashable {
    public var clientID: String
    /// `code` in every Office flow.
    public var responseType: String
    /// May be present and empty (`scope=`), which is not the same as absent.
    public var scope: String?
    public var redirectURI: String?
    public var state: String?
    /// `rs`: Office's UI culture, as sent (`en-US` or `enUS`); see `cultureTag`.
    public var culture: String?
    public var build: String?
    /// `iOS` or `android`.
    public var platform: String?
    /// `app`: which Office app asks (`word`, `excel`, …), as sent; see `officeApp`.
    public var app: String?
    /// Parameters not listed above, in the order received.
    public var otherParameters: FormParameters

    public init(
        clientID: String, responseType: String = "code", scope: String? = nil, redirectURI: String? = nil,
        state: String? = nil, culture: String? = nil, build: String? = nil, platform: String? = nil,
        app: String? = nil, otherParameters: FormParameters = FormParameters()
    ) {
        self.clientID = clientID
        self.responseType = responseType
        self.scope = scope
        self.redirectURI = redirectURI
        self.state = state
        self.culture = culture
        self.build = build
        self.platform = platform
        self.app = app
        self.otherParameters = otherParameters
    }

    /// The names as the docs write them; decoding matches them ignoring case (`Build`, `Platform`).
    public enum Name {
        public static let clientID = "client_id"
        public static let responseType = "response_type"
        public static let scope = "scope"
        public static let redirectURI = "redirect_uri"
        public static let state = "state"
        public static let culture = "rs"
        public static let build = "build"
        public static let platform = "platform"
        public static let app = "app"
        static let all = [clientID, responseType, scope, redirectURI, state, culture, build, platform, app]
    }

    /// The Office app named by `app`, if it is one this library knows.
    public var officeApp: OfficeApp? { app.flatMap { OfficeApp(appParameter: $0) } }

    /// `rs` as a BCP 47 tag: `enUS` becomes `en-US`, `en-US` stays; anything else is returned unchanged.
    public var cultureTag: String? {
        guard let culture else { return nil }
        let bytes = Array(culture.utf8)
        let isLetter = { (byte: UInt8) in (65...90).contains(byte) || (97...122).contains(byte) }
        guard bytes.count == 4, bytes.allSatisfy(isLetter) else { return culture }
        return String(culture.prefix(2)) + "-" + String(culture.suffix(2))
    }

    /// In the documented order: `client_id`, `redirect_uri`, `response_type`, `scope`, `state`, `rs`, `build`,
    /// `platform`, other parameters, `app`. Absent ones are omitted.
    public var parameters: FormParameters {
        var form = FormParameters()
        form.append(Name.clientID, clientID)
        form.append(Name.redirectURI, redirectURI)
        form.append(Name.responseType, responseType)
        form.append(Name.scope, scope)
        form.append(Name.state, state)
        form.append(Name.culture, culture)
        form.append(Name.build, build)
        form.append(Name.platform, platform)
        for pair in otherParameters { form.append(pair.name, pair.value) }
        form.append(Name.app, app)
        return form
    }

    /// The query text, every value percent-encoded outside the unreserved set.
    public var encoded: String { parameters.encoded }

    /// Reads the defined parameters out of `form`; `client_id` and `response_type` are required.
    public init(parameters form: FormParameters) throws(OfficeURLError) {
        let (taken, rest) = try OfficeURLParts.take(Name.all, from: form)
        try self.init(values: Name.all.map { taken[$0] }, rest: rest)
    }

    /// `Name.all` prepared for `OfficeURLParts.decodeQuery(_:taking:…)`.
    static let names = ParameterNames(Name.all)

    /// Builds the query from values in the order of `Name.all` (extra trailing values are ignored) and the other
    /// parameters.
    init(values: [String?], rest: FormParameters) throws(OfficeURLError) {
        precondition(values.count >= Name.all.count)
        guard let clientID = values[0] else { throw .missingParameter(Name.clientID) }
        guard !clientID.isEmpty else { throw .emptyParameter(Name.clientID) }
        guard let responseType = values[1] else { throw .missingParameter(Name.responseType) }
        self.init(
            clientID: clientID, responseType: responseType, scope: values[2], redirectURI: values[3], state: values[4],
            culture: values[5], build: values[6], platform: values[7], app: values[8], otherParameters: rest)
    }

    /// Decodes `client_id=…&…` (the Android extra). `+` is data, not a space (see `OfficeURLParts.decodeQuery`).
    public init(query: some StringProtocol, limit: InputLimit = .default) throws(OfficeURLError) {
        do { try limit.check(query, what: "authorize query") } catch { throw .tooLarge(error) }
        let (values, rest) = try OfficeURLParts.decodeQuery(
            query, taking: Self.names, limit: limit, baseOffset: 0, what: "authorize query")
        try self.init(values: values, rest: rest)
    }
}
