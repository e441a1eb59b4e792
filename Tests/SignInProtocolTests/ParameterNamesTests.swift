import Testing
@testable import SignInProtocol
@testable import SignInProtocolCore

/// The byte-level fast paths must agree exactly with the plain definitions they replace.
@Suite struct ParameterNamesTests {
    @Test func bitSetsMatchTheirDefinitions() {
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~".utf8)
        let delimiters = Set("%&+=".utf8)
        for byte in UInt8.min...UInt8.max {
            #expect(PercentEncoding.isUnreserved(byte) == unreserved.contains(byte), "byte \(byte)")
            #expect(isFormDelimiter(byte) == delimiters.contains(byte), "byte \(byte)")
        }
    }

    @Test func matchesNamesIgnoringASCIICaseOnly() {
        let names = ParameterNames(["client_id", "build", "action"])
        func slot(_ name: String, hint: Int = 0) -> Int? {
            var copy = name
            return copy.withUTF8 { names.slot(of: $0, hint: hint) }
        }
        #expect(slot("build") == 1)
        #expect(slot("BUILD", hint: 2) == 1)
        #expect(slot("Client_Id") == 0)
        #expect(slot("client-id") == nil)
        #expect(slot("client_i") == nil)
        #expect(slot("builds") == nil)
        // Only A-Z fold: '@' (0x40) must not match '`' (0x60) and 'ſ' is not 's'.
        #expect(slot("actio\u{017F}") == nil)
        var odd = "A@B"
        #expect(odd.withUTF8 { ParameterNames(["a`b"]).slot(of: $0) } == nil)
        #expect(odd.withUTF8 { ParameterNames(["a@b"]).slot(of: $0) } == 0)
    }

    @Test func takeSortsKnownAndOtherParametersInOnePass() throws {
        let names = ParameterNames(["code", "action"])
        let (values, rest) = try FormParameters.decode(
            "x=1&Code=c+d&%61ction=a%26b&y", taking: names, plusAsSpace: false, limit: .default, baseOffset: 0, what: "t")
        #expect(values == ["c+d", "a&b"])
        #expect(rest == FormParameters([.init("x", "1"), .init("y", "")]))
    }

    @Test func badEscapesWinOverDuplicatesAndOffsetsCountFromTheBase() {
        let names = ParameterNames(["code"])
        #expect(throws: ParameterTakingError.duplicate("code")) {
            try FormParameters.decode("code=a&CODE=b", taking: names, plusAsSpace: true, limit: .default, baseOffset: 0, what: "t")
        }
        #expect(throws: ParameterTakingError.decoding(.badEncoding(parameter: "x", .invalidEscape(offset: 21)))) {
            try FormParameters.decode("code=a&code=b&x=%zz", taking: names, plusAsSpace: true, limit: .default, baseOffset: 5, what: "t")
        }
        #expect(throws: ParameterTakingError.decoding(.badEncoding(parameter: "code", .invalidUTF8(offset: 5)))) {
            try FormParameters.decode("code=%FF", taking: names, plusAsSpace: true, limit: .default, baseOffset: 0, what: "t")
        }
    }
}
