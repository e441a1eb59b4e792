/// URI scheme rules shared by the Android, iOS and UrlSchemes checks.
enum URISchemeSyntax {
    // Scheme syntax itself (RFC 3986 §3.1) is `URIComponents.isValidScheme` in SignInProtocolCore, the one definition.

    /// Schemes with a registered public meaning, which are never a partner's private-use scheme.
    static let publicSchemes: Set<String> = [
        "http", "https", "file", "content", "mailto", "tel", "sms", "smsto", "mms", "geo", "market", "intent",
        "ftp", "data", "about", "javascript",
    ]

    /// RFC 8252 §7.1: a private-use scheme should be a reverse domain name the app's owner controls, so at least
    /// one dot (`com.example.app`).
    static func isReverseDomain(_ scheme: String) -> Bool {
        let dot = UInt8(ascii: ".")
        let bytes = scheme.utf8
        guard bytes.contains(dot), bytes.first != dot, bytes.last != dot else { return false }
        return !scheme.containsASCII("..")
    }
}

extension Unicode.Scalar {
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
