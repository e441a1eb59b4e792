/// Percent-encoding as RFC 3986 §2.1 defines it, with the unreserved set of §2.3 (`A-Z a-z 0-9 - . _ ~`).
///
/// Encoding escapes every other byte, so the output never contains `,`, `=`, `&`, `"` or a space: the Office
/// `UrlSchemes` header value and the To/Back URL values must survive naive splitting by real clients
/// (see Microsoft's Office app-to-app docs, "Wrong header contents seen in the wild").
public enum PercentEncoding {
    /// True for the bytes RFC 3986 §2.3 calls unreserved.
    @inlinable @inline(__always)
    public static func isUnreserved(_ byte: UInt8) -> Bool {
        // Two 64-bit sets instead of range checks: the encoder asks this for every byte it writes.
        // Bits 45, 46, 48-57 of the low set are `-`, `.`, `0-9`; bits 1-26, 31, 33-58, 62 of the high set
        // (bytes 64-127) are `A-Z`, `_`, `a-z`, `~`.
        byte < 64
            ? (0x03FF_6000_0000_0000 as UInt64) &>> UInt64(byte) & 1 == 1
            : byte < 128 && (0x47FF_FFFE_87FF_FFFE as UInt64) &>> UInt64(byte &- 64) & 1 == 1
    }

    /// Escapes every byte of the UTF-8 form of `string` that is not unreserved, with upper-case hex digits.
    public static func encode(_ string: some StringProtocol) -> String {
        switch string.utf8.withContiguousStorageIfAvailable(encodeIfNeeded) {
        case .some(.some(let encoded)): return encoded
        case .some(.none): return String(string)  // Nothing to escape: no copy for a String.
        case .none:
            var copy = String(string)
            return copy.withUTF8(encodeIfNeeded) ?? copy
        }
    }

    /// The encoding of `source`, or nil when every byte is unreserved.
    static func encodeIfNeeded(_ source: UnsafeBufferPointer<UInt8>) -> String? {
        let escapes = escapedByteCount(source)
        if escapes == 0 { return nil }
        return String(unsafeUninitializedCapacity: source.count + 2 * escapes) { out in
            write(source, into: out, at: 0)
        }
    }

    /// How many bytes of `bytes` `encode` escapes.
    @inline(__always)
    static func escapedByteCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        for byte in bytes { count &+= isUnreserved(byte) ? 0 : 1 }
        return count
    }

    /// Writes the encoding of `source` into `out` from `start`; returns the index after the last byte written.
    /// `out` must have room for `source.count + 2 * escapedByteCount(source)` bytes from `start`.
    @inline(__always)
    static func write(_ source: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        unreservedTable.withUnsafeBufferPointer { write(source, into: out, at: start, unreserved: $0) }
    }

    /// `write` with the table already at hand, for callers that write many strings into one buffer.
    @inline(__always)
    static func write(
        _ source: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>, at start: Int,
        unreserved: UnsafeBufferPointer<Bool>
    ) -> Int {
        guard let base = out.baseAddress else { return start }
        var next = base + start
        for byte in source {
            if unreserved[Int(byte)] {
                next.pointee = byte
                next += 1
            } else {
                next[0] = UInt8(ascii: "%")
                next[1] = hexDigit(byte &>> 4)
                next[2] = hexDigit(byte & 0x0F)
                next += 3
            }
        }
        return next - base
    }

    /// `isUnreserved` for every byte, looked up by the encoder's inner loop (one load instead of range tests).
    static let unreservedTable: [Bool] = (0...255).map { isUnreserved(UInt8($0)) }

    /// Decodes `%XX` escapes. With `plusAsSpace`, `+` becomes a space, as `application/x-www-form-urlencoded`
    /// requires (WHATWG URL §5.1). The result must be valid UTF-8.
    ///
    /// - Parameter baseOffset: added to byte offsets in errors, so that they point into the whole input.
    public static func decode(
        _ string: some StringProtocol, plusAsSpace: Bool = false, baseOffset: Int = 0
    ) throws(PercentDecodingError) -> String {
        let result =
            string.utf8.withContiguousStorageIfAvailable {
                decode($0, plusAsSpace: plusAsSpace, baseOffset: baseOffset)
            }
            ?? {
                var copy = String(string)
                return copy.withUTF8 { decode($0, plusAsSpace: plusAsSpace, baseOffset: baseOffset) }
            }()
        return try result.get()
    }

    /// The decoder on bytes: one pass to see whether anything needs decoding (the common case is no), then one
    /// pass to decode into a temporary buffer (on the stack when small), UTF-8 checked only if a byte is >= 0x80.
    /// `bytes` must be valid UTF-8 apart from what the escapes produce (it comes from a Swift string).
    static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool, baseOffset: Int
    ) -> Result<String, PercentDecodingError> {
        var needsDecoding = false
        for byte in bytes where byte == UInt8(ascii: "%") || (plusAsSpace && byte == UInt8(ascii: "+")) {
            needsDecoding = true
            break
        }
        return decode(bytes, needsDecoding: needsDecoding, plusAsSpace: plusAsSpace, baseOffset: baseOffset)
    }

    /// `decode` for a caller that already knows whether `bytes` hold a `%` (or a `+` read as a space).
    @inline(__always)
    static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, needsDecoding: Bool, plusAsSpace: Bool, baseOffset: Int
    ) -> Result<String, PercentDecodingError> {
        if !needsDecoding { return .success(String(decoding: bytes, as: UTF8.self)) }
        // Decode straight into the new string's storage; on failure the closure keeps nothing (returns 0).
        var failure: PercentDecodingError?
        let decoded = String(unsafeUninitializedCapacity: bytes.count) { out in
            var index = 0
            var written = 0
            var nonASCII = false
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "%") {
                    guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
                    else {
                        failure = .invalidEscape(offset: baseOffset + index)
                        return 0
                    }
                    let decoded = high << 4 | low
                    nonASCII = nonASCII || decoded >= 0x80
                    out[written] = decoded
                    index += 3
                } else {
                    nonASCII = nonASCII || byte >= 0x80
                    out[written] = plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte
                    index += 1
                }
                written += 1
            }
            // Checked here because String(unsafeUninitializedCapacity:) would silently repair bad UTF-8.
            if nonASCII && !isValidUTF8(UnsafeBufferPointer(rebasing: out[0..<written])) {
                failure = .invalidUTF8(offset: baseOffset)
                return 0
            }
            return written
        }
        if let failure { return .failure(failure) }
        return .success(decoded)
    }

    /// The upper-case hex digit for 0...15.
    @inline(__always)
    static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }

    /// `String(validating:)` needs macOS 15 / iOS 18; this works everywhere the package does.
    static func isValidUTF8(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { isValidUTF8($0) }
    }

    static func isValidUTF8(_ bytes: UnsafeMutableBufferPointer<UInt8>) -> Bool {
        isValidUTF8(UnsafeBufferPointer(bytes))
    }

    static func isValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
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
