/// Where each start tag and attribute of a well-formed document is, in document order.
///
/// libxml2 keeps only a line per element (the line where the start tag *ends*) and nothing for attributes, but a
/// finding should point at the exact attribute. Once libxml2 has said the document is well-formed, this small scanner
/// finds the same start tags in the same order, skipping comments, CDATA, processing instructions and the DOCTYPE
/// (entities are not expanded, so their replacement text never appears in the element tree).
///
/// Names are kept as byte ranges of the document and compared with libxml2's names in place, rather than made into
/// Swift strings twice (here and as the qualified name to compare with): the tree of the 5,000-line benchmark
/// manifest is read with a few thousand fewer allocations (scripts/bench/lint.sh, callgrind).
struct XMLSourceMap {
    struct Attribute {
        /// The qualified name as written (`android:name`), as offsets into the document.
        var name: Range<Int>
        var position: SourcePosition
        var valuePosition: SourcePosition
    }

    struct StartTag {
        var name: Range<Int>
        var position: SourcePosition
        /// This tag's attributes in `attributes` (one array for the document rather than one per tag).
        var attributes: Range<Int>
    }

    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var startTags: [StartTag] = []
    private(set) var attributes: [Attribute] = []

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        var scanner = Scanner(bytes: bytes)
        startTags = scanner.scanStartTags()
        attributes = scanner.attributes
    }

    /// Whether the name at `range` is `prefix:local`, or `local` when there is no prefix.
    func name(_ range: Range<Int>, is local: UnsafePointer<UInt8>, prefix: UnsafePointer<UInt8>?) -> Bool {
        var index = range.lowerBound
        func consume(_ text: UnsafePointer<UInt8>) -> Bool {
            var cursor = text
            while cursor.pointee != 0 {
                guard index < range.upperBound, bytes[index] == cursor.pointee else { return false }
                index += 1
                cursor += 1
            }
            return true
        }
        if let prefix {
            guard consume(prefix), index < range.upperBound, bytes[index] == UInt8(ascii: ":") else { return false }
            index += 1
        }
        return consume(local) && index == range.upperBound
    }

    /// Turns byte offsets into line and column. The scanner asks in document order, so lines and columns are counted
    /// in one pass as it goes: a table of line starts plus a search and a column count per position cost 6.1 M
    /// instructions on the 5,000-line benchmark manifest, four times the rest of the scan (scripts/bench/lint.sh,
    /// callgrind).
    private struct LineTable {
        let bytes: UnsafeBufferPointer<UInt8>
        /// A UTF-8 byte order mark at the start of the file is not a column.
        let start: Int
        /// Counted up to here: `line` and `column` are those of offset `counted`.
        var counted: Int
        var line = 1
        var column = 1
        var afterCR = false

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            start = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
            counted = start
        }

        /// LF, CR LF and a lone CR end a line, as XML normalises them. Columns count code points: UTF-8
        /// continuation bytes do not start a column.
        mutating func position(of offset: Int) -> SourcePosition {
            let offset = min(offset, bytes.count)
            if offset < counted {
                guard offset > start else { return SourcePosition(line: 1, column: 1) }
                self = LineTable(bytes: bytes)  // never expected: positions are asked for in order
            }
            // Locals, not the stored properties, in the loop: this runs once per byte of the document.
            var line = line
            var column = column
            var afterCR = afterCR
            var index = counted
            let base = UnsafeRawPointer(bytes.baseAddress)
            while index < offset {
                // Eight bytes at a time while they are all printable ASCII (0x0E to 0x7F: no line end, no UTF-8
                // byte), a column each: most of a manifest is such runs. No byte at or over 0x80, then none under
                // 0x0E ("has a byte less than n", https://graphics.stanford.edu/~seander/bithacks.html#HasLessInWord).
                if let base, offset - index >= 8 {
                    let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    if word & 0x8080_8080_8080_8080 == 0,
                        (word &- 0x0E0E_0E0E_0E0E_0E0E) & ~word & 0x8080_8080_8080_8080 == 0
                    {
                        column += 8
                        afterCR = false
                        index += 8
                        continue
                    }
                }
                let byte = bytes[index]
                index += 1
                if byte > UInt8(ascii: "\r") {  // neither LF nor CR
                    if byte & 0xC0 != 0x80 { column += 1 }
                    afterCR = false
                } else if byte == UInt8(ascii: "\n") {
                    if !afterCR { line += 1 }
                    column = 1
                    afterCR = false
                } else if byte == UInt8(ascii: "\r") {
                    line += 1
                    column = 1
                    afterCR = true
                } else {
                    column += 1
                    afterCR = false
                }
            }
            (self.line, self.column, self.afterCR, counted) = (line, column, afterCR, index)
            return SourcePosition(line: line, column: column)
        }
    }

    private struct Scanner {
        let bytes: UnsafeBufferPointer<UInt8>
        var lines: LineTable
        var index = 0
        var attributes: [Attribute] = []

        init(bytes: UnsafeBufferPointer<UInt8>) {
            self.bytes = bytes
            lines = LineTable(bytes: bytes)
        }

        mutating func position() -> SourcePosition { lines.position(of: index) }
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

        mutating func readName() -> Range<Int> {
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
            return start..<index
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
            let tagPosition = position()
            advance()  // <
            var tag = StartTag(name: readName(), position: tagPosition, attributes: attributes.count..<attributes.count)
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
                let namePosition = position()
                let name = readName()
                skipSpaces()
                if peek() == UInt8(ascii: "=") { advance() }
                skipSpaces()
                let quote = peek()
                advance()
                let valuePosition = position()
                while !atEnd && bytes[index] != quote { index += 1 }
                if !atEnd { advance() }
                if name.isEmpty { continue }
                attributes.append(Attribute(name: name, position: namePosition, valuePosition: valuePosition))
                tag.attributes = tag.attributes.lowerBound..<attributes.count
            }
            return tag
        }
    }
}
