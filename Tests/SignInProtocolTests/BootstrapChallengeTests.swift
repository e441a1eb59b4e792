import PropertyBased
import Testing

@testable import SignInProtocol
@testable import SignInProtocolCore

@Suite struct BootstrapChallengeTests {
    /// The docs' sample header value, verbatim (Microsoft's Office app-to-app docs, from Microsoft's Office app-to-app docs): note the mixed
    /// `,` and `, ` separators.
    static let docsSample =
        #"Bearer authorization_uri="https://contoso.com/api/oauth2/authorize",tokenIssuance_uri="https://contoso.com/api/oauth2/token",providerId="tp_contoso", UrlSchemes="%7B%22iOS%22%20%3A%20%5B%22contoso%22%2C%22contoso-EMM%22%5D%2C%20%22Android%22%20%3A%20%5B%22contoso%22%2C%22contoso-EMM%22%5D%2C%20%22UWP%22%3A%20%5B%22contoso%22%2C%22contoso-EMM%22%5D%7D""#

    @Test func parsesTheDocsSampleVerbatim() throws {
        let challenge = try BootstrapChallenge.parse(headerValue: Self.docsSample)
        #expect(challenge.authorizationURI == "https://contoso.com/api/oauth2/authorize")
        #expect(challenge.tokenIssuanceURI == "https://contoso.com/api/oauth2/token")
        #expect(challenge.providerId == "tp_contoso")
        #expect(challenge.urlSchemes?.iOS == ["contoso", "contoso-EMM"])
        #expect(challenge.urlSchemes?.android == [.scheme("contoso"), .scheme("contoso-EMM")])
        #expect(challenge.urlSchemes?.uwp == ["contoso", "contoso-EMM"])
        #expect(challenge.resourceMetadata == nil)
        #expect(challenge.warnings == [.providerIdHasUnderscore("tp_contoso")])
    }

