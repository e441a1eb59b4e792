import SignInProtocol

/// Where a sign-in ended: the URL the host redirected the browser to (never loaded), and its query.
public struct SignInOutcome: Sendable {
    public var redirectedTo: String
    public var parameters: [String: String]
    /// The `state` the suite sent.
    public var sentState: String

    public init(redirectedTo: String, sentState: String) {
        self.redirectedTo = redirectedTo
        self.sentState = sentState
        var found = [String: String]()
        if let query = URLParts.query(redirectedTo), let pairs = try? FormParameters.decode(query) {
            for pair in pairs where found[pair.name] == nil { found[pair.name] = pair.value }
        }
        parameters = found
    }

    public var code: String? { parameters["code"] }
}
