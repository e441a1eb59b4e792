import Foundation
import PropertyBased
import SignInProtocol
import Testing

@Suite("Base64URL")
struct Base64URLTests {
    /// RFC 4648 §10's vectors, padding removed (base64url and base64 agree on these).
    @Test(arguments: [
        ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"),
        ("foobar", "Zm9vYmFy"),
    ])
    func rfc4648Vectors(input: String, expected: String) {
        #expect(Base64URL.encode(Array(input.utf8)) == expected)
    }

    /// RFC 7515 Appendix C: the bytes 3, 236, 255, 224, 193 use both URL-safe characters.
    @Test func rfc7515AppendixC() {
        #expect(Base64URL.encode([3, 236, 255, 224, 193]) == "A-z_4ME")
    }

    @Test func agreesWithFoundationForAnyBytes() async {
        await propertyCheck(input: Gen<UInt8>.uint8().array(of: 0...80)) { bytes in
            let foundation = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(Base64URL.encode(bytes) == foundation)
        }
    }

    @Test func decodeReadsRFC7515AppendixCAndRefusesWhatNoEncodingGives() {
        #expect(Base64URL.decode("A-z_4ME") == [3, 236, 255, 224, 193])
        #expect(Base64URL.decode("") == [])
        #expect(Base64URL.decode("A+z/4ME") == nil)  // standard base64's characters
        #expect(Base64URL.decode("A-z_4ME=") == nil)  // padding
        #expect(Base64URL.decode("A-z_4") == nil)  // a length no encoding has (4n + 1)
    }

    @Test func decodeUndoesEncodeForAnyBytes() async {
        await propertyCheck(input: Gen<UInt8>.uint8().array(of: 0...80)) { bytes in
            #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
        }
    }

    /// The table decoder against Foundation's, for any string of the alphabet of a length some encoding has,
    /// including last characters whose unused bits are set (both ignore them).
    @Test func decodeAgreesWithFoundationForAnyStringOfTheAlphabet() async {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        await propertyCheck(input: Gen<Int>.int(in: 0...63).array(of: 0...60)) { indices in
            var text = String(indices.map { alphabet[$0] })
            if text.count % 4 == 1 { text.removeLast() }
            var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
            #expect(Base64URL.decode(text) == Data(base64Encoded: standard).map(Array.init))
        }
    }
}
