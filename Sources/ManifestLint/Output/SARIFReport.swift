/// SARIF 2.1.0 (OASIS), what GitHub code scanning and IDEs read: one run, the full rule table with each rule's
/// summary, fix hint and reference, and one result per finding. Columns are Unicode code points.
/// https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html
public enum SARIFReport {
    public static let schemaURI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

    public static func render(_ report: LintReport, toolVersion: String) -> String {
        let rules = RuleCatalog.all
        let ruleIndex = Dictionary(rules.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        let artifacts = report.files.map(\.path)
        let artifactIndex = Dictionary(artifacts.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let log = Log(
            schema: schemaURI, version: "2.1.0",
            runs: [
                Run(
                    tool: Tool(
                        driver: Driver(
                            name: "signin-bridge lint", version: toolVersion,
                            rules: rules.map { rule in
                                Rule(
                                    id: rule.id, name: pascalCase(rule.id),
                                    shortDescription: Text(text: rule.summary),
                                    help: Text(text: rule.hint), helpUri: rule.reference.url,
                                    defaultConfiguration: Configuration(level: level(rule.severity)),
                                    properties: Properties(
                                        reference: rule.reference.title, androidLintId: AndroidLintIDs.reportedAs[rule.id]))
                            })),
                    invocations: [Invocation(executionSuccessful: true)],
                    artifacts: artifacts.map { Artifact(location: ArtifactLocation(uri: uri(for: $0), index: nil)) },
                    columnKind: "unicodeCodePoints",
                    results: report.findings.map { finding in
                        Result(
                            ruleId: finding.ruleID, ruleIndex: ruleIndex[finding.ruleID], level: level(finding.severity),
                            message: Text(text: finding.message),
                            properties: finding.androidLintID.map { ResultProperties(androidLintId: $0) },
                            locations: [
                                Location(
                                    physicalLocation: PhysicalLocation(
                                        artifactLocation: ArtifactLocation(
                                            uri: uri(for: finding.file), index: artifactIndex[finding.file]),
                                        region: Region(startLine: finding.position.line, startColumn: finding.position.column)))
                            ])
                    })
            ])
        return JSONReport.encode(log)
    }

    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: "error"
        case .warning: "warning"
        case .info: "note"
        }
    }

    /// `android-exported-missing` → `AndroidExportedMissing` (SARIF's `name` is a readable identifier).
    static func pascalCase(_ id: String) -> String {
        id.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// A relative URI reference for a relative path, a file URI for an absolute one; every byte outside RFC 3986's
    /// unreserved set and `/` is percent-encoded.
    static func uri(for path: String) -> String {
        var encoded = ""
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") || isUnreserved(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = String(byte, radix: 16, uppercase: true)
                encoded += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return path.hasPrefix("/") ? "file://" + encoded : encoded
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }

    // MARK: The SARIF object model, as much of it as we emit

    struct Log: Encodable {
        var schema: String
        var version: String
        var runs: [Run]
        enum CodingKeys: String, CodingKey {
            case schema = "$schema"
            case version, runs
        }
    }

    struct Run: Encodable {
        var tool: Tool
        var invocations: [Invocation]
        var artifacts: [Artifact]
        var columnKind: String
        var results: [Result]
    }

    struct Tool: Encodable { var driver: Driver }

    struct Driver: Encodable {
        var name: String
        var version: String
        var rules: [Rule]
    }

    struct Rule: Encodable {
        var id: String
        var name: String
        var shortDescription: Text
        var help: Text
        var helpUri: String
        var defaultConfiguration: Configuration
        var properties: Properties
    }

    /// A property bag (SARIF §3.8): the reference's title and Android Lint's id for the same check, if any.
    struct Properties: Encodable {
        var reference: String
        var androidLintId: String?
    }

    struct ResultProperties: Encodable { var androidLintId: String }
    struct Configuration: Encodable { var level: String }
    struct Text: Encodable { var text: String }
    struct Invocation: Encodable { var executionSuccessful: Bool }
    struct Artifact: Encodable { var location: ArtifactLocation }

    struct Result: Encodable {
        var ruleId: String
        var ruleIndex: Int?
        var level: String
        var message: Text
        var properties: ResultProperties?
        var locations: [Location]
    }

    struct Location: Encodable { var physicalLocation: PhysicalLocation }

    struct PhysicalLocation: Encodable {
        var artifactLocation: ArtifactLocation
        var region: Region
    }

    struct ArtifactLocation: Encodable {
        var uri: String
        var index: Int?
    }

    struct Region: Encodable {
        var startLine: Int
        var startColumn: Int
    }
}
