import Foundation

/// Base64url without padding (RFC 4648 §5; RFC 7636 Appendix A; RFC 7515 §2), the form of PKCE challenges, JWS
/// parts and every bearer secret SignInBridge mints. Encoded in one pass into one buffer: it runs several times per
/// token request, where Foundation's base64 plus three `replacingOccurrences` cost more than the signature.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        let input = Array(bytes)
        let length = (input.count * 4 + 2) / 3
        return String(unsafeUninitializedCapacity: length) { output in
            var written = 0
            var index = 0
            func put(_ sextet: UInt32) {
                output[written] = alphabet[Int(sextet & 0x3F)]
                written += 1
            }
            while index + 3 <= input.count {
                let group = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
                put(group >> 18); put(group >> 12); put(group >> 6); put(group)
                index += 3
            }
            switch input.count - index {
            case 2:
                let group = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8
                put(group >> 18); put(group >> 12); put(group >> 6)
            case 1:
                let group = UInt32(input[index]) << 16
                put(group >> 18); put(group >> 12)
            default: break
            }
            return written
        }
    }

    /// The bytes of an unpadded base64url string; nil for any character outside the alphabet or a length no
    /// encoding produces.
    public static func decode(_ text: String) -> [UInt8]? {
        guard text.utf8.count % 4 != 1,
            text.utf8.allSatisfy({ byte in alphabet.contains(byte) })
        else { return nil }
        var standard = String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        standard += String(repeating: "=", count: (4 - standard.utf8.count % 4) % 4)
        return Data(base64Encoded: standard).map(Array.init)
    }
}
