/// An ordered list of name/value pairs: a URL query or an `application/x-www-form-urlencoded` body.
///
/// Order and duplicates are kept, because RFC 6749 §3.1 says a parameter sent twice is an error that the
/// server must be able to see, and because the Office To/Back URLs are compared byte for byte in tests.
public struct FormParameters: Sendable, Hashable, Sequence {
    public struct Pair: Sendable, Hashable {
        public var name: String
        public var value: String
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    public private(set) var pairs: [Pair]

    public init(_ pairs: [Pair] = []) { self.pairs = pairs }

    public init(_ pairs: KeyValuePairs<String, String>) {
        self.pairs = pairs.map { Pair($0.key, $0.value) }
    }

    public func makeIterator() -> IndexingIterator<[Pair]> { pairs.makeIterator() }

    public var isEmpty: Bool { pairs.isEmpty }

    /// Appends a pair; `nil` values are skipped so that optional parameters are simply omitted.
    /// `uri` with these parameters added to its query (RFC 6749 §3.1.2: an existing query is kept).
    public func appended(to uri: String) -> String { URIComponents.appending(self, to: uri) }

    public mutating func append(_ name: String, _ value: String?) {
        guard let value else { return }
        // Room for a typical request at once, instead of growing 1, 2, 4, 8, 16.
        if pairs.capacity == 0 { pairs.reserveCapacity(12) }
        pairs.append(Pair(name, value))
    }

    /// The first value of `name` (exact, case-sensitive match, as RFC 6749 parameter names are).
    public subscript(name: String) -> String? {
        pairs.first(where: { $0.name == name })?.value
    }

    /// Every value of `name`, in order.
    public func values(for name: String) -> [String] {
        pairs.filter { $0.name == name }.map(\.value)
    }

    /// The first value whose name matches ignoring ASCII case: Office sends `Build` and `build`.
    public func value(forCaseInsensitive name: String) -> String? {
        pairs.first(where: { $0.name.asciiLowercased() == name.asciiLowercased() })?.value
    }

    /// Names that appear more than once (compared exactly), in first-seen order.
    public var duplicatedNames: [String] {
        var seen = Set<String>()
        var reported = Set<String>()
        var result = [String]()
        for pair in pairs where !seen.insert(pair.name).inserted && reported.insert(pair.name).inserted {
            result.append(pair.name)
        }
        return result
    }

    /// Removes every pair named `name`.
    public mutating func removeAll(named name: String) {
        pairs.removeAll { $0.name == name }
    }

    // MARK: Encoding

    /// `name=value&…` with every non-unreserved byte percent-encoded (space as `%20`, never `+`), which is
    /// valid both as a URL query and as a form body.
    public var encoded: String { encoded(after: "") }

    /// `prefix` (written as it is, not encoded) followed by `encoded`, built in one buffer: for `scheme:query`
    /// URLs, without a second copy for the concatenation.
    func encoded(after prefix: String) -> String {
        // One pass and one allocation: room for the worst case (every byte escaped), then the actual length.
        var capacity = prefix.utf8.count + Swift.max(0, pairs.count - 1)
        for pair in pairs { capacity += 3 * (pair.name.utf8.count + pair.value.utf8.count) + 1 }
        return PercentEncoding.unreservedTable.withUnsafeBufferPointer { unreserved in
            String(unsafeUninitializedCapacity: capacity) { out in
            var index = 0
            for byte in prefix.utf8 {
                out[index] = byte
                index += 1
            }
            for (number, pair) in pairs.enumerated() {
                if number > 0 {
                    out[index] = UInt8(ascii: "&")
                    index += 1
                }
                index = Self.write(pair.name, into: out, at: index, unreserved: unreserved)
                out[index] = UInt8(ascii: "=")
                index = Self.write(pair.value, into: out, at: index + 1, unreserved: unreserved)
            }
            return index
            }
        }
    }

    private static func write(
        _ text: String, into out: UnsafeMutableBufferPointer<UInt8>, at index: Int, unreserved: UnsafeBufferPointer<Bool>
    ) -> Int {
        if let end = text.utf8.withContiguousStorageIfAvailable({
            PercentEncoding.write($0, into: out, at: index, unreserved: unreserved)
        }) {
            return end
        }
        var copy = text
        return copy.withUTF8 { PercentEncoding.write($0, into: out, at: index, unreserved: unreserved) }
    }

    // MARK: Decoding

