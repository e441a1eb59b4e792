import SignInProtocolCore

/// A platform key given twice leaves Office to pick one list (JSON parsers disagree on which); the same scheme or
/// Android package listed twice only makes Office try it twice.
public struct DuplicateEntry: UrlSchemesRule {
    public let descriptor = RuleDescriptor(
        id: "url-schemes-duplicate",
        severity: .warning,
        summary: "url_schemes.json repeats a platform key (error), a scheme or an Android package (warning).",
        hint: "Keep one list per platform and each scheme or package once, in the order Office should try them.",
        reference: .officeBootstrapper)

    public init() {}

    public func check(_ document: UrlSchemesDocument, context: LintContext) -> [Diagnosis] {
        var diagnoses = [Diagnosis]()
        var seenKeys = [String: SourcePosition]()
        for member in document.members {
            if let first = seenKeys[member.key] {
                diagnoses.append(
                    descriptor.finding(
                        "platform \"\(member.key)\" is given twice (first on line \(first.line))",
                        at: member.keyPosition, severity: .error))
                continue
            }
            seenKeys[member.key] = member.keyPosition
            guard case .array(let items) = member.value.value else { continue }
            diagnoses += duplicates(in: items, platform: member.key)
        }
        return diagnoses
    }

    /// iOS and UWP schemes compare case-insensitively (RFC 3986 §3.1); Android compares plain schemes and the
    /// package names of triples.
    private func duplicates(in items: [JSONNode], platform: String) -> [Diagnosis] {
        var seen = [String: Int]()
        var diagnoses = [Diagnosis]()
        var index = 0
        while index < items.count {
            guard case .string(let text) = items[index].value else {
                index += 1
                continue
            }
            var key = text.lowercased()
            var step = 1
            var what = "scheme \"\(text)\""
            if platform == UrlSchemes.Key.android, !text.isEmpty, text.utf8.allSatisfy({ (48...57).contains($0) }),
                index + 2 < items.count, case .string(let package) = items[index + 1].value
            {
                key = "package:" + package
                step = 3
                what = "package \"\(package)\""
            }
            if let first = seen[key] {
                diagnoses.append(
                    descriptor.finding(
                        "\"\(platform)\" lists \(what) again (first at index \(first))", at: items[index].position))
            } else {
                seen[key] = index
            }
            index += step
        }
        return diagnoses
    }
}
