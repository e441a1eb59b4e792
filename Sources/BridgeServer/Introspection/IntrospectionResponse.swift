import BridgeStore
import Foundation
import SignInProtocol

/// The RFC 7662 §2.2 answer. Only `active` when the token is not usable.
struct IntrospectionResponse: Encodable, Equatable {
    var active: Bool
    var scope: String?
    var client_id: String?
    var token_type: String?
    var exp: Int?
    var iat: Int?
    var sub: String?
    /// §2.2's human-readable name of the resource owner: a WOPI token's user's sign-in name.
    var username: String?
    var aud: String?
    var iss: String?
    var jti: String?
    /// RFC 9449 §6.2: the key a DPoP-bound token is bound to.
    var cnf: AccessTokenClaims.Confirmation?
    /// A WOPI access token's WopiSrc (the one file it is for, `GET_NEW_ACCESS_TOKEN`); absent for the ecosystem and
    /// root container tokens, which are for no one file (docs/wopi-hosts.md).
    var wopi_src: String?

    static let inactive = IntrospectionResponse(active: false)
}
