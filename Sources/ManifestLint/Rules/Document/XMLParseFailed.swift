/// A file that is not well-formed XML (or is too large, too deep, or a binary plist) cannot be checked further.
public struct XMLParseFailed: LintRule {
    public let descriptor = RuleDescriptor(
        id: "xml-parse-error",
        severity: .error,
        summary: "The file is not well-formed XML, or is over the size or nesting limit.",
        hint: "Fix the XML at the position given; Android Studio or Xcode can open the file and show the same place.",
        reference: .xml)

    public init() {}

    public func diagnosis(_ error: XMLReadError) -> Diagnosis {
        descriptor.finding(error.message, at: error.position)
    }
}
