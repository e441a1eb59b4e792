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
    /// Splits `scheme:query` and decodes the query, taking `names` out of it, in one look at the bytes.
    /// `scheme:query`, `scheme://query` and `scheme://?query` all give the same query (Microsoft's app-to-app docs writes no `//`,
    /// some apps add it); byte offsets in errors count from the start of the URL.
    ///
    /// - Parameter checkScheme: called with the scheme before the query is decoded; a non-nil error is thrown.
    static func decode(
        _ url: some StringProtocol, taking names: ParameterNames, limit: InputLimit, what: String,
        checkScheme: (String) -> OfficeURLError? = { _ in nil }
    ) throws(OfficeURLError) -> (scheme: String, values: [String?], rest: FormParameters) {
        do { try limit.check(url, what: what) } catch { throw .tooLarge(error) }
        let result =
            url.utf8.withContiguousStorageIfAvailable { decode(bytes: $0, taking: names, checkScheme: checkScheme) }
            ?? Array(url.utf8).withUnsafeBufferPointer { decode(bytes: $0, taking: names, checkScheme: checkScheme) }
        return try result.get()
    }

    private static func decode(
        bytes: UnsafeBufferPointer<UInt8>, taking names: ParameterNames, checkScheme: (String) -> OfficeURLError?
    ) -> Result<(scheme: String, values: [String?], rest: FormParameters), OfficeURLError> {
        guard let (colon, queryStart) = locate(bytes) else {
            guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else {
                return .failure(.badScheme(String(String(decoding: bytes, as: UTF8.self).prefix(32))))
            }
            return .failure(.badScheme(String(decoding: UnsafeBufferPointer(rebasing: bytes[..<colon]), as: UTF8.self)))
        }
        let scheme = String(decoding: UnsafeBufferPointer(rebasing: bytes[..<colon]), as: UTF8.self)
        if let error = checkScheme(scheme) { return .failure(error) }
        // `+` stays `+`: see `decodeQuery`.
        let taken = FormParameters.take(
            bytes: UnsafeBufferPointer(rebasing: bytes[queryStart...]), names: names, plusAsSpace: false,
            baseOffset: queryStart)
        switch taken {
        case .success(let (values, rest)): return .success((scheme, values, rest))
        case .failure(.decoding(let error)): return .failure(.badEncoding(error))
        case .failure(.duplicate(let name)): return .failure(.duplicateParameter(name))
        }
    }

    /// The scheme's length and where the query starts (after `:`, `//` and `?`), or nil when there is no valid
    /// `scheme:` at the start.
    private static func locate(_ bytes: UnsafeBufferPointer<UInt8>) -> (schemeLength: Int, queryStart: Int)? {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), URIComponents.isValidScheme(UnsafeBufferPointer(rebasing: bytes[..<colon]))
        else { return nil }
        var start = colon + 1
        if start + 1 < bytes.count, bytes[start] == UInt8(ascii: "/"), bytes[start + 1] == UInt8(ascii: "/") { start += 2 }
        if start < bytes.count, bytes[start] == UInt8(ascii: "?") { start += 1 }
        return (colon, start)
    }

    /// Decodes a query and takes `names` out of it in the same pass: their values by position, the other
    /// parameters in order. A name in `names` that appears twice is an error. `+` stays `+`: these payloads are
    /// RFC 3986 URLs, not HTML form bodies, and Apple's `URLComponents` (which Office iOS and partner apps use)
    /// does not turn `+` into a space either; reading `+` as a space would corrupt an `action` or `tk` that
    /// carries one. Our encoder writes `%20` and `%2B`, so both readings agree on everything we emit.
    static func decodeQuery(
        _ query: some StringProtocol, taking names: ParameterNames, limit: InputLimit, baseOffset: Int, what: String
    ) throws(OfficeURLError) -> (values: [String?], rest: FormParameters) {
        do {
            return try FormParameters.decode(
                query, taking: names, plusAsSpace: false, limit: limit, baseOffset: baseOffset, what: what)
        } catch {
            switch error {
            case .decoding(let error): throw .badEncoding(error)
            case .duplicate(let name): throw .duplicateParameter(name)
            }
        }
    }

    /// Takes `names` (matched ignoring ASCII case: Office sends `Build` and `build`) out of `form`; the rest stays
    /// in order. A defined name that appears twice is an error. `names` are lower case.
    static func take(
        _ names: [String], from form: FormParameters
    ) throws(OfficeURLError) -> (values: TakenValues, rest: FormParameters) {
        // A linear scan over a handful of names beats building a dictionary and lower-cased copies per call.
        var values = TakenValues(names: names)
        var rest = [FormParameters.Pair]()
        rest.reserveCapacity(form.pairs.count)
        for pair in form {
            guard let slot = names.firstIndex(where: { pair.name.equalsIgnoringASCIICase($0) }) else {
                rest.append(pair)
                continue
            }
            guard values.values[slot] == nil else { throw .duplicateParameter(names[slot]) }
            values.values[slot] = pair.value
        }
        return (values, FormParameters(rest))
    }

    /// The values `take` found, looked up by the names it was given.
    struct TakenValues {
        let names: [String]
        var values: [String?]

        init(names: [String]) {
            self.names = names
            values = Array(repeating: nil, count: names.count)
        }

        subscript(name: String) -> String? {
            names.firstIndex(of: name).flatMap { values[$0] }
        }
    }
}
