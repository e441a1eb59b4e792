/// Where each start tag and attribute of a well-formed document is, in document order.
///
/// libxml2 keeps only a line per element (the line where the start tag *ends*) and nothing for attributes, but a
/// finding should point at the exact attribute. Once libxml2 has said the document is well-formed, this small scanner
/// finds the same start tags in the same order, skipping comments, CDATA, processing instructions and the DOCTYPE
/// (entities are not expanded, so their replacement text never appears in the element tree).
struct XMLSourceMap {
    struct Attribute {
        var qualifiedName: String
        var position: SourcePosition
        var valuePosition: SourcePosition
    }

    struct StartTag {
        var qualifiedName: String
        var position: SourcePosition
        var attributes: [Attribute]
    }

    private(set) var startTags: [StartTag] = []

    init(bytes: UnsafeBufferPointer<UInt8>) {
        var scanner = Scanner(bytes: bytes)
        startTags = scanner.scanStartTags()
    }

    /// Turns byte offsets into line and column: line starts are found once, columns counted from the line start.
    private struct LineTable {
        let bytes: UnsafeBufferPointer<UInt8>
        /// Offset of the first byte of each line (LF, CR LF and a lone CR end a line, as XML normalises them).
        var lineStarts: [Int] = [0]

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                if byte == UInt8(ascii: "\n") {
                    lineStarts.append(index)
                } else if byte == UInt8(ascii: "\r") {
                    if index < bytes.count && bytes[index] == UInt8(ascii: "\n") { index += 1 }
                    lineStarts.append(index)
                }
            }
        }

        /// Columns count code points: UTF-8 continuation bytes do not start a column; a UTF-8 byte order mark at
        /// the start of the file is not a column either.
        func position(of offset: Int) -> SourcePosition {
            let offset = min(offset, bytes.count)
            var low = 0
            var high = lineStarts.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
            }
            var cursor = lineStarts[low]
            if low == 0, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { cursor = min(3, offset) }
            var column = 1
            while cursor < offset {
                if bytes[cursor] & 0xC0 != 0x80 { column += 1 }
                cursor += 1
            }
            return SourcePosition(line: low + 1, column: column)
        }
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        let lines: LineTable
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            lines = LineTable(bytes: bytes)
        }

        var position: SourcePosition { lines.position(of: index) }
        var atEnd: Bool { index >= bytes.count }

        func peek(_ offset: Int = 0) -> UInt8 {
            index + offset < bytes.count ? bytes[index + offset] : 0
        }

        func looking(at literal: StaticString) -> Bool {
            let count = literal.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            let start = literal.utf8Start
            for offset in 0..<count where bytes[index + offset] != start[offset] { return false }
            return true
        }

        /// Never past the end: the scanner reads through unchecked buffer pointers, and a document libxml2 recovered
        /// from can end inside an attribute (found by the android-manifest fuzz target).
        mutating func advance() { index = min(index + 1, bytes.count) }

        mutating func advance(by count: Int) { index = min(index + count, bytes.count) }

        mutating func skip(past terminator: StaticString) {
            let first = terminator.utf8Start[0]
            while !atEnd && !(bytes[index] == first && looking(at: terminator)) { index += 1 }
            advance(by: terminator.utf8CodeUnitCount)
        }

        static func isSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
        }

        mutating func skipSpaces() {
            while !atEnd && Self.isSpace(bytes[index]) { index += 1 }
        }

        mutating func readName() -> String {
            let start = index
            while !atEnd {
                let byte = bytes[index]
                if Self.isSpace(byte) || byte == UInt8(ascii: "=") || byte == UInt8(ascii: ">")
                    || byte == UInt8(ascii: "/")
                {
                    break
                }
                index += 1
            }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        }

        /// Skips `<!DOCTYPE …>` including an internal subset with its quoted literals and comments.
        mutating func skipDoctype() {
            var bracketDepth = 0
            while !atEnd {
                if looking(at: "<!--") {
                    skip(past: "-->")
                    continue
                }
                let byte = peek()
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "'"):
                    advance()
                    while !atEnd && peek() != byte { advance() }
                    if !atEnd { advance() }
                    continue
                case UInt8(ascii: "["): bracketDepth += 1
                case UInt8(ascii: "]"): bracketDepth -= 1
                case UInt8(ascii: ">") where bracketDepth <= 0:
                    advance()
                    return
                default: break
                }
                advance()
            }
        }

        mutating func scanStartTags() -> [StartTag] {
            var tags = [StartTag]()
            while !atEnd {
                guard bytes[index] == UInt8(ascii: "<") else {
                    index += 1
                    continue
                }
                if looking(at: "<!--") {
                    skip(past: "-->")
                } else if looking(at: "<![CDATA[") {
                    skip(past: "]]>")
                } else if looking(at: "<?") {
                    skip(past: "?>")
                } else if looking(at: "<!") {
                    skipDoctype()
                } else if looking(at: "</") {
                    skip(past: ">")
                } else {
                    tags.append(scanStartTag())
                }
            }
            return tags
        }

        mutating func scanStartTag() -> StartTag {
            let tagPosition = position
            advance()  // <
            var tag = StartTag(qualifiedName: readName(), position: tagPosition, attributes: [])
            while !atEnd {
                skipSpaces()
                let byte = peek()
                if byte == UInt8(ascii: ">") {
                    advance()
                    break
                }
                if byte == UInt8(ascii: "/") {
                    advance(by: 2)
                    break
                }
                let namePosition = position
                let name = readName()
                skipSpaces()
                if peek() == UInt8(ascii: "=") { advance() }
                skipSpaces()
                let quote = peek()
                advance()
                let valuePosition = position
                while !atEnd && bytes[index] != quote { index += 1 }
                if !atEnd { advance() }
                if name.isEmpty { continue }
                tag.attributes.append(Attribute(qualifiedName: name, position: namePosition, valuePosition: valuePosition))
            }
            return tag
        }
    }
}
