import Hummingbird

/// Where the browser goes between the interaction's pages: the interaction's path, and the redirect to it or to the
/// client.
enum BrowserNavigation {
    static let interactionPrefix = "/oauth2/interaction/"

    static func interactionPath(_ id: String) -> String { interactionPrefix + id }

    static func redirect(to location: String, after method: HTTPRequest.Method) -> Response {
        // 303 after a form post so the browser follows with GET (RFC 9110 §15.4.4); 302 as RFC 6749 §4.1.2 shows.
        Response(status: method == .post ? .seeOther : .found, headers: [.location: location])
    }
}
