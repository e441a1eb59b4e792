/// One challenge of a `WWW-Authenticate` field (RFC 9110 §11.6.1):
/// `challenge = auth-scheme [ 1*SP ( token68 / #auth-param ) ]`.
///
/// This is the general grammar; `BootstrapChallenge` adds the Office rules on top.
public struct AuthenticationChallenge: Sendable, Hashable, Codable {
    public struct Parameter: Sendable, Hashable, Codable {
        /// As sent; compare with `asciiLowercased()`, names are case-insensitive (RFC 9110 §11.2).
        public var name: String
        /// Unquoted: a quoted-string's quoted-pairs are already resolved.
        public var value: String
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// As sent (`Bearer`, `bearer`); schemes are case-insensitive (RFC 9110 §11.1).
    public var scheme: String
    /// Set when the challenge carries a token68 instead of parameters.
    public var token68: String?
    /// In the order sent; names are unique ignoring case.
    public var parameters: [Parameter]

    public init(scheme: String, token68: String? = nil, parameters: [Parameter] = []) {
        self.scheme = scheme
        self.token68 = token68
        self.parameters = parameters
    }

    /// The value of the parameter named `name`, ignoring ASCII case.
    public subscript(parameter name: String) -> String? {
        let wanted = name.asciiLowercased()
        return parameters.first { $0.name.asciiLowercased() == wanted }?.value
    }

    /// `scheme` equals `other` ignoring ASCII case.
    public func hasScheme(_ other: String) -> Bool { scheme.asciiLowercased() == other.asciiLowercased() }

    /// `scheme token68` or `scheme name="value",name="value"`: values always quoted, `"` and `\` escaped with a
    /// quoted-pair (RFC 9110 §5.6.4), parameters joined by a bare `,` as the Office docs write them.
    public var headerValue: String {
        if let token68 { return scheme + " " + token68 }
        if parameters.isEmpty { return scheme }
        return scheme + " "
            + parameters.map { $0.name + "=" + Self.quoted($0.value) }.joined(separator: ",")
    }

    static func quoted(_ value: String) -> String {
        var out = "\""
        for character in value {
            if character == "\"" || character == "\\" { out.append("\\") }
            out.append(character)
        }
        return out + "\""
    }
}

/// Where something is in a list of header field values: which value (0-based) and the byte offset inside it.
public struct HeaderPosition: Sendable, Hashable, CustomStringConvertible {
    public var headerIndex: Int
    public var offset: Int
    public init(headerIndex: Int, offset: Int) {
        self.headerIndex = headerIndex
        self.offset = offset
    }

    public var description: String {
        headerIndex == 0 ? "byte \(offset)" : "byte \(offset) of header value \(headerIndex + 1)"
    }
}

/// A `WWW-Authenticate` value breaks the RFC 9110 §11 grammar.
public enum AuthenticationChallengeError: Error, Sendable, Hashable, CustomStringConvertible {
    case tooLarge(InputTooLarge)
    /// No challenge at all (every value empty or only commas).
    case empty
    /// An auth-scheme (a token) was expected here.
    case expectedScheme(at: HeaderPosition)
    /// After `name=` neither a token nor a quoted-string follows.
    case expectedParameterValue(parameter: String, at: HeaderPosition)
    /// The quoted-string of `parameter` is not closed, or holds a control character or a bad quoted-pair.
    case badQuotedString(parameter: String, at: HeaderPosition)
    /// Something other than `,` (with optional whitespace) follows a parameter or token68.
    case expectedComma(at: HeaderPosition)
    /// A parameter name repeats within one challenge (RFC 9110 §11.2: "MUST NOT occur more than once").
    case duplicateParameter(name: String, at: HeaderPosition)

    public var description: String {
        switch self {
        case .tooLarge(let error): "\(error)"
        case .empty: "WWW-Authenticate holds no challenge"
        case .expectedScheme(let at): "expected an auth-scheme at \(at)"
        case .expectedParameterValue(let name, let at): "parameter \(name) at \(at): expected a token or quoted-string value"
        case .badQuotedString(let name, let at): "parameter \(name) at \(at): unterminated or invalid quoted-string"
        case .expectedComma(let at): "expected ',' between challenge parts at \(at)"
        case .duplicateParameter(let name, let at): "parameter \(name) at \(at) appears twice in one challenge"
        }
    }
}

extension AuthenticationChallenge {
    /// Parses every challenge of one or more `WWW-Authenticate` field values (several fields are one list,
    /// RFC 9110 §5.3). Empty list elements are skipped, as §5.6.1 requires of recipients.
    ///
    /// - Parameter limit: applies to all values together.
    public static func parse(
        headerValues: [String], limit: InputLimit = .default
    ) throws(AuthenticationChallengeError) -> [AuthenticationChallenge] {
        try parseLocated(headerValues: headerValues, limit: limit).challenges.map(\.challenge)
    }

