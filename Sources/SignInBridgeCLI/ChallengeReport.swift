import SignInProtocol

/// What `challenge parse` prints: the parameters under their header names, `UrlSchemes` decoded (Android entries
/// as objects, so triples are readable), and the warnings.
struct ChallengeReport: Encodable {
    var authorizationURI: String
    var tokenIssuanceURI: String
    var providerId: String?
    var urlSchemes: SchemesReport?
    var resourceMetadata: String?
    /// Omitted when empty.
    var otherParameters: [AuthenticationChallenge.Parameter]?
    var warnings: [String]

    /// `senderIssues`: what the host must fix although the parse accepted it, listed with the warnings.
    init(_ challenge: BootstrapChallenge, senderIssues: [ChallengeSenderIssue] = []) {
        authorizationURI = challenge.authorizationURI
        tokenIssuanceURI = challenge.tokenIssuanceURI
        providerId = challenge.providerId
        urlSchemes = challenge.urlSchemes.map(SchemesReport.init)
        resourceMetadata = challenge.resourceMetadata
        otherParameters = challenge.otherParameters.isEmpty ? nil : challenge.otherParameters
        warnings = senderIssues.map { "sender: \($0)" } + challenge.warnings.map(\.description)
    }

    enum CodingKeys: String, CodingKey {
        case authorizationURI = "authorization_uri"
        case tokenIssuanceURI = "tokenIssuance_uri"
        case providerId
        case urlSchemes = "UrlSchemes"
        case resourceMetadata = "resource_metadata"
        case otherParameters
        case warnings
    }

    struct SchemesReport: Encodable {
        var schemes: UrlSchemes

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(_ string: String) { stringValue = string }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encodeIfPresent(schemes.iOS, forKey: Key(UrlSchemes.Key.iOS))
            try container.encodeIfPresent(schemes.android?.map(AndroidReport.init), forKey: Key(UrlSchemes.Key.android))
            try container.encodeIfPresent(schemes.uwp, forKey: Key(UrlSchemes.Key.uwp))
            for other in schemes.otherPlatforms { try container.encode(other.entries, forKey: Key(other.name)) }
        }
    }

    struct AndroidReport: Encodable {
        var entry: UrlSchemes.AndroidEntry

        func encode(to encoder: any Encoder) throws {
            switch entry {
            case .app(let app): try app.encode(to: encoder)
            case .scheme(let scheme):
                var container = encoder.singleValueContainer()
                try container.encode(scheme)
            }
        }
    }
}
