/// An Office To/Back URL or Android extra could not be decoded; each case names what was wrong.
public enum OfficeURLError: Error, Sendable, Hashable, CustomStringConvertible {
    case tooLarge(InputTooLarge)
    /// No `scheme:` at the start, or the scheme has characters RFC 3986 §3.1 does not allow.
    case badScheme(String)
    /// A Back URL whose scheme is not one of `ms-word-tp`, `ms-excel-tp`, `ms-powerpoint-tp`, `ms-officemobile-tp`.
    case unknownOfficeScheme(String)
    case badEncoding(FormDecodingError)
    case missingParameter(String)
    /// A parameter the protocol defines appears twice (names compared ignoring case; RFC 6749 §3.1).
    case duplicateParameter(String)
    /// A parameter that must carry a value is empty.
    case emptyParameter(String)
    /// Neither `code` (success) nor `error` (failure, RFC 6749 §4.1.2.1).
    case missingCodeAndError
    /// Both `code` and `error`: the outcome is ambiguous.
    case bothCodeAndError

    public var description: String {
        switch self {
        case .tooLarge(let error): "\(error)"
        case .badScheme(let scheme): "'\(scheme)' is not a URL scheme (expected letters, digits, '+', '-', '.' then ':')"
        case .unknownOfficeScheme(let scheme):
            "'\(scheme)' is not an Office scheme (ms-word-tp, ms-excel-tp, ms-powerpoint-tp, ms-officemobile-tp)"
        case .badEncoding(let error): "\(error)"
        case .missingParameter(let name): "missing parameter \(name)"
        case .duplicateParameter(let name): "parameter \(name) appears more than once"
        case .emptyParameter(let name): "parameter \(name) is empty"
        case .missingCodeAndError: "neither code nor error is present"
        case .bothCodeAndError: "both code and error are present"
        }
    }
}

/// Splitting `scheme:query` and taking the parameters the protocol defines out of the query.
enum OfficeURLParts {
    /// `scheme:query`, `scheme://query` and `scheme://?query` all give the same query (seed 004 writes no `//`,
    /// some apps add it). The offset is where the query starts, for errors.
    static func split(
        _ url: some StringProtocol, limit: InputLimit, what: String
    ) throws(OfficeURLError) -> (scheme: String, query: Substring, queryOffset: Int) {
        do { try limit.check(url, what: what) } catch { throw .tooLarge(error) }
        let text = Substring(url)
        guard let colon = text.firstIndex(of: ":") else { throw .badScheme(String(text.prefix(32))) }
        let scheme = text[..<colon]
        guard isScheme(scheme) else { throw .badScheme(String(scheme)) }
        var query = text[text.index(after: colon)...]
        if query.hasPrefix("//") { query = query.dropFirst(2) }
        if query.hasPrefix("?") { query = query.dropFirst() }
        let offset = text.utf8.distance(from: text.startIndex, to: query.startIndex)
        return (String(scheme), query, offset)
    }

    /// RFC 3986 §3.1: `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
    static func isScheme(_ scheme: some StringProtocol) -> Bool {
        guard let first = scheme.utf8.first, isLetter(first) else { return false }
        return scheme.utf8.allSatisfy {
            isLetter($0) || (48...57).contains($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-")
                || $0 == UInt8(ascii: ".")
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (65...90).contains(byte) || (97...122).contains(byte) }

    /// Decodes a query. `+` stays `+`: these payloads are RFC 3986 URLs, not HTML form bodies, and Apple's
    /// `URLComponents` (which Office iOS and partner apps use) does not turn `+` into a space either; reading `+`
    /// as a space would corrupt an `action` or `tk` that carries one. Our encoder writes `%20` and `%2B`, so both
    /// readings agree on everything we emit.
    static func decodeQuery(
        _ query: some StringProtocol, limit: InputLimit, baseOffset: Int, what: String
    ) throws(OfficeURLError) -> FormParameters {
        do {
            return try FormParameters.decode(query, plusAsSpace: false, limit: limit, baseOffset: baseOffset, what: what)
        } catch {
            throw .badEncoding(error)
        }
    }

    /// Takes `names` (matched ignoring ASCII case: Office sends `Build` and `build`) out of `form`; the rest stays
    /// in order. A defined name that appears twice is an error.
    static func take(
        _ names: [String], from form: FormParameters
    ) throws(OfficeURLError) -> (values: [String: String], rest: FormParameters) {
        let wanted = Dictionary(uniqueKeysWithValues: names.map { ($0.asciiLowercased(), $0) })
        var values = [String: String]()
        var rest = FormParameters()
        for pair in form {
            guard let name = wanted[pair.name.asciiLowercased()] else {
                rest.append(pair.name, pair.value)
                continue
            }
            guard values[name] == nil else { throw .duplicateParameter(name) }
            values[name] = pair.value
        }
        return (values, rest)
    }
}
