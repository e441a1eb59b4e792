/// The value of `X-WOPI-EcosystemOperation` on `POST /wopibootstrapper`: which "shortcut" operation Office wants
/// done together with the bootstrap (WOPI bootstrapper docs; Microsoft's Office app-to-app docs).
///
/// A host that does not implement an operation answers it as a plain bootstrap, so unknown values are kept, never
/// refused.
public enum EcosystemOperation: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Adds `AccessTokenInfo` for the resource named by `X-WOPI-WopiSrc`.
    case getNewAccessToken
    /// Adds `RootContainerInfo`.
    case getRootContainer
    /// Reserved by the WOPI docs for future use ("GetFileWopiSrc").
    case getWopiSrcWithAccessToken
    case unknown(String)

    public static let headerName = "X-WOPI-EcosystemOperation"

    /// Header values are matched after trimming optional whitespace (RFC 9110 §5.5) and ignoring ASCII case.
    public init(headerValue: some StringProtocol) {
        let trimmed = headerValue.trimmingHTTPWhitespace()
        switch trimmed.uppercased() {
        case "GET_NEW_ACCESS_TOKEN": self = .getNewAccessToken
        case "GET_ROOT_CONTAINER": self = .getRootContainer
        case "GET_WOPI_SRC_WITH_ACCESS_TOKEN": self = .getWopiSrcWithAccessToken
        default: self = .unknown(String(trimmed))
        }
    }

    public var headerValue: String {
        switch self {
        case .getNewAccessToken: "GET_NEW_ACCESS_TOKEN"
        case .getRootContainer: "GET_ROOT_CONTAINER"
        case .getWopiSrcWithAccessToken: "GET_WOPI_SRC_WITH_ACCESS_TOKEN"
        case .unknown(let value): value
        }
    }

    public var description: String { headerValue }

    public init(from decoder: any Decoder) throws {
        self.init(headerValue: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(headerValue)
    }
}

extension StringProtocol {
    /// Drops leading and trailing spaces and tabs (HTTP's OWS), nothing else.
    func trimmingHTTPWhitespace() -> SubSequence {
        let isWhitespace = { (c: Character) in c == " " || c == "\t" }
        guard let first = firstIndex(where: { !isWhitespace($0) }), let last = lastIndex(where: { !isWhitespace($0) })
        else { return self[endIndex...] }
        return self[first...last]
    }
}
