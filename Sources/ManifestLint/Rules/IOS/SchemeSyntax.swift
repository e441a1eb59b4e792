import SignInProtocolCore

/// A URL scheme is `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )` (RFC 3986 §3.1); iOS does not open others.
public struct SchemeSyntax: InfoPlistRule {
    public let descriptor = RuleDescriptor(
        id: "ios-scheme-syntax",
        severity: .error,
        summary: "A CFBundleURLSchemes entry is not a valid URI scheme (RFC 3986 §3.1).",
        hint: "Use letters, digits, '+', '-' and '.', starting with a letter, and no \"://\": com.contoso.files.",
        reference: .rfc3986Scheme)

    public init() {}

    public func check(_ plist: InfoPlist, context: LintContext) -> [Diagnosis] {
        plist.registeredSchemes.compactMap { scheme, position in
            guard !BuildTimeValue.isPlaceholder(scheme), !URIComponents.isValidScheme(scheme) else { return nil }
            return descriptor.finding("\"\(scheme)\" is not a valid URL scheme", at: position)
        }
    }
}
