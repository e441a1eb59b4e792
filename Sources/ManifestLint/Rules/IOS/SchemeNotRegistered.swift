/// Office tries the iOS schemes of UrlSchemes in order; one the app does not register is never opened.
/// Schemes are case-insensitive (RFC 3986 §3.1). When some registered schemes are build settings that were not
/// given, a missing scheme may be one of them: that is reported as info, not guessed to be an error.
public struct SchemeNotRegistered: InfoPlistRule {
    public let descriptor = RuleDescriptor(
        id: "ios-scheme-not-registered",
        severity: .error,
        summary: "An iOS scheme of UrlSchemes is not in any CFBundleURLSchemes of Info.plist.",
        hint: "Add the scheme to CFBundleURLSchemes, or remove it from the iOS list of UrlSchemes.",
        reference: .officeAppToApp)

    public init() {}

    public func check(_ plist: InfoPlist, context: LintContext) -> [Diagnosis] {
        guard let wanted = context.urlSchemes?.iOS else { return [] }
        let registered = plist.registeredSchemes.map { $0.scheme.lowercased() }
        let unresolved = registered.contains { BuildTimeValue.isPlaceholder($0) }
        let position = plist.entry(InfoPlist.Keys.urlTypes)?.keyPosition ?? plist.headPosition
        return wanted.filter { !registered.contains($0.lowercased()) }.map { scheme in
            unresolved
                ? descriptor.finding(
                    "\(context.urlSchemesSource) lists iOS scheme \"\(scheme)\", which no literal CFBundleURLSchemes entry registers; some entries are build settings and could not be checked (use --build-setting)",
                    at: position, severity: .info)
                : descriptor.finding(
                    "\(context.urlSchemesSource) lists iOS scheme \"\(scheme)\", which no CFBundleURLSchemes registers",
                    at: position)
        }
    }
}
