import PropertyBased
import Testing

@testable import SignInProtocol
@testable import SignInProtocolCore

/// RFC 9110 §11 grammar, independent of the Office rules.
@Suite struct AuthenticationChallengeTests {
    @Test func parsesSeveralChallengesInOneValueAndAcrossValues() throws {
        let challenges = try AuthenticationChallenge.parse(headerValues: [
            #"Basic realm="simple", Newauth realm="apps", type=1, title="Login to \"apps\"""#,
            "Negotiate abc/+def==, Bearer",
        ])
        #expect(
            challenges == [
                AuthenticationChallenge(scheme: "Basic", parameters: [.init(name: "realm", value: "simple")]),
                AuthenticationChallenge(
                    scheme: "Newauth",
                    parameters: [
                        .init(name: "realm", value: "apps"), .init(name: "type", value: "1"),
                        .init(name: "title", value: #"Login to "apps""#),
                    ]),
                AuthenticationChallenge(scheme: "Negotiate", token68: "abc/+def=="),
                AuthenticationChallenge(scheme: "Bearer"),
            ])
    }

    @Test func acceptsBadWhitespaceEmptyElementsAndBothSeparators() throws {
        let challenge = try #require(
            AuthenticationChallenge.parse(headerValues: ["  ,Bearer a = b ,b=\"c\",  ,c=d\t, Basic , "]).first)
        #expect(challenge.parameters.map(\.name) == ["a", "b", "c"])
        #expect(challenge.parameters.map(\.value) == ["b", "c", "d"])
    }

    @Test func parameterLookupIgnoresCase() throws {
        let challenge = try #require(AuthenticationChallenge.parse(headerValues: [#"bearer ProviderID="x""#]).first)
        #expect(challenge.hasScheme("Bearer"))
        #expect(challenge[parameter: "providerid"] == "x")
    }

    @Test func tellsAToken68EndingInEqualsFromAParameter() throws {
        let challenges = try AuthenticationChallenge.parse(headerValues: ["Negotiate abc=, X a=b"])
        #expect(challenges[0].token68 == "abc=")
        #expect(challenges[1].parameters == [.init(name: "a", value: "b")])
    }

    @Test func serializesWithQuotedPairsOnlyWhereNeeded() throws {
        let challenge = AuthenticationChallenge(
            scheme: "Bearer", parameters: [.init(name: "realm", value: #"a "b" \c"#), .init(name: "x", value: "")])
        #expect(challenge.headerValue == #"Bearer realm="a \"b\" \\c",x="""#)
    }

    @Test func roundTripsAnyParameterValues() async throws {
        let names = Gen.letter.string(of: 1...6)
        // A quoted-string cannot carry DEL or control characters other than HTAB (RFC 9110 §5.6.4).
        let values = ProtocolGen.text.filter { !$0.unicodeScalars.contains { $0 == "\u{7F}" } }.array(of: 4)
        await propertyCheck(input: names.array(of: 1...4), values) { names, values in
            var unique = [String]()
            for name in names where !unique.contains(where: { $0.asciiLowercased() == name.asciiLowercased() }) {
                unique.append(name)
            }
            let challenge = AuthenticationChallenge(
                scheme: "Bearer", parameters: zip(unique, values).map { .init(name: $0, value: $1) })
            do {
                #expect(try AuthenticationChallenge.parse(headerValues: [challenge.headerValue]) == [challenge])
            } catch { Issue.record(error) }
        }
    }

    // MARK: Errors, one per case

    @Test func refusesInputOverTheLimit() {
        #expect(throws: AuthenticationChallengeError.tooLarge(
            InputTooLarge(what: "WWW-Authenticate", limit: 10, actual: 11))) {
            try AuthenticationChallenge.parse(headerValues: ["Bearer", " a=b "], limit: InputLimit(maxBytes: 10))
        }
    }

    @Test func refusesAValueWithoutChallenge() {
        #expect(throws: AuthenticationChallengeError.empty) {
            try AuthenticationChallenge.parse(headerValues: [" , ", ""])
        }
    }

    @Test func refusesSomethingThatIsNotAScheme() {
        #expect(throws: AuthenticationChallengeError.expectedScheme(at: HeaderPosition(headerIndex: 1, offset: 0))) {
            try AuthenticationChallenge.parse(headerValues: ["Basic", #""quoted""#])
        }
    }

    @Test func refusesAParameterWithoutValue() {
        #expect(throws: AuthenticationChallengeError.expectedParameterValue(
            parameter: "b", at: HeaderPosition(headerIndex: 0, offset: 11))) {
            try AuthenticationChallenge.parse(headerValues: ["Bearer a=1,b="])
        }
    }

    @Test func refusesAnUnterminatedOrControlCharacterQuotedString() {
        #expect(throws: AuthenticationChallengeError.badQuotedString(
            parameter: "realm", at: HeaderPosition(headerIndex: 0, offset: 7))) {
            try AuthenticationChallenge.parse(headerValues: [#"Bearer realm="abc"#])
        }
        #expect(throws: AuthenticationChallengeError.badQuotedString(
            parameter: "realm", at: HeaderPosition(headerIndex: 0, offset: 7))) {
            try AuthenticationChallenge.parse(headerValues: ["Bearer realm=\"a\u{01}\""])
        }
    }

    @Test func refusesJunkAfterAParameter() {
        #expect(throws: AuthenticationChallengeError.expectedComma(at: HeaderPosition(headerIndex: 0, offset: 14))) {
            try AuthenticationChallenge.parse(headerValues: [#"Bearer a="1"  b="2""#])
        }
    }

    @Test func refusesADuplicateParameterWhateverItsCase() {
        #expect(throws: AuthenticationChallengeError.duplicateParameter(
            name: "REALM", at: HeaderPosition(headerIndex: 0, offset: 18))) {
            try AuthenticationChallenge.parse(headerValues: [#"Bearer realm="a", REALM="b""#])
        }
    }
}
