/// Optional whitespace in HTTP field values (OWS = SP / HTAB, RFC 9110 §5.6.3), handled on UTF-8 bytes: credentials
/// are parsed on every request, where trimming Characters goes through slow generic String code.
public enum HTTPWhitespace {
    public static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    /// `text` without its leading and trailing spaces and tabs (nothing else: other control bytes stay, for the
    /// caller's grammar to refuse).
    public static func trimmed(_ text: Substring) -> Substring {
        let bytes = text.utf8
        let start = bytes.firstIndex { !isWhitespace($0) } ?? bytes.endIndex
        let end = bytes[start...].lastIndex { !isWhitespace($0) }.map(bytes.index(after:)) ?? start
        return text[start..<end]
    }
}
