/// A JSON value with the line and column where it starts, so that url_schemes.json findings point at the exact
/// item. (SignInProtocol's reader decodes UrlSchemes but reports byte offsets of the first error only.)
public struct JSONNode: Sendable, Hashable {
    public enum Value: Sendable, Hashable {
        case object([JSONMember])
        case array([JSONNode])
        case string(String)
        /// The number as written, validated against RFC 8259's grammar.
        case number(String)
        case boolean(Bool)
        case null
    }

    public var value: Value
    public var position: SourcePosition

    /// The JSON type name, for messages: "object", "array", "string", "number", "boolean", "null".
    public var typeName: String {
        switch value {
        case .object: "object"
        case .array: "array"
        case .string: "string"
        case .number: "number"
        case .boolean: "boolean"
        case .null: "null"
        }
    }
}

public struct JSONMember: Sendable, Hashable {
    public var key: String
    public var keyPosition: SourcePosition
    public var value: JSONNode
}

/// Where and why a text is not JSON (RFC 8259).
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public var position: SourcePosition
    public var description: String { "\(position): \(message)" }
}

/// A strict RFC 8259 reader: no comments, no trailing commas, no leading zeros, escapes and surrogates checked,
/// one value with only whitespace around it, nesting limited.
struct PositionedJSONReader {
    private let bytes: [UInt8]
    private let maxDepth: Int
    private var index = 0
    private var line = 1
    private var lineStart = 0

    static func parse(_ bytes: [UInt8], maxDepth: Int = 32) throws(JSONSyntaxError) -> JSONNode {
        var reader = PositionedJSONReader(bytes: bytes, maxDepth: maxDepth)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.index = 3; reader.lineStart = 3 }
        reader.skipWhitespace()
        let value = try reader.value(depth: 1)
        reader.skipWhitespace()
        guard reader.index == bytes.count else { throw reader.error("unexpected text after the JSON value") }
        return value
    }

    private init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    /// Columns count code points: UTF-8 continuation bytes between the line start and here do not count.
    private var position: SourcePosition {
        var column = 1
        var cursor = lineStart
        while cursor < index {
            if bytes[cursor] & 0xC0 != 0x80 { column += 1 }
            cursor += 1
        }
        return SourcePosition(line: line, column: column)
    }

    private func error(_ message: String) -> JSONSyntaxError { JSONSyntaxError(message: message, position: position) }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipWhitespace() {
        while let byte = current {
            switch byte {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            default: return
            }
        }
    }

    private mutating func expect(_ literal: String) throws(JSONSyntaxError) {
        for expected in literal.utf8 {
            guard current == expected else { throw error("expected \"\(literal)\"") }
            index += 1
        }
    }

    private mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONNode {
        guard depth <= maxDepth else { throw error("JSON nests deeper than \(maxDepth) levels") }
        let start = position
        guard let byte = current else { throw error("expected a value, found the end of the text") }
        switch byte {
        case UInt8(ascii: "{"): return JSONNode(value: .object(try object(depth: depth)), position: start)
        case UInt8(ascii: "["): return JSONNode(value: .array(try array(depth: depth)), position: start)
        case UInt8(ascii: "\""): return JSONNode(value: .string(try string()), position: start)
        case UInt8(ascii: "t"):
            try expect("true")
            return JSONNode(value: .boolean(true), position: start)
        case UInt8(ascii: "f"):
            try expect("false")
            return JSONNode(value: .boolean(false), position: start)
        case UInt8(ascii: "n"):
            try expect("null")
            return JSONNode(value: .null, position: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(value: .number(try number()), position: start)
        default:
            throw error("expected a value, found \(Self.describe(byte))")
        }
    }

    private mutating func object(depth: Int) throws(JSONSyntaxError) -> [JSONMember] {
        index += 1
        var members = [JSONMember]()
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return members
        }
        while true {
            skipWhitespace()
            let keyPosition = position
            guard current == UInt8(ascii: "\"") else { throw error("expected a quoted key") }
            let key = try string()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("expected ':' after the key") }
            index += 1
            skipWhitespace()
            members.append(JSONMember(key: key, keyPosition: keyPosition, value: try value(depth: depth + 1)))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return members
            default: throw error("expected ',' or '}' in the object")
            }
        }
    }

    private mutating func array(depth: Int) throws(JSONSyntaxError) -> [JSONNode] {
        index += 1
        var items = [JSONNode]()
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return items
        }
        while true {
            skipWhitespace()
            items.append(try value(depth: depth + 1))
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return items
            default: throw error("expected ',' or ']' in the list")
            }
        }
    }

    private mutating func string() throws(JSONSyntaxError) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var runStart = index
        var pending = [UInt8]()
        while true {
            guard let byte = current else { throw error("the string is not closed") }
            if byte == UInt8(ascii: "\"") {
                pending += bytes[runStart..<index]
                index += 1
                break
            }
            if byte < 0x20 { throw error("control character \(Self.describe(byte)) in a string must be escaped") }
            if byte == UInt8(ascii: "\\") {
                pending += bytes[runStart..<index]
                index += 1
                let scalar = try escape()
                pending += Array(String(scalar).utf8)
                runStart = index
                continue
            }
            index += 1
        }
        guard let text = String(validating: pending, as: UTF8.self) else { throw error("the string is not valid UTF-8") }
        scalars.append(contentsOf: text.unicodeScalars)
        return String(scalars)
    }

    private mutating func escape() throws(JSONSyntaxError) -> Unicode.Scalar {
        guard let byte = current else { throw error("the string is not closed") }
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try hex4()
            if (0xD800...0xDBFF).contains(high) {
                guard current == UInt8(ascii: "\\") else { throw error("unpaired UTF-16 surrogate") }
                index += 1
                guard current == UInt8(ascii: "u") else { throw error("unpaired UTF-16 surrogate") }
                index += 1
                let low = try hex4()
                guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired UTF-16 surrogate") }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
            }
            guard let scalar = Unicode.Scalar(high) else { throw error("unpaired UTF-16 surrogate") }
            return scalar
        default:
            index -= 1
            throw error("invalid escape \\\(Self.describe(byte))")
        }
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = Self.hexValue(byte) else { throw error("expected four hex digits after \\u") }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func number() throws(JSONSyntaxError) -> String {
        let start = index
        if current == UInt8(ascii: "-") { index += 1 }
        guard let first = current, Self.isDigit(first) else { throw error("expected a digit") }
        index += 1
        if first == UInt8(ascii: "0"), let next = current, Self.isDigit(next) {
            throw error("numbers must not have leading zeros")
        }
        while let byte = current, Self.isDigit(byte) { index += 1 }
        if current == UInt8(ascii: ".") {
            index += 1
            guard let byte = current, Self.isDigit(byte) else { throw error("expected a digit after '.'") }
            while let byte = current, Self.isDigit(byte) { index += 1 }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard let byte = current, Self.isDigit(byte) else { throw error("expected a digit in the exponent") }
            while let byte = current, Self.isDigit(byte) { index += 1 }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    private static func describe(_ byte: UInt8) -> String {
        (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
    }
}