    /// Parses `a=1&b=2`. Empty segments (`a=1&&b=2`) are skipped; a segment without `=` is a name with an
    /// empty value, as browsers treat it.
    ///
    /// - Parameters:
    ///   - plusAsSpace: true for form bodies and query strings (WHATWG URL §5.1); false for values that
    ///     must survive byte for byte, where a literal `+` is data.
    ///   - baseOffset: added to byte offsets in errors, so they point into the whole input.
    public static func decode(
        _ input: some StringProtocol,
        plusAsSpace: Bool = true,
        limit: InputLimit = .default,
        baseOffset: Int = 0,
        what: String = "form parameters"
    ) throws(FormDecodingError) -> FormParameters {
        do { try limit.check(input, what: what) } catch { throw .tooLarge(error) }
        let result =
            input.utf8.withContiguousStorageIfAvailable {
                decode(bytes: $0, plusAsSpace: plusAsSpace, baseOffset: baseOffset)
            }
            ?? {
                var copy = String(input)
                return copy.withUTF8 { decode(bytes: $0, plusAsSpace: plusAsSpace, baseOffset: baseOffset) }
            }()
        return try result.get()
    }

    /// The decoder on bytes: one pass over the input, splitting on `&` and the first `=` of each segment, with
    /// each name and value decoded straight from the input bytes (see `PercentEncoding.decode(_:plusAsSpace:baseOffset:)`).
    static func decode(
        bytes: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool, baseOffset: Int
    ) -> Result<FormParameters, FormDecodingError> {
        var separators = 0
        for byte in bytes where byte == UInt8(ascii: "&") { separators += 1 }
        var result = [Pair]()
        result.reserveCapacity(separators + 1)
        var start = 0
        while start <= bytes.count {
            var end = start
            var equals = -1
            while end < bytes.count {
                let byte = bytes[end]
                if isFormDelimiter(byte) {
                    if byte == UInt8(ascii: "&") { break }
                    if equals < 0, byte == UInt8(ascii: "=") { equals = end }
                }
                end += 1
            }
            if end > start {
                let nameEnd = equals < 0 ? end : equals
                let rawName = UnsafeBufferPointer(rebasing: bytes[start..<nameEnd])
                let name = PercentEncoding.decode(rawName, plusAsSpace: plusAsSpace, baseOffset: baseOffset + start)
                let value =
                    equals < 0
                    ? .success("")
                    : PercentEncoding.decode(
                        UnsafeBufferPointer(rebasing: bytes[(equals + 1)..<end]), plusAsSpace: plusAsSpace,
                        baseOffset: baseOffset + equals + 1)
                switch (name, value) {
                case (.success(let name), .success(let value)):
                    result.append(Pair(name, value))
                case (.failure(let error), _), (_, .failure(let error)):
                    return .failure(.badEncoding(parameter: String(decoding: rawName, as: UTF8.self), error))
                }
            }
            start = end + 1
        }
        return .success(FormParameters(result))
    }
}

/// Form or query parameters could not be decoded.
public enum FormDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    case tooLarge(InputTooLarge)
    /// The named parameter (raw, as it appeared) holds a bad `%` escape or non-UTF-8 bytes.
    case badEncoding(parameter: String, PercentDecodingError)

    public var description: String {
        switch self {
        case .tooLarge(let error): error.description
        case .badEncoding(let parameter, let error): "parameter '\(parameter)': \(error)"
        }
    }
}

extension StringProtocol {
    /// Lower-cases ASCII letters only, so that comparisons do not depend on the locale. Inlinable so that callers
    /// in other modules get it specialised for `String` and `Substring`: unspecialised, its `contains(where:)`
    /// through protocol witnesses was 15% of `signin-bridge-lint`'s instructions on a 5,000-line manifest.
    @inlinable
    public func asciiLowercased() -> String {
        // Names are nearly always lower case already: then no new string is built.
        if !utf8.contains(where: { (65...90).contains($0) }) { return String(self) }
        return String(decoding: utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
    }

    /// Equal to `other` ignoring the case of ASCII letters, without building lower-cased copies.
    public func equalsIgnoringASCIICase(_ other: some StringProtocol) -> Bool {
        let count = utf8.count
        guard count == other.utf8.count else { return false }
        let contiguous = utf8.withContiguousStorageIfAvailable { a in
            other.utf8.withContiguousStorageIfAvailable { b in
                for index in 0..<count {
                    let x = a[index]
                    let y = b[index]
                    if x != y && !(x | 0x20 == y | 0x20 && (97...122).contains(x | 0x20)) { return false }
                }
                return true
            }
        }
        if let result = contiguous ?? nil { return result }
        var a = utf8.makeIterator()
        var b = other.utf8.makeIterator()
        for _ in 0..<count {
            guard let x = a.next(), let y = b.next() else { return false }
            if x != y && !(x | 0x20 == y | 0x20 && (97...122).contains(x | 0x20)) { return false }
        }
        return true
    }
}
