/// The five parts of a URI reference, split exactly as the regular expression of RFC 3986 Appendix B does,
/// without normalising anything: redirect URIs are compared as strings (RFC 9700 §2.1), so the parts must be
/// the bytes that were sent.
public struct URIComponents: Hashable {
    var scheme: Substring?
    /// The part after `//`, up to the path; nil when there is no `//`.
    var authority: Substring?
    var path: Substring
    /// After the first `?`, up to `#`; it may itself contain `?` (RFC 3986 §3.4).
    var query: Substring?
    var fragment: Substring?

    init(_ text: Substring) {
        var rest = text
        // scheme: up to the first ':' if no '/', '?' or '#' comes before it.
        if let colon = rest.firstIndex(where: { $0 == ":" || $0 == "/" || $0 == "?" || $0 == "#" }),
            rest[colon] == ":", colon != rest.startIndex
        {
            scheme = rest[..<colon]
            rest = rest[rest.index(after: colon)...]
        }
        if rest.hasPrefix("//") {
            let afterSlashes = rest.index(rest.startIndex, offsetBy: 2)
            let end = rest[afterSlashes...].firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
            authority = rest[afterSlashes..<end]
            rest = rest[end...]
        }
        if let hash = rest.firstIndex(of: "#") {
            fragment = rest[rest.index(after: hash)...]
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: question)...]
            rest = rest[..<question]
        }
        path = rest
    }

    init(_ text: String) { self.init(Substring(text)) }

    /// The host of the authority: without userinfo and port, IPv6 literals with their brackets.
    var host: Substring? {
        guard var hostPort = authority else { return nil }
        if let at = hostPort.lastIndex(of: "@") { hostPort = hostPort[hostPort.index(after: at)...] }
        if hostPort.hasPrefix("["), let close = hostPort.firstIndex(of: "]") {
            return hostPort[...close]
        }
        if let colon = hostPort.lastIndex(of: ":") { return hostPort[..<colon] }
        return hostPort
    }

    /// The port digits after the host, nil when there is no `:`.
    var port: Substring? {
        guard let authority, let host else { return nil }
        let afterHost = authority[host.endIndex...]
        return afterHost.hasPrefix(":") ? afterHost.dropFirst() : nil
    }

    var hasUserInfo: Bool { authority?.contains("@") ?? false }

    /// The URI with the port removed, for the loopback comparison of RFC 8252 §7.3.
    var withoutPort: String {
        guard let authority, let host else { return description }
        var copy = self
        copy.authority = authority[..<host.endIndex]
        return copy.description
    }

    var description: String {
        var text = ""
        if let scheme { text += scheme + ":" }
        if let authority { text += "//" + authority }
        text += path
        if let query { text += "?" + query }
        if let fragment { text += "#" + fragment }
        return text
    }

    /// RFC 3986 §3.1: `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`. The one definition of scheme syntax.
    /// Inlinable (as the byte form) so that other modules call a specialised copy: unspecialised, its `allSatisfy`
    /// was 9% of `signin-bridge-lint`'s instructions on a 5,000-line manifest.
    @inlinable
    public static func isValidScheme(_ scheme: some StringProtocol) -> Bool { isValidScheme(scheme.utf8) }

    /// `isValidScheme` over bytes (the Office URL readers work on a buffer).
    @inlinable
    public static func isValidScheme(_ scheme: some Collection<UInt8>) -> Bool {
        guard let first = scheme.first, isASCIILetter(first) else { return false }
        return scheme.allSatisfy {
            isASCIILetter($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
        }
    }

    @usableFromInline
    static func isASCIILetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    /// Appends `parameters` to the query of `uri`, keeping what is already there and any fragment after it:
    /// RFC 6749 §3.1.2 "MUST retain" the existing query component.
    static func appending(_ parameters: FormParameters, to uri: String) -> String {
        guard !parameters.isEmpty else { return uri }
        var components = URIComponents(uri)
        let encoded = parameters.encoded
        if let query = components.query, !query.isEmpty {
            components.query = query.hasSuffix("&") ? Substring(query + encoded) : Substring(query + "&" + encoded)
        } else {
            components.query = Substring(encoded)
        }
        return components.description
    }
}
