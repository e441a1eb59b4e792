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
    public mutating func append(_ name: String, _ value: String?) {
        if let value { pairs.append(Pair(name, value)) }
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
    public var encoded: String {
        pairs.map { PercentEncoding.encode($0.name) + "=" + PercentEncoding.encode($0.value) }
            .joined(separator: "&")
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
        var result = [Pair]()
        var offset = baseOffset
        let text = Substring(input)
        for segment in text.split(separator: "&", omittingEmptySubsequences: false) {
            defer { offset += segment.utf8.count + 1 }
            if segment.isEmpty { continue }
            let name: Substring
            let value: Substring
            var valueOffset = offset
            if let equals = segment.firstIndex(of: "=") {
                name = segment[segment.startIndex..<equals]
                value = segment[segment.index(after: equals)...]
                valueOffset += name.utf8.count + 1
            } else {
                name = segment[...]
                value = ""
            }
            do {
                let decodedName = try PercentEncoding.decode(name, plusAsSpace: plusAsSpace, baseOffset: offset)
                let decodedValue = try PercentEncoding.decode(
                    value, plusAsSpace: plusAsSpace, baseOffset: valueOffset)
                result.append(Pair(decodedName, decodedValue))
            } catch {
                throw .badEncoding(parameter: String(name), error)
            }
        }
        return FormParameters(result)
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
    /// Lower-cases ASCII letters only, so that comparisons do not depend on the locale.
    public func asciiLowercased() -> String {
        String(decoding: utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
    }
}
