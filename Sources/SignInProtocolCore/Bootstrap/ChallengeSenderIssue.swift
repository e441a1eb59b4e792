/// Something a `WWW-Authenticate` sender must not write although recipients accept it, so a lenient parse never
/// hides it: empty list elements (RFC 9110 §5.6.1: "a sender MUST NOT generate empty list elements") and the Office
/// parameters sent as tokens where Microsoft's app-to-app docs write quoted-strings.
public enum ChallengeSenderIssue: Sendable, Hashable, CustomStringConvertible {
    /// A leading, doubled or trailing comma; the position is the comma's.
    case emptyListElement(at: HeaderPosition)
    /// One of the documented Bootstrap parameters as a bare token instead of a quoted-string.
    case unquotedValue(parameter: String, at: HeaderPosition)

    public var description: String {
        switch self {
        case .emptyListElement(let at):
            "empty list element (a leading, doubled or trailing ',') at \(at): RFC 9110 §5.6.1 forbids senders to write one"
        case .unquotedValue(let parameter, let at):
            "parameter \(parameter) at \(at) is not a quoted-string, as the Office docs write it"
        }
    }
}

extension BootstrapChallenge {
    /// The sender rules the parser itself tolerates, for the `WWW-Authenticate` values of a bootstrap `401`.
    /// Empty when the values do not parse (the parse error says more than this could).
    public static func senderIssues(
        headerValues: [String], limit: InputLimit = .default
    ) -> [ChallengeSenderIssue] {
        guard let list = try? AuthenticationChallenge.parseLocated(headerValues: headerValues, limit: limit) else {
            return []
        }
        var issues = list.emptyElements.map(ChallengeSenderIssue.emptyListElement)
        let documented = [
            ParameterName.authorizationURI, ParameterName.tokenIssuanceURI, ParameterName.providerId,
            ParameterName.urlSchemes,
        ].map { $0.asciiLowercased() }
        for located in list.challenges where located.challenge.hasScheme("Bearer") {
            for (index, parameter) in located.challenge.parameters.enumerated()
            where documented.contains(parameter.name.asciiLowercased()) && !located.parameterQuoted[index] {
                issues.append(.unquotedValue(parameter: parameter.name, at: located.parameterPositions[index]))
            }
        }
        return issues.sorted { ($0.position.headerIndex, $0.position.offset) < ($1.position.headerIndex, $1.position.offset) }
    }
}

extension ChallengeSenderIssue {
    var position: HeaderPosition {
        switch self {
        case .emptyListElement(let at), .unquotedValue(_, let at): at
        }
    }
}
