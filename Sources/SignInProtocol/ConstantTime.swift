import Crypto

/// Equality of secrets in constant time, through swift-crypto's `SymmetricKey ==` (BoringSSL's `CRYPTO_memcmp` on
/// Linux, CryptoKit's on Apple platforms): the time an answer takes says nothing about how much of a secret was
/// right. The lengths are compared first and are not hidden.
public enum ConstantTime {
    public static func equal(_ lhs: some Sequence<UInt8>, _ rhs: some Sequence<UInt8>) -> Bool {
        SymmetricKey(data: Array(lhs)) == SymmetricKey(data: Array(rhs))
    }
}

extension AppCallback {
    /// True when `state` is the one the app sent; compare before acting on the callback.
    public func matches(state expected: String) -> Bool {
        ConstantTime.equal(state.utf8, expected.utf8)
    }
}
