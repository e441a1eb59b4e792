/// The public document a check enforces, so a host engineer can read why it failed without our code.
public struct SourceCitation: Sendable, Hashable, Codable, CustomStringConvertible {
    public var title: String
    public var url: String

    public init(title: String, url: String) {
        self.title = title
        self.url = url
    }

    public var description: String { "\(title) <\(url)>" }

    private static let officeDocs =
        "https://github.com/microsoft/Office-Online-Test-Tools-and-Documentation/blob/master/docs/native/src/identity/"

    /// Microsoft's Office app-to-app sign-in page (challenge, authorize parameters, the redirect back).
    public static func appToApp(_ part: String) -> SourceCitation {
        SourceCitation(title: "Microsoft Office app-to-app docs, \(part)", url: officeDocs + "apptoapp.rst")
    }

    /// Microsoft's WOPI bootstrapper page (the 401, the JSON, ecosystem operations).
    public static func bootstrapper(_ part: String) -> SourceCitation {
        SourceCitation(title: "Microsoft WOPI bootstrapper docs, \(part)", url: officeDocs + "bootstrapper.rst")
    }

    /// Microsoft's Cloud Storage Partner Program pages for Microsoft 365 for mobile (onboarding, operational flows,
    /// Token Issuance URL requirements).
    public static func mobile(_ part: String) -> SourceCitation {
        SourceCitation(
            title: "Microsoft 365 for mobile (Cloud Storage Partner Program), \(part)",
            url: "https://learn.microsoft.com/microsoft-365/cloud-storage-partner-program/mobile")
    }

    /// Microsoft's page on `tk` and `sc` in the final redirect.
    public static func sessionContext(_ part: String) -> SourceCitation {
        SourceCitation(title: "Microsoft Office session context docs, \(part)", url: officeDocs + "sessioncontext.rst")
    }

    /// A section of an OpenID Connect 1.0 spec (`core` or `discovery`), linked by its anchor on openid.net.
    public static func openID(_ spec: String, _ section: String, anchor: String) -> SourceCitation {
        let title = spec == "core" ? "OpenID Connect Core 1.0" : "OpenID Connect Discovery 1.0"
        return SourceCitation(
            title: "\(title) \(section)", url: "https://openid.net/specs/openid-connect-\(spec)-1_0.html#\(anchor)")
    }

    /// The WOPI validator's test cases (`TestCases.xml` of microsoft/wopi-validator-core), by group and case.
    public static func wopiValidator(_ part: String) -> SourceCitation {
        SourceCitation(
            title: "Microsoft WOPI validator TestCases.xml, \(part)",
            url: "https://github.com/microsoft/wopi-validator-core/blob/master/TestCases.xml")
    }

    /// An RFC section, linked on rfc-editor.org.
    public static func rfc(_ number: Int, _ section: String, _ title: String = "") -> SourceCitation {
        let anchor = section.hasPrefix("§") ? "#section-" + section.dropFirst() : ""
        let name = "RFC \(number) \(section)" + (title.isEmpty ? "" : " (\(title))")
        return SourceCitation(title: name, url: "https://www.rfc-editor.org/rfc/rfc\(number).html\(anchor)")
    }
}
