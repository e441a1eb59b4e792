import BridgeStore
import Crypto
import Foundation
import SignInProtocol

/// The anti-CSRF token of the sign-in and consent forms, derived from the browser-binding cookie and the pending
/// request id (OWASP "synchronizer token" bound to the session): a page of another site can read neither, so it
/// cannot forge the form, and a token of one request is useless for another.
enum CSRFToken {
    static func derive(browserSecret: String, interactionID: String) -> String {
        let digest = SHA256.hash(data: Array("signin-bridge csrf\u{0}\(browserSecret)\u{0}\(interactionID)".utf8))
        return Base64URL.encode(Array(digest))
    }

    /// Compares in constant time (the length is public).
    static func matches(_ presented: String, _ expected: String) -> Bool {
        ConstantTime.equal(presented.utf8, expected.utf8)
    }
}
