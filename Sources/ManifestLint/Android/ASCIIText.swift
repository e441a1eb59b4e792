import SignInProtocolCore

/// Byte-level checks on the ASCII parts of manifest values. Foundation's `String.contains(_:)` bridges through
/// NSString and was the single largest cost of linting a large manifest (scripts/bench/lint.sh).
extension StringProtocol {
    /// True when the UTF-8 form contains `needle` (ASCII) as a contiguous byte sequence.
    func containsASCII(_ needle: StaticString) -> Bool {
        let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        func search(_ bytes: some Collection<UInt8>) -> Bool {
            guard let first = pattern.first else { return true }
            var rest = bytes[...]
            while let start = rest.firstIndex(of: first) {
                if rest[start...].starts(with: pattern) { return true }
                rest = rest[rest.index(after: start)...]
            }
            return false
        }
        return utf8.withContiguousStorageIfAvailable(search) ?? search(Array(utf8))
    }

    /// True when some character is an ASCII upper-case letter.
    var hasASCIIUppercase: Bool { utf8.contains { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) } }
}
