import Foundation
import ManifestLint

/// A partner app's https sign-in callback comes back into the app only if the callback's host serves association
/// files that open it there: apple-app-site-association for iOS (an `applinks` component matching the path, and the
/// app in `webcredentials` for an `ASWebAuthenticationSession` callback since iOS 17.4) and assetlinks.json for
/// Android (a `handle_all_urls` statement whose dynamic rules do not exclude the path). The files are read as the
/// platforms read them (one GET, no redirect) and judged by the rules `signin-bridge lint` applies to them.
struct AssociationFilesCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "links.association-files", group: .links, level: .must, source: SourceCitation(
            title: "Apple, Supporting associated domains",
            url: "https://developer.apple.com/documentation/xcode/supporting-associated-domains"),
        summary: "The host of each --app-link serves apple-app-site-association and assetlinks.json (200, no redirect) that open that https callback in the app (skipped without --app-link)")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let links = session.options.appLinks
        guard !links.isEmpty else { return .skip("no --app-link given: name the partner apps' https callbacks to check them") }
        var errors = [String]()
        var warnings = [String]()
        for link in links {
            guard let origin = URLParts.origin(link), let host = URLComponents(string: link)?.host?.lowercased() else {
                errors.append("\(link) is not an absolute URL")
                continue
            }
            // Under --insecure-http-loopback a loopback http callback stands in for the https one it will be.
            let claimed = link.hasPrefix("http://") ? "https://" + link.dropFirst("http://".count) : link
            guard let claim = RedirectClaim(claimed, origin: "--app-link", isSignInCallback: true) else {
                errors.append("\(link) is not an https URL with a host")
                continue
            }
            for kind in [FileKind.appSiteAssociation, .assetLinks] {
                let url = origin + WellKnownResponse.path(of: kind)
                let response: ObservedResponse
                do {
                    response = try await session.http.send(.init(url: url, headers: [(name: "Accept", value: "application/json")]), as: .partnerApp)
                } catch {
                    errors.append("GET \(url) did not answer: \(error.reason)")
                    continue
                }
                guard response.status == 200 else {
                    errors.append("GET \(url) answered \(response.status); the platforms read the file only from a 200 without a redirect")
                    continue
                }
                let type = response.values("Content-Type").first?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
                if type != "application/json" { warnings.append("\(url) is served as \(type ?? "no Content-Type"), not application/json") }
                let findings = Linter().lintAssociation(response.body, kind: kind, host: host, claims: [claim])
                for finding in findings where finding.severity == .error { errors.append("\(url): \(finding.message) [\(finding.rule.id)]") }
                for finding in findings where finding.severity == .warning { warnings.append("\(url): \(finding.message) [\(finding.rule.id)]") }
            }
        }
        if !errors.isEmpty { return .fail(errors.joined(separator: "; ")) }
        if !warnings.isEmpty { return .warn(warnings.joined(separator: "; ")) }
        return .pass("both files open \(links.count == 1 ? links[0] : "\(links.count) callbacks") in the app")
    }
}
