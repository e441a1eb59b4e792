/// Masks the values of secret parameters in URLs before they reach any output (OWASP's logging guidance: never
/// write credentials or session tokens to logs).
public enum SecretMask {
    /// Query and form names whose values are credentials or grant material (a pushed `request_uri` stands for its
    /// request until it is used, RFC 9126 §7.1; an `auth_session` stands for a sign-in in progress; a device secret,
    /// sent as `actor_token`, for every app's sign-in on a device; an app-to-app deep link's `reference` approves a
    /// request, its `resume_uri`'s `token` signs a browser in).
    public static let secretNames: Set<String> = [
        "code", "access_token", "refresh_token", "client_secret", "password", "code_verifier", "id_token", "sc",
        "csrf_token", "assertion", "request_uri", "auth_session", "authorization_code", "device_secret",
        "subject_token", "actor_token", "token", "reference",
    ]

    /// `value` reduced to its first four characters and its length.
    public static func mask(_ value: String) -> String {
        value.count <= 4 ? "****" : String(value.prefix(4)) + "…(\(value.count))"
    }

    /// `url` with every secret query parameter's value masked; the rest unchanged.
    public static func maskURL(_ url: String) -> String {
        guard let question = url.firstIndex(of: "?") else { return url }
        let fragmentStart = url[question...].firstIndex(of: "#") ?? url.endIndex
        let query = url[url.index(after: question)..<fragmentStart]
        let masked = query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
            let name = pair[..<equals]
            guard secretNames.contains(name.lowercased()) else { return String(pair) }
            return name + "=" + mask(String(pair[pair.index(after: equals)...]))
        }
        return url[...question] + masked.joined(separator: "&") + url[fragmentStart...]
    }
}
