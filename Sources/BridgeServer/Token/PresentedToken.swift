/// A token handed to the revocation or introspection endpoint, told apart by shape: our access tokens are compact
/// JWTs (three dot-separated parts), our refresh tokens 43 base64url characters without dots. `token_type_hint`
/// is therefore not needed, and an unknown hint is ignored rather than refused (RFC 7009 §2.1, RFC 7662 §2.1).
enum PresentedToken: Equatable {
    case accessToken(String)
    case refreshToken(String)

    init(_ value: String) {
        self = value.utf8.lazy.filter { $0 == UInt8(ascii: ".") }.count == 2 ? .accessToken(value) : .refreshToken(value)
    }
}
