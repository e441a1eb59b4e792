import Testing

@testable import SignInProtocol
@testable import SignInProtocolCore

/// RFC 9110 §5.6.1: recipients accept empty list elements anywhere, senders must not write them. The parser does
/// the first; `BootstrapChallenge.senderIssues` reports the second, so leniency never hides a host's mistake.
@Suite struct ChallengeListLeniencyTests {
    /// The RFC's own recipient examples, with the list elements as auth-schemes.
    @Test(arguments: [
        ("foo,bar", ["foo", "bar"], 0),
        ("foo ,bar,", ["foo", "bar"], 1),
        ("foo , ,bar,charlie", ["foo", "bar", "charlie"], 1),
    ])
    func acceptsTheRFC9110ListExamples(value: String, schemes: [String], empty: Int) throws {
        let list = try AuthenticationChallenge.parseLocated(headerValues: [value], limit: .default)
        #expect(list.challenges.map(\.challenge.scheme) == schemes)
        #expect(list.emptyElements.count == empty)
    }

    @Test func acceptsAnEmptyElementBetweenTheSchemeAndItsFirstParameter() throws {
        let challenges = try AuthenticationChallenge.parse(headerValues: [#"Basic , realm="x""#])
        #expect(challenges == [AuthenticationChallenge(scheme: "Basic", parameters: [.init(name: "realm", value: "x")])])
    }

    @Test func acceptsSeveralEmptyElementsBeforeTheFirstParameterAndBetweenParameters() throws {
        let challenges = try AuthenticationChallenge.parse(headerValues: [#"Bearer ,, a="1" , , b=2,, Basic ,realm="r""#])
        #expect(challenges.map(\.scheme) == ["Bearer", "Basic"])
        #expect(challenges[0].parameters.map(\.name) == ["a", "b"])
        #expect(challenges[1].parameters == [.init(name: "realm", value: "r")])
    }

    @Test func aSchemeFollowedByACommaAndAnotherSchemeIsTwoChallenges() throws {
        let challenges = try AuthenticationChallenge.parse(headerValues: [#"Basic , Bearer a="1""#])
        #expect(challenges.map(\.scheme) == ["Basic", "Bearer"])
        #expect(challenges[0].parameters.isEmpty)
    }

    @Test func aCommaRightAfterTheSchemeWithoutSpaceStillEndsTheChallenge() {
        // `challenge = auth-scheme [ 1*SP ( token68 / #auth-param ) ]`: without the space the list is the outer one.
        #expect(throws: AuthenticationChallengeError.self) {
            try AuthenticationChallenge.parse(headerValues: [#"Basic, realm="x""#])
        }
    }

    @Test func reportsEveryEmptyElementWithItsPosition() {
        let value = #",Bearer authorization_uri="https://h.example/a",,tokenIssuance_uri="https://h.example/t","#
        let issues = BootstrapChallenge.senderIssues(headerValues: [value])
        #expect(issues == [
            .emptyListElement(at: HeaderPosition(headerIndex: 0, offset: 0)),
            .emptyListElement(at: HeaderPosition(headerIndex: 0, offset: 48)),
            .emptyListElement(at: HeaderPosition(headerIndex: 0, offset: 88)),
        ])
        // And the recipient side still reads it.
        #expect((try? BootstrapChallenge.parse(headerValue: value))?.tokenIssuanceURI == "https://h.example/t")
    }

    @Test func reportsTheEmptyElementOfBasicCommaRealm() {
        #expect(BootstrapChallenge.senderIssues(headerValues: [#"Basic , realm="x""#]) == [
            .emptyListElement(at: HeaderPosition(headerIndex: 0, offset: 6))
        ])
    }

    @Test func reportsDocumentedParametersSentAsTokens() {
        let value = #"Bearer authorization_uri="https://h.example/a",tokenIssuance_uri="https://h.example/t",providerId=TPX"#
        #expect(BootstrapChallenge.senderIssues(headerValues: [value]) == [
            .unquotedValue(parameter: "providerId", at: HeaderPosition(headerIndex: 0, offset: 87))
        ])
    }

    @Test func theDocumentedFormHasNoSenderIssue() {
        let challenge = BootstrapChallenge(
            authorizationURI: "https://contoso.com/api/oauth2/authorize", tokenIssuanceURI: "https://contoso.com/api/oauth2/token",
            providerId: "TPCONTOSO", urlSchemes: UrlSchemes(iOS: ["contoso"]))
        #expect(BootstrapChallenge.senderIssues(headerValues: [challenge.headerValue]).isEmpty)
    }
}
