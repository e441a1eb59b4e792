/// The Office apps that take part in app-to-app sign-in, with the URL scheme each registers on iOS for the "Back"
/// URL (Microsoft's app-to-app docs, "New URL schemes registered by Office iOS") and the `app=` value of the "To" URL.
public enum OfficeApp: String, Sendable, Hashable, CaseIterable, Codable {
    case word
    case excel
    case powerpoint
    /// The combined Office app ("Microsoft 365"); the docs list its scheme but never show its `app=` value, so
    /// the case name is used.
    case officemobile

    /// The scheme the partner app opens when sign-in is done: `ms-word-tp`, `ms-excel-tp`, `ms-powerpoint-tp`,
    /// `ms-officemobile-tp`.
    public var scheme: String {
        // Literals, not interpolation: `init(scheme:)` compares against these on every Back URL decoded.
        switch self {
        case .word: "ms-word-tp"
        case .excel: "ms-excel-tp"
        case .powerpoint: "ms-powerpoint-tp"
        case .officemobile: "ms-officemobile-tp"
        }
    }

    /// The value of `app=` in the To URL and the Android `AuthorizeUrlQueryParams`: `word`, `excel`, …
    public var appParameter: String { rawValue }

    /// The app whose Back-URL scheme this is. Schemes are case-insensitive (RFC 3986 §3.1), so `MS-Word-TP` matches.
    public init?(scheme: some StringProtocol) {
        guard let app = Self.allCases.first(where: { scheme.equalsIgnoringASCIICase($0.scheme) }) else { return nil }
        self = app
    }

    /// The app an `app=` value names, ignoring ASCII case.
    public init?(appParameter: some StringProtocol) {
        self.init(rawValue: appParameter.asciiLowercased())
    }
}
