import PropertyBased

/// Generators shared by the round-trip property tests.
enum ProtocolGen {
    /// Characters that break naive codecs: separators of every format we touch, quotes, escapes, `%`, `+`,
    /// whitespace, and multi-byte UTF-8 (two, three and four bytes).
    static let awkwardCharacters: [Character] = Array(
        "aZ09-._~ &=%+,;:/?#[]@!$'()*\"\\\t{}<>|^`é中😀\u{7F}")

    /// Any text, including the empty string.
    static let text = Gen<Character?>.element(of: awkwardCharacters).map { $0! }.string(of: 0...12)

    /// Non-empty text.
    static let nonEmptyText = Gen<Character?>.element(of: awkwardCharacters).map { $0! }.string(of: 1...12)

    /// An RFC 3986 scheme-like name that starts with a letter (so never mistaken for an Android version code).
    static let schemeName = zip(
        Gen.letter, Gen<Character?>.element(of: Array("abcXYZ019+-.")).map { $0! }.string(of: 0...8)
    ).map { String($0) + $1 }
}
