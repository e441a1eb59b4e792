import SignInProtocolCore

/// Android entries are `VersionCode, PackageName, AuthActivityName` triples, flattened (Microsoft's app-to-app docs); an all-digit
/// item starts a triple. The triple grammar is SignInProtocol's (`UrlSchemes(json:)`): this rule asks it about the
/// Android list alone and points at the item it refuses.
public struct AndroidEntryIncomplete: UrlSchemesRule {
    public let descriptor = RuleDescriptor(
        id: "url-schemes-android-incomplete",
        severity: .error,
        summary: "An Android entry of url_schemes.json is not a complete VersionCode, PackageName, AuthActivityName triple.",
        hint: "Give each Android app as three items: \"1200\", \"com.contoso.files\", \"com.contoso.files.AuthActivity\".",
        reference: .officeAppToApp)

    public init() {}

    public func check(_ document: UrlSchemesDocument, context: LintContext) -> [Diagnosis] {
        guard let member = document.platform(UrlSchemes.Key.android), case .array(let items) = member.value.value else {
            return []
        }
        var encoded = [String]()
        for item in items {
            switch item.value {
            case .string(let text): encoded.append(JSONQuoting.quoted(text))
            case .number(let digits): encoded.append(digits)
            default: return []  // not a string: the schema rule reports it
            }
        }
        do {
            _ = try UrlSchemes(json: "{\"Android\":[\(encoded.joined(separator: ","))]}", limit: InputLimit(maxBytes: UrlSchemesDocument.maxBytes))
            return []
        } catch {
            switch error {
            case .incompleteAndroidApp(let index):
                return [
                    descriptor.finding(
                        "\"Android\"[\(index)] starts a VersionCode, PackageName, AuthActivityName triple that is incomplete",
                        at: items[index].position)
                ]
            case .badVersionCode(let index, let text):
                return [descriptor.finding("\"Android\"[\(index)] version code \(text) is too large", at: items[index].position)]
            default:
                return []
            }
        }
    }
}

/// JSON string quoting for rebuilding a list SignInProtocol then decodes (RFC 8259 §7).
enum JSONQuoting {
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\u{00}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