    @Test func serializesTheDocumentedFormByteForByte() {
        let challenge = BootstrapChallenge(
            authorizationURI: "https://contoso.com/api/oauth2/authorize",
            tokenIssuanceURI: "https://contoso.com/api/oauth2/token",
            providerId: "TPCONTOSO",
            urlSchemes: UrlSchemes(iOS: ["contoso", "contoso-EMM"]))
        #expect(
            challenge.headerValue
                == #"Bearer authorization_uri="https://contoso.com/api/oauth2/authorize",tokenIssuance_uri="https://contoso.com/api/oauth2/token",providerId="TPCONTOSO",UrlSchemes="%7B%22iOS%22%3A%5B%22contoso%22%2C%22contoso-EMM%22%5D%7D""#
        )
        #expect(challenge.warnings.isEmpty)
    }

    @Test func omitsOptionalParametersAndAddsResourceMetadataLast() {
        var challenge = BootstrapChallenge(
            authorizationURI: "https://h.example/a", tokenIssuanceURI: "https://h.example/t")
        #expect(challenge.headerValue == #"Bearer authorization_uri="https://h.example/a",tokenIssuance_uri="https://h.example/t""#)
        challenge.resourceMetadata = "https://h.example/.well-known/oauth-protected-resource"
        #expect(
            challenge.headerValue
                == #"Bearer authorization_uri="https://h.example/a",tokenIssuance_uri="https://h.example/t",resource_metadata="https://h.example/.well-known/oauth-protected-resource""#
        )
    }

    @Test func findsTheBearerAmongOtherChallengesAndHeaderValues() throws {
        let challenge = try BootstrapChallenge.parse(headerValues: [
            #"Basic realm="contoso""#,
            #"Negotiate, bearer Authorization_URI="http://127.0.0.1:8080/authorize" , TOKENISSUANCE_URI = "http://[::1]/token", realm="wopi""#,
        ])
        #expect(challenge.authorizationURI == "http://127.0.0.1:8080/authorize")
        #expect(challenge.tokenIssuanceURI == "http://[::1]/token")
        #expect(challenge.otherParameters == [.init(name: "realm", value: "wopi")])
        #expect(
            challenge.warnings == [
                .plainHTTPOnLoopback(parameter: "authorization_uri"), .plainHTTPOnLoopback(parameter: "tokenIssuance_uri"),
            ])
    }

    @Test func acceptsUrlSchemesSentAsRawJSONWithQuotedPairs() throws {
        // Not the documented form, but valid RFC 9110: the quoted-pairs unescape to JSON with nothing to decode.
        let header = #"Bearer authorization_uri="https://a.example/",tokenIssuance_uri="https://a.example/t",UrlSchemes="{\"iOS\":[\"contoso\"]}""#
        #expect(try BootstrapChallenge.parse(headerValue: header).urlSchemes == UrlSchemes(iOS: ["contoso"]))
    }

    @Test func roundTripsThroughTheHeader() async throws {
        let schemes = ProtocolGen.schemeName.array(of: 0...3).optional
        let id = Gen.letterOrNumber.string(of: 1...10).optional
        let path = Gen.letterOrNumber.string(of: 0...8)
        await propertyCheck(input: schemes, schemes, id, path, Gen.bool) { iOS, uwp, id, path, withMetadata in
            let challenge = BootstrapChallenge(
                authorizationURI: "https://host.example/" + path,
                tokenIssuanceURI: "https://host.example/token?x=" + path,
                providerId: id,
                urlSchemes: iOS == nil && uwp == nil ? nil : UrlSchemes(iOS: iOS, uwp: uwp),
                resourceMetadata: withMetadata ? "https://host.example/.well-known/oauth-protected-resource" : nil)
            do {
                #expect(try BootstrapChallenge.parse(headerValue: challenge.headerValue) == challenge)
            } catch { Issue.record(error) }
            // What naive clients do (Microsoft's Office app-to-app docs): no value ever needs a quoted-pair.
            #expect(!challenge.headerValue.contains("\\"))
        }
    }

    // MARK: Errors, one per case

    static func position(_ offset: Int, header: Int = 0) -> HeaderPosition {
        HeaderPosition(headerIndex: header, offset: offset)
    }

    @Test func reportsSyntaxErrors() {
        #expect(throws: BootstrapChallengeError.syntax(.expectedParameterValue(parameter: "b", at: Self.position(11)))) {
            try BootstrapChallenge.parse(headerValue: "Bearer a=1,b=")
        }
    }

    @Test func needsABearerChallenge() {
        #expect(throws: BootstrapChallengeError.noBearerChallenge) {
            try BootstrapChallenge.parse(headerValues: [#"Basic realm="x""#])
        }
    }

    @Test func needsExactlyOneBearerChallenge() {
        let one = #"Bearer authorization_uri="https://a.example/",tokenIssuance_uri="https://a.example/t""#
        #expect(throws: BootstrapChallengeError.multipleBearerChallenges(at: Self.position(0, header: 1))) {
            try BootstrapChallenge.parse(headerValues: [one, one])
        }
    }

    @Test func refusesABearerToken68() {
        #expect(throws: BootstrapChallengeError.bearerWithoutParameters(at: Self.position(7))) {
            try BootstrapChallenge.parse(headerValue: "Basic, Bearer abc")
        }
    }

    @Test func requiresBothEndpoints() {
        #expect(throws: BootstrapChallengeError.missingParameter("tokenIssuance_uri")) {
            try BootstrapChallenge.parse(headerValue: #"Bearer authorization_uri="https://a.example/""#)
        }
        #expect(throws: BootstrapChallengeError.missingParameter("authorization_uri")) {
            try BootstrapChallenge.parse(headerValue: #"Bearer realm="x""#)
        }
    }

    @Test(arguments: [
        ("/api/oauth2/token", EndpointURIRule.Problem.notAbsolute),
        ("https:/api/token", .missingHost),
        ("https://", .missingHost),
        ("https://h.example:80x/", .missingHost),
        ("http://contoso.com/token", .insecureScheme("http")),
        ("ftp://contoso.com/token", .insecureScheme("ftp")),
        ("https://contoso.com/token#frag", .hasFragment),
        ("https://contoso.com/to ken", .invalidCharacter(offset: 22)),
        ("https://contoso.com/%zz", .invalidCharacter(offset: 20)),
    ])
    func refusesEndpointsThatAreNotAbsoluteTLSURIs(uri: String, problem: EndpointURIRule.Problem) {
        let header = #"Bearer authorization_uri="https://a.example/",tokenIssuance_uri="\#(uri)""#
        #expect(throws: BootstrapChallengeError.invalidURI(parameter: "tokenIssuance_uri", problem, at: Self.position(46))) {
            try BootstrapChallenge.parse(headerValue: header)
        }
    }

    @Test func refusesAnInvalidResourceMetadataURI() {
        let header = #"Bearer authorization_uri="https://a.example/",tokenIssuance_uri="https://a.example/t",resource_metadata="http://evil.example/m""#
        #expect(throws: BootstrapChallengeError.invalidURI(
            parameter: "resource_metadata", .insecureScheme("http"), at: Self.position(86))) {
            try BootstrapChallenge.parse(headerValue: header)
        }
    }

    @Test func refusesAProviderIdOutsideLettersDigitsAndUnderscore() {
        let header = #"Bearer authorization_uri="https://a.example/",tokenIssuance_uri="https://a.example/t", providerId="tp-contoso""#
        #expect(throws: BootstrapChallengeError.invalidProviderId("tp-contoso", at: Self.position(87))) {
            try BootstrapChallenge.parse(headerValue: header)
        }
    }

    @Test func reportsTheUrlSchemesErrorAndWhereTheParameterIs() {
        let header = #"Bearer authorization_uri="https://a.example/",tokenIssuance_uri="https://a.example/t",UrlSchemes="%7B%22iOS%22%3A1%7D""#
        #expect(throws: BootstrapChallengeError.invalidUrlSchemes(.notAList(platform: "iOS"), at: Self.position(86))) {
            try BootstrapChallenge.parse(headerValue: header)
        }
    }
}
