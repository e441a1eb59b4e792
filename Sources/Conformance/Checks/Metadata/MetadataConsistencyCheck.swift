import SignInProtocol

/// RFC 8414 §3.3: the metadata's `issuer` is the URL it was fetched for; its endpoints must be the ones the challenge
/// sends Office to, or clients that read both disagree.
struct MetadataConsistencyCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "metadata.consistent", group: .metadata, level: .should, source: .rfc(8414, "§3.3", "Authorization Server Metadata Validation"),
        summary: "/.well-known/oauth-authorization-server, when published, names the challenge's authorization and token endpoints")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let endpoints = try await session.endpoints().orSkip()
        let metadata: [String: JSONValue]
        switch await session.metadata() {
        case .success(let found): metadata = found
        case .failure(let failure): return .skip("no metadata: \(failure.reason)")
        }
        var problems = [String]()
        let pairs = [
            ("authorization_endpoint", endpoints.authorization), ("token_endpoint", endpoints.token),
        ]
        for (name, expected) in pairs where metadata[name]?.stringValue != expected {
            problems.append("\(name) is \(metadata[name]?.stringValue ?? "missing"), the challenge says \(expected)")
        }
        if let issuer = metadata["issuer"]?.stringValue, let origin = URLParts.origin(endpoints.authorization),
            URLParts.origin(issuer) != origin
        {
            problems.append("issuer \(issuer) is not on \(origin)")
        }
        return problems.isEmpty ? .pass("metadata agrees with the challenge") : .fail(problems.joined(separator: "; "))
    }
}
