import SignInProtocol

/// `UrlSchemes` tells Office which partner app to open: percent-encoded JSON keyed by known platforms, Android
/// entries as complete {minimumVersionCode, packageName, authActivity} triples.
struct UrlSchemesCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "challenge.url-schemes", group: .challenge, level: .must, source: .appToApp("UrlSchemes"),
        summary: "UrlSchemes, when present, is percent-encoded JSON with known platforms (iOS, Android, UWP) and complete Android triples (a plain Android scheme warns)")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let bearer = try await session.bearerChallenge().orSkip()
        guard let value = bearer[parameter: BootstrapChallenge.ParameterName.urlSchemes] else {
            return .pass("no UrlSchemes: Office signs in in its own web view")
        }
        if value.contains("{") || value.contains("\"") {
            return .fail("UrlSchemes is raw JSON; it must be percent-encoded")
        }
        let schemes: UrlSchemes
        do {
            schemes = try UrlSchemes(headerValue: value)
        } catch {
            return .fail("UrlSchemes: \(error)")
        }
        if let unknown = schemes.otherPlatforms.first {
            return .fail("UrlSchemes has an unknown platform \"\(unknown.name)\" (known: iOS, Android, UWP)")
        }
        for entry in schemes.android ?? [] {
            if case .scheme(let name) = entry {
                // The app-to-app page's example lists plain schemes; the Android page wants version, package, activity.
                return .warn("Android entry \"\(name)\" is a plain scheme, not a minimumVersionCode, packageName, authActivity triple")
            }
        }
        return .pass("UrlSchemes decodes")
    }
}
