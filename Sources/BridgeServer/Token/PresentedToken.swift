import Foundation
import SignInProtocol

/// A token handed to the revocation or introspection endpoint, told apart by shape: our access tokens are compact
/// JWTs (three dot-separated parts), WOPI access tokens `w1.` and three more parts (`WopiAccessTokenSeal`), our
/// refresh tokens 43 base64url characters without dots. `token_type_hint` is therefore not needed, and an unknown
/// hint is ignored rather than refused (RFC 7009 §2.1, RFC 7662 §2.1).
enum PresentedToken: Equatable {
    case accessToken(String)
    case wopiAccessToken(String)
    case refreshToken(String)

    init(_ value: String) {
        switch value.utf8.lazy.filter({ $0 == UInt8(ascii: ".") }).count {
        case 2: self = .accessToken(value)
        case 3 where value.hasPrefix(WopiAccessTokenSeal.version + "."): self = .wopiAccessToken(value)
        default: self = .refreshToken(value)
        }
    }
}

extension AccessTokenVerifier {
    /// The access token `jwt` if it verifies, is active and was issued to `clientID`; nil otherwise. Revocation and
    /// introspection answer the same for expired, revoked and foreign tokens, so that neither tells them apart.
    /// Only a store outage is an error (`temporarily_unavailable`): the answer would otherwise be wrong.
    func activeToken(_ jwt: String, of clientID: String, at time: Date) async throws(OAuthError) -> VerifiedAccessToken? {
        let verified: VerifiedAccessToken
        do {
            verified = try await verifiedToken(jwt, at: time)
        } catch .storeUnavailable {
            throw OAuthError.storeUnavailable
        } catch .storeFault {
            throw OAuthError.serverFault
        } catch {
            return nil
        }
        return verified.grant.clientID == clientID ? verified : nil
    }
}
