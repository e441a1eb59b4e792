/// Office reads the keys `iOS`, `Android` and `UWP`, spelled exactly so; any other key is ignored, so a typo
/// (`ios`, `android`) silently disables app-to-app sign-in on that platform.
public struct UnknownPlatform: UrlSchemesRule {
    public let descriptor = RuleDescriptor(
        id: "url-schemes-unknown-platform",
        severity: .error,
        summary: "url_schemes.json has a key other than iOS, Android and UWP.",
        hint: "Spell the platform keys exactly iOS, Android or UWP (case matters), and remove others.",
        reference: .officeBootstrapper)

    public init() {}

    public func check(_ document: UrlSchemesDocument, context: LintContext) -> [Diagnosis] {
        document.members.filter { !UrlSchemesDocument.platforms.contains($0.key) }.map { member in
            let suggestion = UrlSchemesDocument.platforms.first { $0.lowercased() == member.key.lowercased() }
            return descriptor.finding(
                "unknown platform \"\(member.key)\"" + (suggestion.map { "; did you mean \"\($0)\"?" } ?? ""),
                at: member.keyPosition)
        }
    }
}
