/// How bad a finding is. Only errors make `signin-bridge lint` exit with status 1.
public enum Severity: String, Sendable, Hashable, Comparable, CaseIterable, Codable {
    /// Worth knowing; sign-in works.
    case info
    /// Sign-in works today but is fragile or against a recommendation (RFC 8252, Apple, Android docs).
    case warning
    /// Sign-in breaks: Office falls back to the WebView, or the app does not install.
    case error

    public static func < (lhs: Severity, rhs: Severity) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
