import BridgeStore
import HummingbirdBcrypt
import NIOPosix

/// bcrypt (hummingbird-auth) off the async executor: a verification at cost 12 takes a quarter of a second of
/// CPU, which must not stall the tasks serving other requests. Unknown users are checked against a fixed hash so
/// that the answer takes as long as for a known one (no user enumeration by timing).
struct PasswordHasher: Sendable {
    let cost: Int

    func hash(_ password: String) async throws -> String {
        let cost = UInt8(clamping: self.cost)
        return try await NIOThreadPool.singleton.runIfActive { Bcrypt.hash(password, cost: cost) }
    }

    func verify(_ password: String, hash: String?) async throws -> Bool {
        let target = hash ?? Self.dummyHash
        let matches = try await NIOThreadPool.singleton.runIfActive { Bcrypt.verify(password, hash: target) }
        return hash != nil && matches
    }

    /// bcrypt of a random string at cost 12, made on first use; never matches a password anyone knows.
    static let dummyHash: String = Bcrypt.hash(SecretToken().value, cost: 12)
}
