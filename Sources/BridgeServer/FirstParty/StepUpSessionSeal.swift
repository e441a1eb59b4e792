import BridgeStore
import Crypto
import Foundation
import SignInProtocol

/// Seals and opens step-up sessions: `su2.<key tag>.<AES-GCM nonce, ciphertext and tag>`, base64url. Encrypted, not
/// only signed, because §5.3.1 says the server "MUST adequately protect the value from inspection by the client";
/// stateless, so the token endpoint records nothing more. The AES keys come from the ES256 signing keys (HKDF, RFC
/// 5869), as the WOPI seal's do: every instance sharing the key file opens every other's, and a session sealed
/// before a rotation opens while its key is kept.
struct StepUpSessionSeal: Sendable {
    /// `su2`: the grant id joined the sealed fields; an `su1` value opens as nothing (then `invalid_session`).
    static let prefix = "su2."
    /// Far above what the seal makes (client, user and grant ids, a thumbprint), far below anything costly to refuse.
    static let maxBytes = 4096

    struct Key: Sendable {
        /// The first 8 characters of the signing key's RFC 7638 thumbprint: picks the key, proves nothing.
        let tag: String
        let key: SymmetricKey

        init(signingKey: SigningKeySet.Key) {
            tag = String(signingKey.kid.prefix(8))
            key = HKDF<SHA256>.deriveKey(
                inputKeyMaterial: SymmetricKey(data: signingKey.signingKey.rawRepresentation),
                salt: Data("SignInBridge".utf8), info: Data("first-party step-up session v1".utf8), outputByteCount: 32)
        }
    }

    let signingKeys: SigningKeySet

    /// Derived once per key set (`SigningKeySet.Snapshot`), as the WOPI seal's are, not per session.
    private func keys() -> [Key] { signingKeys.snapshot.stepUpKeys }

    func seal(_ session: StepUpSession) -> String? {
        guard let first = keys().first else { return nil }
        let header = Self.prefix + first.tag
        let plain = [session.clientID, session.userID, session.grantID, session.dpopKeyThumbprint ?? "",
                     String(Milliseconds.from(session.expiresAt))].joined(separator: "\n")
        guard let box = try? AES.GCM.seal(Array(plain.utf8), using: first.key, authenticating: Array(header.utf8)),
            let combined = box.combined
        else { return nil }
        return header + "." + Base64URL.encode(Array(combined))
    }

    /// The session in `value`, or nil when it is not one this server sealed (then it is a step's `auth_session`).
    /// Expiry, client and key are the caller's to check.
    func open(_ value: String) -> StepUpSession? {
        guard value.hasPrefix(Self.prefix), value.utf8.count <= Self.maxBytes else { return nil }
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let key = keys().first(where: { $0.tag == parts[1] })?.key,
            let combined = Base64URL.decode(String(parts[2])),
            let box = try? AES.GCM.SealedBox(combined: combined),
            let plain = try? AES.GCM.open(box, using: key, authenticating: Array((parts[0] + "." + parts[1]).utf8)),
            let text = String(validating: plain, as: UTF8.self)
        else { return nil }
        let fields = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard fields.count == 5, let expires = Int64(fields[4]) else { return nil }
        return StepUpSession(
            clientID: String(fields[0]), userID: String(fields[1]), grantID: String(fields[2]),
            dpopKeyThumbprint: fields[3].isEmpty ? nil : String(fields[3]), expiresAt: Milliseconds.date(expires))
    }
}
