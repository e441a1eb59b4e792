import Crypto
import Foundation
import SignInProtocol

/// The CSRF token of the logout confirmation form (OpenID Connect RP-Initiated Logout 1.0 §6: a logout without a
/// valid id_token_hint is confirmed by the user first). It is an HMAC of the browser's session cookie, so only a page
/// that browser was shown can carry it (the cookie is HttpOnly, and a cross-site page reads neither it nor the form),
/// and it needs no record: a new sign-in is a new cookie, and with it a new token.
enum LogoutConfirmation {
    private static let label = Data("SignInBridge RP-initiated logout confirmation v1".utf8)

    static func token(forSession secret: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: label, using: SymmetricKey(data: Data(secret.utf8)))
        return Base64URL.encode(Array(mac))
    }

    /// True when `presented` is the token of the browser's session `secret`, compared in constant time.
    static func confirms(_ presented: String?, session secret: String) -> Bool {
        guard let presented, presented.utf8.count == 43 else { return false }
        return ConstantTime.equal(Array(presented.utf8), Array(token(forSession: secret).utf8))
    }
}
