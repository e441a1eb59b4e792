import Testing
@testable import SignInProtocol
@testable import SignInProtocolCore

@Suite struct PercentEncodingTests {
    @Test func encodesEverythingOutsideTheUnreservedSet() {
        #expect(PercentEncoding.encode("a-Z_0.~") == "a-Z_0.~")
        #expect(PercentEncoding.encode("https://x/?a=1,b") == "https%3A%2F%2Fx%2F%3Fa%3D1%2Cb")
        #expect(PercentEncoding.encode("a b+é") == "a%20b%2B%C3%A9")
    }

    @Test func decodesAndRejectsBadEscapesWithTheirOffset() throws {
        #expect(try PercentEncoding.decode("a%20b%2b") == "a b+")
        #expect(try PercentEncoding.decode("a+b", plusAsSpace: true) == "a b")
        #expect(try PercentEncoding.decode("a+b") == "a+b")
        #expect(throws: PercentDecodingError.invalidEscape(offset: 3)) { try PercentEncoding.decode("abc%2") }
        #expect(throws: PercentDecodingError.invalidEscape(offset: 1)) { try PercentEncoding.decode("a%zz") }
        #expect(throws: PercentDecodingError.invalidUTF8(offset: 0)) { try PercentEncoding.decode("%FF%FE") }
    }
}

@Suite struct FormParametersTests {
    @Test func keepsOrderAndDuplicates() throws {
        let form = try FormParameters.decode("b=2&a=1&b=3&&flag")
        #expect(form.pairs.map(\.name) == ["b", "a", "b", "flag"])
        #expect(form["b"] == "2")
        #expect(form.values(for: "b") == ["2", "3"])
        #expect(form["flag"] == "")
        #expect(form.duplicatedNames == ["b"])
    }

    @Test func caseInsensitiveLookupFindsOfficeVariants() throws {
        let form = try FormParameters.decode("Build=16.1.1234&Platform=iOS")
        #expect(form.value(forCaseInsensitive: "build") == "16.1.1234")
        #expect(form["build"] == nil)
    }

    @Test func roundTrips() throws {
        var form = FormParameters()
        form.append("tk", "https://contoso.com/api/token/?extra=stuff")
        form.append("odd name", "a&b=c+d %")
        form.append("skipped", nil)
        let decoded = try FormParameters.decode(form.encoded)
        #expect(decoded == form)
    }

    @Test func refusesInputOverTheLimit() {
        let big = String(repeating: "a", count: 9000)
        #expect(throws: FormDecodingError.tooLarge(InputTooLarge(what: "form parameters", limit: 8192, actual: 9000))) {
            try FormParameters.decode(big)
        }
    }

    @Test func namesTheParameterWithABadEscape() {
        #expect(throws: FormDecodingError.badEncoding(parameter: "code", .invalidEscape(offset: 9))) {
            try FormParameters.decode("a=1&code=%G1")
        }
    }
}
