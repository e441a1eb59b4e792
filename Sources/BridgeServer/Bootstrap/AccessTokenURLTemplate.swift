import SignInProtocol

/// A configured URL with `{access_token}` where the WOPI access token goes (`wopi.ecosystemUrlTemplate`,
/// `wopi.rootContainer.urlTemplate`). Split once at start: filling it runs on every bootstrap call, where
/// Foundation's `replacingOccurrences` showed at 4% of the CPU.
struct AccessTokenURLTemplate: Sendable, Hashable {
    static let placeholder = "{access_token}"
    private let pieces: [String]

    init(_ template: String) {
        pieces = template.components(separatedBy: Self.placeholder)
    }

    /// Our tokens are base64url, so percent-encoding is only a safeguard.
    func filled(with token: String) -> String {
        pieces.joined(separator: PercentEncoding.encode(token))
    }
}
