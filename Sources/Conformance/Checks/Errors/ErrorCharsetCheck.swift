import SignInProtocol

/// RFC 6749 §5.2 (and §4.1.2.1): `error` and `error_description` "MUST NOT include characters outside the set
/// %x20-21 / %x23-5B / %x5D-7E": no non-ASCII, no `"`, no `\`, no control characters.
struct ErrorCharsetCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "errors.description-charset", group: .errors, level: .must, source: .rfc(6749, "§5.2", "Error Response"),
        summary: "Every error and error_description of the run is within %x20-21 / %x23-5B / %x5D-7E")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let errors = try await ErrorSample.collect(in: session)
        var problems = [String]()
        for error in errors {
            for (name, value) in [("error", error.error), ("error_description", error.description ?? "")] {
                guard let bad = value.unicodeScalars.first(where: { !$0.isASCII || !OAuthError.Code.isAllowedByte(UInt8($0.value)) }) else { continue }
                let shown = "U+" + String(bad.value, radix: 16, uppercase: true)
                problems.append("\(name) has \(shown) in \"\(value.prefix(80))\" from \(ErrorSample.describe(error))")
            }
        }
        guard problems.isEmpty else { return .fail(problems.joined(separator: "; ")) }
        return .pass("\(errors.count) error(s) within the set")
    }
}
