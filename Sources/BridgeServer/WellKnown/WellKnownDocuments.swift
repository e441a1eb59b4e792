import Foundation

/// RFC 8414 authorization server metadata. Only what this server really implements is listed; the OAuth issue adds
/// `authorization_endpoint`, `token_endpoint` and the rest as those endpoints land.
struct AuthorizationServerMetadata: Encodable {
    var issuer: String
    var jwks_uri: String
    /// RFC 8414 §2 requires the member; empty until the authorize endpoint exists.
    var response_types_supported: [String] = []
    var grant_types_supported: [String] = []
    var authorization_endpoint: String?
    var token_endpoint: String?
    var code_challenge_methods_supported: [String]?

    init(configuration: BridgeConfiguration) {
        issuer = configuration.issuer
        jwks_uri = configuration.issuerURL(path: "/.well-known/jwks.json")
    }
}

/// RFC 9728 protected resource metadata for the WOPI bootstrapper (the resource the access tokens are for).
struct ProtectedResourceMetadata: Encodable {
    var resource: String
    var authorization_servers: [String]
    var bearer_methods_supported = ["header"]
    var resource_name = "SignInBridge WOPI bootstrapper"

    init(configuration: BridgeConfiguration) {
        resource = configuration.issuer
        authorization_servers = [configuration.issuer]
    }
}

/// `/auth/health` in the shape of seed 002 (`{"status":"ok","timestamp":…}`), plus the store check.
struct HealthReport: Encodable {
    var status: String
    var timestamp: String
    var store: String
}

enum JSONBody {
    static func encode(_ value: some Encodable) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(value)) ?? Data("{}".utf8))
    }
}
