import BridgeHTTP
import Foundation

extension BridgeConfiguration.Client {
    /// One client secret with an optional end, so a client can hold an old and a new secret while its partner
    /// switches (the overlap RFC 6749 §2.3.1 leaves to the server; Hydra and Keycloak rotate secrets this way).
    public struct Secret: Sendable, Codable, Hashable {
        /// `sha256:<hex>` of the secret, as `secretHash`.
        public var hash: String
        /// `YYYY-MM-DDTHH:MM:SSZ` (RFC 3339, UTC): from then on the secret is refused; nil: no end.
        public var expiresAt: String?

        public init(hash: String, expiresAt: String? = nil) {
            self.hash = hash
            self.expiresAt = expiresAt
        }

        /// The expiry as a date; nil when there is none or it is not in the schema's form.
        public var expiryDate: Date? { expiresAt.flatMap(LogTimestamp.date(utcSeconds:)) }

        public func isExpired(at now: Date) -> Bool { expiryDate.map { $0 <= now } ?? false }
    }

    /// Every secret of the client: `secretHash` (no end) then `secrets`.
    public var allSecrets: [Secret] {
        (secretHash.map { [Secret(hash: $0)] } ?? []) + (secrets ?? [])
    }
}