    /// A challenge with the positions of its parts, for errors that point into the header.
    struct Located {
        var challenge: AuthenticationChallenge
        var position: HeaderPosition
        /// Parallel to `challenge.parameters`: where each parameter's name starts.
        var parameterPositions: [HeaderPosition]
        /// Parallel to `challenge.parameters`: whether the value was sent as a quoted-string.
        var parameterQuoted: [Bool] = []
    }

    /// Every challenge, and where the sender wrote an empty list element (which recipients skip, RFC 9110 §5.6.1).
    struct LocatedList {
        var challenges: [Located]
        var emptyElements: [HeaderPosition]
    }

    static func parseLocated(
        headerValues: [String], limit: InputLimit
    ) throws(AuthenticationChallengeError) -> LocatedList {
        let total = headerValues.reduce(0) { $0 + $1.utf8.count }
        do { try limit.check(byteCount: total, what: "WWW-Authenticate") } catch { throw .tooLarge(error) }
        var result = LocatedList(challenges: [], emptyElements: [])
        for (headerIndex, value) in headerValues.enumerated() {
            var parser = ChallengeParser(bytes: Array(value.utf8), headerIndex: headerIndex)
            result.challenges += try parser.parseAll()
            result.emptyElements += parser.emptyElements
        }
        guard !result.challenges.isEmpty else { throw .empty }
        return result
    }
}

/// A cursor over one field value's bytes. All offsets are UTF-8 byte offsets into that value.
private struct ChallengeParser {
    let bytes: [UInt8]
    let headerIndex: Int
    var index = 0
    /// Where each empty list element starts (its comma): accepted here, reported to the sender's checks.
    var emptyElements = [HeaderPosition]()

    init(bytes: [UInt8], headerIndex: Int) {
        self.bytes = bytes
        self.headerIndex = headerIndex
    }

    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }
    var here: HeaderPosition { HeaderPosition(headerIndex: headerIndex, offset: index) }

    /// tchar (RFC 9110 §5.6.2).
    static func isTokenChar(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    /// token68 body characters (RFC 9110 §11.2), without the trailing `=` padding.
    static func isToken68Char(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
            UInt8(ascii: "+"), UInt8(ascii: "/"):
            return true
        default:
            return false
        }
    }

    /// OWS and BWS (RFC 9110 §5.6.3): spaces and tabs.
    mutating func skipWhitespace() {
        while let byte = peek, byte == 0x20 || byte == 0x09 { index += 1 }
    }

    /// Skips whitespace and the commas up to the next element, recording every comma that ends an empty element;
    /// true when another element follows. `afterElement`: one comma is the separator the list needs.
    mutating func skipSeparators(afterElement: Bool) -> Bool {
        var commas = [HeaderPosition]()
        while true {
            skipWhitespace()
            guard peek == UInt8(ascii: ",") else { break }
            commas.append(here)
            index += 1
        }
        let more = peek != nil
        // A leading comma, a doubled one, or one before the end each delimit an element with nothing in it.
        let needed = afterElement && more ? 1 : 0
        emptyElements += commas.dropFirst(needed)
        return more
    }

