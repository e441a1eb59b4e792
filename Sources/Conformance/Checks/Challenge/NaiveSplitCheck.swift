import Foundation
import SignInProtocol

/// Older Office clients read the challenge by stripping `Bearer`, splitting on `,` and then on `=`, and trimming
/// quotes; a header that only a full RFC 9110 parser reads right breaks them.
struct NaiveSplitCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "challenge.naive-split", group: .challenge, level: .must, source: .appToApp("the WWW-Authenticate example: comma-separated, quoted values"),
        summary: "The Bearer line read by stripping 'Bearer' and splitting on ',' and '=' gives the same values as a full parse")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let values = try await session.challengeHeaderValues().orSkip()
        let bearer = try await session.bearerChallenge().orSkip()
        guard let line = values.first(where: { $0.trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("bearer") }) else {
            return .fail("no WWW-Authenticate line starts with Bearer, so the naive reader finds none")
        }
        let naive = NaiveChallengeReader.read(line)
        var differences = [String]()
        for name in [
            BootstrapChallenge.ParameterName.authorizationURI, BootstrapChallenge.ParameterName.tokenIssuanceURI,
            BootstrapChallenge.ParameterName.providerId, BootstrapChallenge.ParameterName.urlSchemes,
        ] {
            guard let expected = bearer[parameter: name] else { continue }
            let got = naive[name.lowercased()]
            if got != expected { differences.append("\(name): naive \(got.map { "\"\($0)\"" } ?? "missing"), parsed \"\(expected)\"") }
        }
        return differences.isEmpty ? .pass("the naive reading agrees") : .fail(differences.joined(separator: "; "))
    }
}

/// The reading older clients do: no quoted-string rules, no list rules.
enum NaiveChallengeReader {
    static func read(_ line: String) -> [String: String] {
        var rest = Substring(line.trimmingCharacters(in: .whitespaces))
        rest = rest.dropFirst("bearer".count)
        if rest.hasPrefix(":") { rest = rest.dropFirst() }
        var result = [String: String]()
        for part in rest.split(separator: ",") {
            let pieces = part.split(separator: "=", maxSplits: 1)
            guard pieces.count == 2 else { continue }
            let name = pieces[0].trimmingCharacters(in: .whitespaces).lowercased()
            let value = pieces[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            if result[name] == nil { result[name] = value }
        }
        return result
    }
}
