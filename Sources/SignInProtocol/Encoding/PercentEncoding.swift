/// Percent-encoding as RFC 3986 §2.1 defines it, with the unreserved set of §2.3 (`A-Z a-z 0-9 - . _ ~`).
///
/// Encoding escapes every other byte, so the output never contains `,`, `=`, `&`, `"` or a space: the Office
/// `UrlSchemes` header value and the To/Back URL values must survive naive splitting by real clients
/// (see PROTOCOL.md §1, "Wrong header contents seen in the wild").
public enum PercentEncoding {
    /// True for the bytes RFC 3986 §2.3 calls unreserved.
    @inlinable
    public static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// Escapes every byte of the UTF-8 form of `string` that is not unreserved, with upper-case hex digits.
    public static func encode(_ string: some StringProtocol) -> String {
        var out = [UInt8]()
        out.reserveCapacity(string.utf8.count)
        for byte in string.utf8 {
            if isUnreserved(byte) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes `%XX` escapes. With `plusAsSpace`, `+` becomes a space, as `application/x-www-form-urlencoded`
    /// requires (WHATWG URL §5.1). The result must be valid UTF-8.
    ///
    /// - Parameter baseOffset: added to byte offsets in errors, so that they point into the whole input.
    public static func decode(
        _ string: some StringProtocol, plusAsSpace: Bool = false, baseOffset: Int = 0
    ) throws(PercentDecodingError) -> String {
        let utf8 = string.utf8
        // Fast path: nothing to decode.
        if !utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }) {
            return String(string)
        }
        var out = [UInt8]()
        out.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        var offset = 0
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let first = utf8.index(after: index)
                guard first != utf8.endIndex, let high = hexValue(utf8[first]) else {
                    throw .invalidEscape(offset: baseOffset + offset)
                }
                let second = utf8.index(after: first)
                guard second != utf8.endIndex, let low = hexValue(utf8[second]) else {
                    throw .invalidEscape(offset: baseOffset + offset)
                }
                out.append(high << 4 | low)
                index = utf8.index(after: second)
                offset += 3
            } else {
                out.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index = utf8.index(after: index)
                offset += 1
            }
        }
        guard isValidUTF8(out) else { throw .invalidUTF8(offset: baseOffset) }
        return String(decoding: out, as: UTF8.self)
    }

    @usableFromInline
    static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// `String(validating:)` needs macOS 15 / iOS 18; this works everywhere the package does.
    static func isValidUTF8(_ bytes: [UInt8]) -> Bool {
        var iterator = bytes.makeIterator()
        var codec = UTF8()
        while true {
            switch codec.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }

    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

/// A percent-encoded string could not be decoded.
public enum PercentDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A `%` not followed by two hex digits, at this byte offset.
    case invalidEscape(offset: Int)
    /// The decoded bytes are not UTF-8; the offset is where the encoded value starts.
    case invalidUTF8(offset: Int)

    public var description: String {
        switch self {
        case .invalidEscape(let offset): "'%' not followed by two hex digits at byte \(offset)"
        case .invalidUTF8(let offset): "percent-decoded value starting at byte \(offset) is not valid UTF-8"
        }
    }
}
