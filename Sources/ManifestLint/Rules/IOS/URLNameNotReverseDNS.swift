/// Apple recommends a reverse-DNS `CFBundleURLName` (`com.contoso.files`) so URL types of different apps do not
/// collide; iOS does not enforce it.
public struct URLNameNotReverseDNS: InfoPlistRule {
    public let descriptor = RuleDescriptor(
        id: "ios-url-name-not-reverse-dns",
        severity: .info,
        summary: "A CFBundleURLName is not in reverse-DNS form.",
        hint: "Name the URL type after a domain you own, reversed: com.contoso.files.",
        reference: .appleCustomURLScheme)

    public init() {}

    public func check(_ plist: InfoPlist, context: LintContext) -> [Diagnosis] {
        (plist.entry(InfoPlist.Keys.urlTypes)?.value?.array ?? []).compactMap { type in
            guard let name = type.entry(InfoPlist.Keys.urlName)?.value, let text = name.string,
                !BuildTimeValue.isPlaceholder(text), !URISchemeSyntax.isReverseDomain(text)
            else { return nil }
            return descriptor.finding("CFBundleURLName \"\(text)\" is not reverse-DNS", at: name.position)
        }
    }
}
