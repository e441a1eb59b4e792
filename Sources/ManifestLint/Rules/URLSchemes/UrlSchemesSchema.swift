import SignInProtocolCore

/// The shape schemas/url_schemes.schema.json gives, enforced item by item so that each finding points at the value
/// that breaks it. The schema file is the documented contract; a test checks the samples against it with an
/// independent JSON Schema validator.
public struct UrlSchemesSchema: UrlSchemesRule {
    public let descriptor = RuleDescriptor(
        id: "url-schemes-schema",
        severity: .error,
        summary: "url_schemes.json does not match its schema: an object of non-empty lists of strings.",
        hint: "Write {\"iOS\": [\"scheme\", …], \"Android\": [\"VersionCode\", \"package\", \"AuthActivity\", …], \"UWP\": […]}; omit unsupported platforms.",
        reference: .urlSchemesSchema)

    public init() {}

    public func check(_ document: UrlSchemesDocument, context: LintContext) -> [Diagnosis] {
        guard case .object(let members) = document.root.value else {
            return [descriptor.finding("the top level is a \(document.root.typeName), not an object", at: document.root.position)]
        }
        if members.isEmpty {
            return [descriptor.finding("the object names no platform; omit UrlSchemes instead", at: document.root.position)]
        }
        var diagnoses = [Diagnosis]()
        for member in members where UrlSchemesDocument.platforms.contains(member.key) {
            guard case .array(let items) = member.value.value else {
                diagnoses.append(
                    descriptor.finding("\"\(member.key)\" is a \(member.value.typeName), not a list", at: member.value.position))
                continue
            }
            if items.isEmpty {
                diagnoses.append(
                    descriptor.finding("\"\(member.key)\" is an empty list; omit the platform instead", at: member.value.position))
            }
            for (index, item) in items.enumerated() {
                if let problem = Self.problem(item, platform: member.key) {
                    diagnoses.append(descriptor.finding("\"\(member.key)\"[\(index)] \(problem)", at: item.position))
                }
            }
        }
        return diagnoses
    }

    /// iOS and UWP items are URL schemes (RFC 3986 §3.1); Android items are non-empty strings (a version code
    /// may also be a non-negative JSON integer, which SignInProtocol accepts).
    static func problem(_ item: JSONNode, platform: String) -> String? {
        switch item.value {
        case .string(let text):
            if text.isEmpty { return "is an empty string" }
            if platform != "Android" && !URIComponents.isValidScheme(text) {
                return "\"\(text)\" is not a URL scheme (RFC 3986 §3.1)"
            }
            return nil
        case .number(let digits) where platform == "Android" && digits.utf8.allSatisfy({ (48...57).contains($0) }):
            return nil
        default:
            return "is a \(item.typeName), not a string"
        }
    }
}
