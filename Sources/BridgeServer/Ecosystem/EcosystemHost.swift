import BridgeHTTP
import Foundation

/// Who answers the bootstrap's `EcosystemUrl` (`wopi.ecosystemUrlTemplate`): this server, when the URL is its own
/// `<issuer>/wopi/ecosystem` (the default), or the host's own WOPI server at any other URL. Office calls
/// CheckEcosystem and GetRootContainer there next (Microsoft's "CheckEcosystem" and "GetRootContainer (ecosystem)"
/// pages), so exactly one of the two must serve them.
public enum EcosystemHost: Sendable, Hashable {
    /// This server answers `GET /wopi/ecosystem` and `GET /wopi/ecosystem/root_container_pointer`.
    case signInBridge(url: String)
    /// The host's WOPI server answers them; this server serves neither path.
    case hostWOPIServer(url: String)

    /// The path the routes are registered at (a proxy in front maps the issuer's path, as for every other route).
    public static let path = "/wopi/ecosystem"
    public static let rootContainerPointerPath = "/wopi/ecosystem/root_container_pointer"

    public init(configuration: BridgeConfiguration) {
        let template = configuration.wopi.ecosystemUrlTemplate
        let own = URLComponents(string: configuration.issuerURL(path: Self.path))
        let configured = URLComponents(string: template.replacingOccurrences(of: AccessTokenURLTemplate.placeholder, with: "T"))
        let url = configured.map { Self.withoutQuery($0) } ?? template
        if let own, let configured, let ownOrigin = WebOrigin(own), WebOrigin(configured) == ownOrigin,
            configured.percentEncodedPath == own.percentEncodedPath
        {
            self = .signInBridge(url: url)
        } else {
            self = .hostWOPIServer(url: url)
        }
    }

    public var servedBySignInBridge: Bool {
        if case .signInBridge = self { true } else { false }
    }

    /// What `signin-bridge config check` prints.
    public var summary: String {
        switch self {
        case .signInBridge(let url):
            "the WOPI ecosystem (CheckEcosystem, GetRootContainer) is served by SignInBridge at \(url)"
        case .hostWOPIServer(let url):
            "the WOPI ecosystem is the host's own WOPI server at \(url); SignInBridge serves no /wopi/ecosystem"
        }
    }

    private static func withoutQuery(_ components: URLComponents) -> String {
        var copy = components
        copy.query = nil
        copy.fragment = nil
        return copy.string ?? ""
    }
}
