import Crypto
import Foundation

/// The signing keys are loaded and sign: the current ES256 key (access tokens, WOPI seals) signs a probe whose
/// signature its public key verifies, and an RS256 key is there for ID tokens (OpenID Connect Core §15.1).
struct SigningKeysReadiness: ReadinessCheck {
    let keys: SigningKeySet
    var name: String { "signingKeys" }

    static let probe = Data("signin-bridge readiness".utf8)

    func problem() async -> String? {
        let snapshot = keys.snapshot
        guard let key = snapshot.keys.first else { return "no ES256 signing key is loaded" }
        guard !snapshot.rsaKeys.isEmpty else { return "no RS256 signing key is loaded" }
        guard let signature = try? key.signingKey.signature(for: Self.probe),
            key.signingKey.publicKey.isValidSignature(signature, for: Self.probe)
        else { return "the ES256 signing key \(key.kid.prefix(8)) does not sign" }
        return nil
    }
}
