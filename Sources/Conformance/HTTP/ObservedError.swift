import SignInProtocol

/// An OAuth error as the host sent it: the JSON body of a token or resource error (RFC 6749 §5.2), the `error` of a
/// Bearer challenge (RFC 6750 §3), or the query of a redirect back to the client (RFC 6749 §4.1.2.1; told from a
/// sign-in page's own redirects by the `state` the suite always sends). Kept so one check can judge every error of
/// the run.
public struct ObservedError: Sendable, Hashable {
    public var checkID: String?
    /// Masked, for the detail line.
    public var url: String
    public var status: Int
    public var error: String
    public var description: String?

    init?(_ response: ObservedResponse, url: String, checkID: String?) {
        if response.isRedirect, let location = response.value("Location"), let query = URLParts.query(location),
            let pairs = try? FormParameters.decode(query), let error = pairs.first(where: { $0.name == "error" })?.value,
            pairs.contains(where: { $0.name == "state" })
        {
            self.error = error
            description = pairs.first(where: { $0.name == "error_description" })?.value
            self.url = SecretMask.maskURL(location)
        } else if response.status >= 400, let json = JSONObject.parse(response.body), let error = json["error"]?.stringValue {
            self.error = error
            description = json["error_description"]?.stringValue
            self.url = SecretMask.maskURL(url)
        } else {
            return nil
        }
        status = response.status
        self.checkID = checkID
    }

    init(challengeError error: String, description: String?, status: Int, url: String, checkID: String?) {
        self.error = error
        self.description = description
        self.status = status
        self.url = SecretMask.maskURL(url)
        self.checkID = checkID
    }

    /// Every error one response carries: its body or redirect, and each Bearer challenge with an `error`.
    static func all(in response: ObservedResponse, url: String, checkID: String?) -> [ObservedError] {
        var found = ObservedError(response, url: url, checkID: checkID).map { [$0] } ?? []
        let challenges = (try? AuthenticationChallenge.parse(headerValues: response.values("WWW-Authenticate"))) ?? []
        for bearer in challenges where bearer.hasScheme("Bearer") {
            guard let error = bearer[parameter: "error"] else { continue }
            found.append(ObservedError(
                challengeError: error, description: bearer[parameter: "error_description"], status: response.status,
                url: url, checkID: checkID))
        }
        return found
    }
}
