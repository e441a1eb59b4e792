import SignInProtocol
import Testing

@Suite("HTTPWhitespace")
struct HTTPWhitespaceTests {
    @Test(arguments: [
        (" \t abc \t ", "abc"), ("abc", "abc"), ("  ", ""), ("", ""), ("a b", "a b"), (" ünï ", "ünï"),
        // Only SP and HTAB are optional whitespace (RFC 9110 §5.6.3): a newline stays for the grammar to refuse.
        ("\nabc\r", "\nabc\r"),
    ])
    func trimsSpacesAndTabsOnly(text: String, expected: String) {
        #expect(HTTPWhitespace.trimmed(Substring(text)) == Substring(expected))
    }
}
