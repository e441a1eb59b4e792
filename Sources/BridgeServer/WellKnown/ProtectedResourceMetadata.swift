import Foundation
import SignInProtocol

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