    mutating func readToken() -> String? {
        let start = index
        while let byte = peek, Self.isTokenChar(byte) { index += 1 }
        guard index > start else { return nil }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    mutating func parseAll() throws(AuthenticationChallengeError) -> [AuthenticationChallenge.Located] {
        var result = [AuthenticationChallenge.Located]()
        while skipSeparators(afterElement: !result.isEmpty) {
            result.append(try parseChallenge())
        }
        return result
    }

    /// Parses one challenge and leaves the cursor on the `,` that ends it, or at the end.
    mutating func parseChallenge() throws(AuthenticationChallengeError) -> AuthenticationChallenge.Located {
        let start = here
        guard let scheme = readToken() else { throw .expectedScheme(at: here) }
        var located = AuthenticationChallenge.Located(
            challenge: AuthenticationChallenge(scheme: scheme), position: start, parameterPositions: [])
        let afterScheme = index
        skipWhitespace()
        let spaceFollowsScheme = index > afterScheme && bytes[afterScheme] == 0x20
        guard let next = peek else { return located }
        if next == UInt8(ascii: ",") {
            // `Basic , realm="x"`: the parameter list may open with empty elements (RFC 9110 §5.6.1, §11.6.1).
            var probe = self
            guard spaceFollowsScheme, probe.skipSeparators(afterElement: false),
                probe.startsParameter(valueMustFollow: true)
            else { return located }
            self = probe
        } else {
            guard spaceFollowsScheme else { throw .expectedComma(at: here) }
            if let token68 = readToken68IfPresent() {
                located.challenge.token68 = token68
                return located
            }
        }
        var seen = Set<String>()
        while true {
            let position = here
            guard let (parameter, quoted) = try readParameter() else { break }
            guard seen.insert(parameter.name.asciiLowercased()).inserted else {
                throw .duplicateParameter(name: parameter.name, at: position)
            }
            located.challenge.parameters.append(parameter)
            located.parameterPositions.append(position)
            located.parameterQuoted.append(quoted)
            // Parameters and challenges share one comma-separated list: look past the commas to decide.
            skipWhitespace()
            guard peek != nil else { break }
            guard peek == UInt8(ascii: ",") else { throw .expectedComma(at: here) }
            var probe = self
            guard probe.skipSeparators(afterElement: true), probe.startsParameter(valueMustFollow: false) else {
                break
            }
            self = probe
        }
        return located
    }

    /// True when the cursor is at `token BWS "="`, i.e. an auth-param rather than a new challenge's scheme (which
    /// is followed by a space, a comma or the end). Right after the scheme, a token68 may also end in `=`, so there
    /// a value must follow too (`valueMustFollow`).
    func startsParameter(valueMustFollow: Bool) -> Bool {
        var probe = self
        guard probe.readToken() != nil else { return false }
        probe.skipWhitespace()
        guard probe.peek == UInt8(ascii: "=") else { return false }
        guard valueMustFollow else { return true }
        probe.index += 1
        probe.skipWhitespace()
        guard let byte = probe.peek else { return false }
        return byte == UInt8(ascii: "\"") || Self.isTokenChar(byte)
    }

    /// Reads a token68 if that is what follows the scheme: `1*tchar68 *"="`, then only whitespace, `,` or the end.
    mutating func readToken68IfPresent() -> String? {
        guard !startsParameter(valueMustFollow: true) else { return nil }
        let start = index
        while let byte = peek, Self.isToken68Char(byte) { index += 1 }
        guard index > start else {
            index = start
            return nil
        }
        while peek == UInt8(ascii: "=") { index += 1 }
        let end = index
        skipWhitespace()
        guard peek == nil || peek == UInt8(ascii: ",") else {
            index = start
            return nil
        }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// `token BWS "=" BWS ( token / quoted-string )`; nil when no token starts here.
    mutating func readParameter() throws(AuthenticationChallengeError) -> (AuthenticationChallenge.Parameter, quoted: Bool)? {
        let start = here
        guard let name = readToken() else {
            guard peek == nil else { throw .expectedScheme(at: start) }
            return nil
        }
        skipWhitespace()
        guard peek == UInt8(ascii: "=") else { throw .expectedParameterValue(parameter: name, at: start) }
        index += 1
        skipWhitespace()
        if peek == UInt8(ascii: "\"") {
            return (.init(name: name, value: try readQuotedString(parameter: name, start: start)), true)
        }
        guard let value = readToken() else { throw .expectedParameterValue(parameter: name, at: start) }
        return (.init(name: name, value: value), false)
    }

    /// `DQUOTE *( qdtext / quoted-pair ) DQUOTE` (RFC 9110 §5.6.4); obs-text bytes are kept as UTF-8.
    mutating func readQuotedString(
        parameter: String, start: HeaderPosition
    ) throws(AuthenticationChallengeError) -> String {
        index += 1
        var out = [UInt8]()
        while let byte = peek {
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                guard PercentEncoding.isValidUTF8(out) else { throw .badQuotedString(parameter: parameter, at: start) }
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let escaped = peek, escaped == 0x09 || escaped >= 0x20, escaped != 0x7F else {
                    throw .badQuotedString(parameter: parameter, at: start)
                }
                out.append(escaped)
                index += 1
            case 0x09, 0x20...0x7E, 0x80...0xFF:
                out.append(byte)
            default:
                throw .badQuotedString(parameter: parameter, at: start)
            }
        }
        throw .badQuotedString(parameter: parameter, at: start)
    }
}
