import PropertyBased
import SignInProtocol

/// Generators for the OAuth, app-to-app and exchange round-trip properties.
enum OAuthGen {
    /// Characters that stress a URL codec: reserved delimiters, `%`, `+`, space, non-ASCII, and plain letters.
    static let tricky: [Character] = Array("aZ09-._~ &=?#/:+%,;\"'<>[]@!$()*\\é€😀\u{0}\t\n")

    /// Non-empty text from `tricky`.
    static let text = Gen<Character?>.element(of: tricky).map { $0! }.string(of: 1...24)

    /// Non-empty text or nil.
    static let optionalText = text.optional

    /// Fixed-length arrays of optional texts, to fill the optional fields of a type in one draw.
    static func optionals(_ count: Int) -> Generator<[String?], some SendableSequenceType> {
        optionalText.array(of: count)
    }

    /// Extra parameters whose names never collide with `reserved`.
    static func extraParameters(avoiding reserved: Set<String>) -> Generator<FormParameters, some SendableSequenceType> {
        zip(text, text).array(of: 0...3).map { pairs in
            FormParameters(pairs.map { FormParameters.Pair("x-" + $0.0, $0.1) }.filter { !reserved.contains($0.name) })
        }
    }
}
