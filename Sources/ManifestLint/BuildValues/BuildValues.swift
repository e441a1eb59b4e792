import Foundation

/// Values a build fills in that the source files only name: Gradle's `manifestPlaceholders` (`${redirectScheme}`),
/// Android string resources (`@string/scheme`) and Xcode build settings (`$(PRODUCT_BUNDLE_IDENTIFIER)`).
/// Known values are substituted before the rules run; the rest stay as written, and rules that need them report
/// that they could not check them instead of guessing.
/// https://developer.android.com/build/manage-manifests#inject_build_variables_into_the_manifest
/// https://developer.apple.com/documentation/xcode/build-settings-reference
public struct BuildValues: Sendable, Hashable {
    /// `--placeholder name=value`: Gradle manifest placeholders by name.
    public var placeholders: [String: String]
    /// `--resources strings.xml`: string resources by name (`<string name="scheme">`).
    public var strings: [String: String]
    /// `--build-setting NAME=value`: Xcode build settings by name.
    public var buildSettings: [String: String]

    public init(placeholders: [String: String] = [:], strings: [String: String] = [:], buildSettings: [String: String] = [:]) {
        self.placeholders = placeholders
        self.strings = strings
        self.buildSettings = buildSettings
    }

    public static let none = BuildValues()

    /// An Android attribute value with every known `${name}` replaced and a whole-value `@string/name` looked up.
    public func resolvingAndroid(_ value: String) -> String {
        if value.hasPrefix(Self.stringReference) {
            let name = String(value.dropFirst(Self.stringReference.count))
            return strings[name].map(resolvingAndroid) ?? value
        }
        guard value.containsASCII("${") else { return value }
        return Self.substitute(value, opener: "${", closer: "}") { placeholders[$0] }
    }

    /// A plist string with every known `$(NAME)` and `${NAME}` replaced (with the `lower`, `upper` and
    /// `rfc1034identifier` modifiers Xcode applies after a colon).
    public func resolvingBuildSettings(_ value: String) -> String {
        guard value.containsASCII("$(") || value.containsASCII("${") else { return value }
        let lookup: (String) -> String? = { reference in
            let parts = reference.split(separator: ":", maxSplits: 1).map(String.init)
            guard let name = parts.first, let raw = buildSettings[name] else { return nil }
            return parts.count == 2 ? Self.apply(modifier: parts[1], to: raw) : raw
        }
        let round = Self.substitute(value, opener: "$(", closer: ")", lookup)
        return Self.substitute(round, opener: "${", closer: "}", lookup)
    }

    static let stringReference = "@string/"

    /// The references `value` still holds after substitution, as written (`${redirectScheme}`, `@string/scheme`,
    /// `$(PRODUCT_NAME)`), for messages.
    static func unresolvedReferences(in value: String) -> [String] {
        if value.hasPrefix("@") { return [value] }
        var found = [String]()
        for (opener, closer) in [("${", "}"), ("$(", ")")] as [(String, Character)] {
            _ = substitute(value, opener: opener, closer: closer) { name in
                found.append(opener + name + String(closer))
                return nil
            }
        }
        return found
    }

    /// Replaces each `opener name closer` whose `lookup` is non-nil; unknown and unterminated references stay.
    static func substitute(_ value: String, opener: String, closer: Character, _ lookup: (String) -> String?) -> String {
        var result = ""
        var rest = Substring(value)
        while let start = rest.range(of: opener) {
            result += rest[..<start.lowerBound]
            let afterOpener = rest[start.upperBound...]
            guard let end = afterOpener.firstIndex(of: closer) else {
                rest = rest[start.lowerBound...]
                break
            }
            let name = String(afterOpener[..<end])
            result += lookup(name) ?? String(rest[start.lowerBound...end])
            rest = afterOpener[afterOpener.index(after: end)...]
        }
        return result + rest
    }

    /// Xcode's build-setting modifiers; an unknown one leaves the reference unresolved.
    static func apply(modifier: String, to value: String) -> String? {
        switch modifier {
        case "lower": return value.lowercased()
        case "upper": return value.uppercased()
        case "rfc1034identifier", "identifier":
            // RFC 1034 §3.5 labels: letters, digits and hyphens; Xcode turns everything else into '-'.
            let keepDot = modifier == "rfc1034identifier"
            return String(value.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || (keepDot && $0 == ".")) ? $0 : "-" })
        default: return nil
        }
    }
}
