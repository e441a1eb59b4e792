import SignInProtocol

/// `prompt` and `max_age` (OpenID Connect Core §3.1.2.1; plain OAuth clients use them too): the user must sign in
/// again (`login`, `select_account`, or a sign-in older than `max_age` seconds), must see the consent page again
/// (`consent`), or must see no page at all (`none`: the answer is then a code or `login_required` /
/// `consent_required`). `InteractionEndpoints` applies them; this check only validates.
struct CheckPrompt: AuthorizeCheck {
    static let known: Set<String> = ["none", "login", "consent", "select_account"]

    func check(_ draft: inout AuthorizationDraft) throws(OAuthError) {
        let parameters = draft.request.additionalParameters
        for name in ["prompt", "max_age"] where parameters.values(for: name).count > 1 {
            throw .invalidRequest("parameter '\(name)' appears more than once")
        }
        if let prompt = parameters["prompt"] {
            let values = Set(prompt.split(separator: " ").map(String.init))
            if !values.isSubset(of: Self.known) {
                throw .invalidRequest("prompt holds a value that is not supported")
            }
            if values.contains("none") && values.count > 1 {
                throw .invalidRequest("prompt=none cannot be combined with other values")
            }
            draft.prompt = values
        }
        if let maxAge = parameters["max_age"] {
            guard !maxAge.isEmpty, maxAge.utf8.count <= 9, maxAge.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                let seconds = Int(maxAge)
            else { throw .invalidRequest("max_age must be a whole number of seconds") }
            draft.maxAge = seconds
        }
    }
}
