/// The known, documented deviations a registered client may be allowed. Every client is `strict` (RFC 8252 and
/// RFC 9700 as written) unless its registration names another profile.
public enum ClientProfile: String, Sendable, Hashable, Codable, CaseIterable {
    case strict
    /// Microsoft Office's app-to-app sign-in for WOPI hosts, exactly as Office does it and no further:
    /// - it registers the redirect URI `https://localhost`, a stop URL its sign-in view watches for and never loads
    ///   (Microsoft Learn, "Office for iOS and Android app to app sign-in": redirect URI), which RFC 8252 §8.3 does
    ///   not recommend for other clients;
    /// - it shows the authorization pages in its own embedded WebView, which RFC 8252 §8.12 asks native apps not to
    ///   do; nothing on the server depends on the browser, so this is documented, not checked.
    case office

    /// Office's stop URL, byte for byte: any other loopback URI keeps the strict rule (an error for a confidential
    /// client, a warning for `localhost` on a native one).
    public static let officeStopURL = "https://localhost"

    /// Whether this profile excuses `problem` of the registered `uri`.
    public func excuses(_ problem: RedirectURIPolicy.Problem, of uri: String) -> Bool {
        switch (self, problem) {
        case (.office, .localhostNotRecommended), (.office, .loopbackForWebClient): uri == Self.officeStopURL
        default: false
        }
    }
}
