/// A strict RFC 8259 reader for the one shape `UrlSchemes` has: an object whose values are lists.
///
/// `JSONDecoder` would do the syntax, but it forgets key order, and the order of unknown platforms must survive;
/// it also cannot say at which byte the text went wrong.
enum UrlSchemesJSONReader {
    enum Item: Equatable {
        case string(String)
        /// A JSON integer without sign, fraction or exponent, kept as its digits.
        case integer(String)
        /// Any other value (`null`, `true`, a negative or fractional number, an object, a list).
        case other
    }

    struct Platform {
        var key: String
        var items: [Item]
    }

    static func readPlatforms(_ bytes: [UInt8]) throws(UrlSchemesError) -> [Platform] {
        var reader = Reader(bytes: bytes)
        reader.skipWhitespace()
        guard reader.peek == UInt8(ascii: "{") else {
            // A valid JSON value that is not an object is a shape error; anything else a syntax error.
            _ = try reader.readValue(depth: 0)
            reader.skipWhitespace()
            try reader.expectEnd()
            throw .notAnObject
        }
        reader.index += 1
        var platforms = [Platform]()
        reader.skipWhitespace()
        if reader.peek == UInt8(ascii: "}") {
            reader.index += 1
        } else {
            while true {
                reader.skipWhitespace()
                let key = try reader.readString()
                reader.skipWhitespace()
                try reader.expect(UInt8(ascii: ":"), "':'")
                reader.skipWhitespace()
                guard reader.peek == UInt8(ascii: "[") else {
                    _ = try reader.readValue(depth: 1)
                    throw .notAList(platform: key)
                }
                let items = try reader.readList(depth: 1)
                platforms.append(Platform(key: key, items: items))
                reader.skipWhitespace()
                if reader.peek == UInt8(ascii: ",") {
                    reader.index += 1
                    continue
                }
                try reader.expect(UInt8(ascii: "}"), "',' or '}'")
                break
            }
        }
        reader.skipWhitespace()
        try reader.expectEnd()
        return platforms
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0
        /// Deep nesting can only come from a hostile peer; refuse it rather than recurse without bound.
        static let maxDepth = 16

        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        func fail(_ expected: String) -> UrlSchemesError { .malformedJSON(offset: index, expected: expected) }

        mutating func skipWhitespace() {
            while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }

        mutating func expect(_ byte: UInt8, _ what: String) throws(UrlSchemesError) {
            guard peek == byte else { throw fail(what) }
            index += 1
        }

        func expectEnd() throws(UrlSchemesError) {
            guard index == bytes.count else { throw fail("end of input") }
        }

        mutating func readList(depth: Int) throws(UrlSchemesError) -> [Item] {
            guard depth < Self.maxDepth else { throw fail("less nesting") }
            try expect(UInt8(ascii: "["), "'['")
            var items = [Item]()
            skipWhitespace()
            if peek == UInt8(ascii: "]") {
                index += 1
                return items
            }
            while true {
                skipWhitespace()
                items.append(try readValue(depth: depth + 1))
                skipWhitespace()
                if peek == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                try expect(UInt8(ascii: "]"), "',' or ']'")
                return items
            }
        }

        mutating func readObject(depth: Int) throws(UrlSchemesError) {
            guard depth < Self.maxDepth else { throw fail("less nesting") }
            try expect(UInt8(ascii: "{"), "'{'")
            skipWhitespace()
            if peek == UInt8(ascii: "}") {
                index += 1
                return
            }
            while true {
                skipWhitespace()
                _ = try readString()
                skipWhitespace()
                try expect(UInt8(ascii: ":"), "':'")
                skipWhitespace()
                _ = try readValue(depth: depth + 1)
                skipWhitespace()
                if peek == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                try expect(UInt8(ascii: "}"), "',' or '}'")
                return
            }
        }

        mutating func readValue(depth: Int) throws(UrlSchemesError) -> Item {
            guard let byte = peek else { throw fail("a JSON value") }
            switch byte {
            case UInt8(ascii: "\""): return .string(try readString())
            case UInt8(ascii: "["):
                _ = try readList(depth: depth)
                return .other
            case UInt8(ascii: "{"):
                try readObject(depth: depth)
                return .other
            case UInt8(ascii: "t"): try readLiteral("true")
            case UInt8(ascii: "f"): try readLiteral("false")
            case UInt8(ascii: "n"): try readLiteral("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try readNumber()
            default: throw fail("a JSON value")
            }
            return .other
        }

        mutating func readLiteral(_ literal: StaticString) throws(UrlSchemesError) {
            let count = literal.utf8CodeUnitCount
            guard index + count <= bytes.count,
                bytes[index..<index + count].elementsEqual(
                    UnsafeBufferPointer(start: literal.utf8Start, count: count))
            else { throw fail("\(literal)") }
            index += count
        }

        /// RFC 8259 §6: `-? int frac? exp?`, where int has no leading zero.
        mutating func readNumber() throws(UrlSchemesError) -> Item {
            var plainInteger = true
            if peek == UInt8(ascii: "-") {
                plainInteger = false
                index += 1
            }
            let digitsStart = index
            guard let first = peek, isDigit(first) else { throw fail("a digit") }
            index += 1
            if first != UInt8(ascii: "0") { skipDigits() }
            let digitsEnd = index
            if peek == UInt8(ascii: ".") {
                plainInteger = false
                index += 1
                guard let byte = peek, isDigit(byte) else { throw fail("a digit") }
                skipDigits()
            }
            if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
                plainInteger = false
                index += 1
                if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { index += 1 }
                guard let byte = peek, isDigit(byte) else { throw fail("a digit") }
                skipDigits()
            }
            guard plainInteger else { return .other }
            return .integer(String(decoding: bytes[digitsStart..<digitsEnd], as: UTF8.self))
        }

        private func isDigit(_ byte: UInt8) -> Bool { (48...57).contains(byte) }

        private mutating func skipDigits() {
            while let byte = peek, isDigit(byte) { index += 1 }
        }

        /// RFC 8259 §7, including `\uXXXX` surrogate pairs; raw control characters are refused.
        mutating func readString() throws(UrlSchemesError) -> String {
            try expect(UInt8(ascii: "\""), "a string")
            var out = [UInt8]()
            while true {
                guard let byte = peek else { throw fail("'\"' to close the string") }
                switch byte {
                case UInt8(ascii: "\""):
                    index += 1
                    guard PercentEncoding.isValidUTF8(out) else { throw fail("UTF-8 text") }
                    return String(decoding: out, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    index += 1
                    try readEscape(into: &out)
                case 0x00..<0x20:
                    throw fail("no control character in a string")
                default:
                    out.append(byte)
                    index += 1
                }
            }
        }

        private mutating func readEscape(into out: inout [UInt8]) throws(UrlSchemesError) {
            guard let byte = peek else { throw fail("an escape") }
            index += 1
            let simple: UInt8? =
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): byte
                case UInt8(ascii: "b"): 0x08
                case UInt8(ascii: "f"): 0x0C
                case UInt8(ascii: "n"): 0x0A
                case UInt8(ascii: "r"): 0x0D
                case UInt8(ascii: "t"): 0x09
                default: nil
                }
            if let simple {
                out.append(simple)
                return
            }
            guard byte == UInt8(ascii: "u") else {
                index -= 1
                throw fail("a valid escape")
            }
            var scalar = try readHex4()
            if (0xD800..<0xDC00).contains(scalar) {
                guard peek == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u")
                else { throw fail("a low surrogate") }
                index += 2
                let low = try readHex4()
                guard (0xDC00..<0xE000).contains(low) else { throw fail("a low surrogate") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw fail("a high surrogate first")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw fail("a Unicode scalar") }
            out.append(contentsOf: String(Character(unicode)).utf8)
        }

        private mutating func readHex4() throws(UrlSchemesError) -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let byte = peek, let digit = PercentEncoding.hexValue(byte) else { throw fail("4 hex digits") }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }
    }
}
