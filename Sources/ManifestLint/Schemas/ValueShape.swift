/// The attribute value types of schemas/android-manifest.rng, matched on UTF-8 bytes exactly as libxml2 matches the
/// schema's XML Schema datatypes and patterns (https://www.w3.org/TR/xmlschema-2/#integer, #regexs: a pattern is
/// anchored at both ends, `.` is any character but CR and LF). Every byte outside ASCII fails the ASCII classes, and
/// `[^}]` and `.` never need to decode one, so byte matching is character matching here.
enum ValueShape {
    typealias Bytes = UnsafeBufferPointer<UInt8>

    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    /// The value without leading and trailing XML whitespace (the `collapse` of integer and `token`).
    private static func trimmed(_ value: Bytes) -> Bytes.SubSequence {
        var slice = value[...]
        while let first = slice.first, isSpace(first) { slice = slice.dropFirst() }
        while let last = slice.last, isSpace(last) { slice = slice.dropLast() }
        return slice
    }

    /// `xsd:integer`: optional sign and digits, surrounding whitespace allowed. libxml2 refuses more than 24
    /// significant digits (leading zeros do not count).
    static func isInteger(_ value: Bytes) -> Bool {
        var digits = trimmed(value)
        if let sign = digits.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.allSatisfy(isDigit) else { return false }
        return digits.drop { $0 == UInt8(ascii: "0") }.count <= 24
    }

    /// `$\{[^}]+\}`: a Gradle manifest placeholder.
    static func isPlaceholder(_ value: Bytes) -> Bool {
        guard let end = placeholderEnd(value) else { return false }
        return end == value.count
    }

    /// Where `$\{[^}]+\}` at the start of `value` ends, if it is there.
    private static func placeholderEnd(_ value: Bytes) -> Int? {
        guard value.count >= 4, value[0] == UInt8(ascii: "$"), value[1] == UInt8(ascii: "{"),
            let close = value[2...].firstIndex(of: UInt8(ascii: "}")), close > 2
        else { return nil }
        return close + 1
    }

    /// `[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*|$\{[^}]+\}`.
    static func isJavaName(_ value: Bytes) -> Bool {
        isDottedIdentifiers(value[...], dollar: false) || isPlaceholder(value)
    }

    /// `\.?[A-Za-z_$][A-Za-z0-9_$]*(\.[A-Za-z_$][A-Za-z0-9_$]*)*|$\{[^}]+\}.*`.
    static func isComponentName(_ value: Bytes) -> Bool {
        let body = value.first == UInt8(ascii: ".") ? value.dropFirst() : value[...]
        if isDottedIdentifiers(body, dollar: true) { return true }
        guard let end = placeholderEnd(value) else { return false }
        return !value[end...].contains { $0 == 0x0A || $0 == 0x0D }
    }

    /// Identifiers separated by single dots; an identifier starts with a letter or `_` (or `$`), then letters,
    /// digits, `_` (and `$`).
    private static func isDottedIdentifiers(_ value: Bytes.SubSequence, dollar: Bool) -> Bool {
        var atStart = true
        for byte in value {
            let identifierStart = isLetter(byte) || byte == UInt8(ascii: "_") || (dollar && byte == UInt8(ascii: "$"))
            if atStart {
                guard identifierStart else { return false }
                atStart = false
            } else if byte == UInt8(ascii: ".") {
                atStart = true
            } else if !(identifierStart || isDigit(byte)) {
                return false
            }
        }
        return !atStart
    }

    /// `@(\*?[A-Za-z0-9_.]+:)?TYPE/[A-Za-z0-9_.]+`: an Android resource reference of one type.
    private static func isResource(_ value: Bytes, type: StaticString) -> Bool {
        func isNameByte(_ byte: UInt8) -> Bool {
            isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
        }
        guard value.first == UInt8(ascii: "@") else { return false }
        var rest = value.dropFirst()
        if let colon = rest.firstIndex(of: UInt8(ascii: ":")) {
            var package = rest[..<colon]
            if package.first == UInt8(ascii: "*") { package = package.dropFirst() }
            guard !package.isEmpty, package.allSatisfy(isNameByte) else { return false }
            rest = rest[(colon + 1)...]
        }
        let typeBytes = UnsafeBufferPointer(start: type.utf8Start, count: type.utf8CodeUnitCount)
        guard rest.starts(with: typeBytes) else { return false }
        rest = rest.dropFirst(typeBytes.count)
        guard rest.first == UInt8(ascii: "/") else { return false }
        rest = rest.dropFirst()
        return !rest.isEmpty && rest.allSatisfy(isNameByte)
    }

    /// `true` or `false` (RELAX NG `token`: surrounding whitespace ignored), a bool resource or a placeholder.
    static func isBooleanOrResource(_ value: Bytes) -> Bool {
        let token = trimmed(value)
        return token.elementsEqual("true".utf8) || token.elementsEqual("false".utf8)
            || isResource(value, type: "bool") || isPlaceholder(value)
    }

    /// An integer, an integer resource or a placeholder (`android:versionCode`).
    static func isIntegerOrResource(_ value: Bytes) -> Bool {
        isInteger(value) || isResource(value, type: "integer") || isPlaceholder(value)
    }

    /// An integer or a placeholder (`android:port`).
    static func isIntegerOrPlaceholder(_ value: Bytes) -> Bool { isInteger(value) || isPlaceholder(value) }

    /// An API level, a preview codename (`[A-Z][A-Za-z]*`), an integer resource or a placeholder.
    static func isSDKVersion(_ value: Bytes) -> Bool {
        if isInteger(value) || isResource(value, type: "integer") || isPlaceholder(value) { return true }
        guard let first = value.first, (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first) else { return false }
        return value.dropFirst().allSatisfy(isLetter)
    }
}
