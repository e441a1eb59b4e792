import Foundation
import PropertyBased
import Testing

@testable import SignInProtocol
@testable import SignInProtocolCore

@Suite struct BootstrapResponseTests {
    @Test func decodesABootstrapWithAndWithoutFriendlyName() throws {
        let body = Data(
            #"{"Bootstrap":{"EcosystemUrl":"https://contoso.com/wopi/ecosystem?access_token=t","UserId":"u1","SignInName":"user@contoso.com","UserFriendlyName":"User Name"}}"#
                .utf8)
        let bootstrap = try Bootstrap.decode(body)
        #expect(
            bootstrap
                == Bootstrap(ecosystemURL: "https://contoso.com/wopi/ecosystem?access_token=t", userId: "u1",
                    signInName: "user@contoso.com", userFriendlyName: "User Name"))
        let minimal = Data(#"{"Bootstrap":{"EcosystemUrl":"e","UserId":"u","SignInName":"s"}}"#.utf8)
        #expect(try Bootstrap.decode(minimal).userFriendlyName == nil)
    }

    @Test func decodesTheShortcutSectionsAndKeepsUnknownOnes() throws {
        // The co-authoring docs' GetNewAccessToken sample (Bootstrap + AccessTokenInfo + EndPoints).
        let body = Data(
            #"""
            {"Bootstrap":{"EcosystemUrl":"http://.../wopi*/ecosystem?access_token=","UserId":"User ID","SignInName":"user@contoso.com","UserFriendlyName":"User Name"},
             "AccessTokenInfo":{"AccessToken":"1234567890abcdef","AccessTokenExpiry":1234567890},
             "EndPoints":{"RealTimeChannelEndpointUrl":"http://rtc","OfficeCollaborationServiceEndpointUrl":"http://ocs"}}
            """#.utf8)
        let response = try BootstrapResponse.decode(body)
        #expect(response.accessTokenInfo == AccessTokenInfo(accessToken: "1234567890abcdef", accessTokenExpiry: 1_234_567_890))
        #expect(response.rootContainerInfo == nil)
        #expect(
            response.otherSections["EndPoints"]
                == .object(["RealTimeChannelEndpointUrl": .string("http://rtc"), "OfficeCollaborationServiceEndpointUrl": .string("http://ocs")]))
    }

    @Test func roundTripsARootContainerResponse() throws {
        let response = BootstrapResponse(
            bootstrap: Bootstrap(ecosystemURL: "https://h/e?access_token=x", userId: "u", signInName: "s"),
            accessTokenInfo: AccessTokenInfo(accessToken: "t", expiresAt: Date(timeIntervalSince1970: 1_700_000_000.5)),
            rootContainerInfo: RootContainerInfo(
                containerPointer: .init(url: "https://h/wopi/containers/root?access_token=x", name: "Root"),
                containerInfo: .init(name: "Root", otherProperties: ["UserCanCreateChildFile": .bool(true), "Size": .integer(3)])))
        #expect(response.accessTokenInfo?.accessTokenExpiry == 1_700_000_000_500)
        #expect(response.accessTokenInfo?.expiryDate == Date(timeIntervalSince1970: 1_700_000_000.5))
        let json = String(decoding: response.encoded(), as: UTF8.self)
        #expect(json.hasPrefix(#"{"AccessTokenInfo":{"AccessToken":"t","AccessTokenExpiry":1700000000500},"Bootstrap":{"#))
        #expect(json.contains(#""RootContainerInfo":{"ContainerInfo":{"Name":"Root","Size":3,"UserCanCreateChildFile":true},"ContainerPointer":{"Name":"Root","Url":"https://h/wopi/containers/root?access_token=x"}}"#))
        #expect(try BootstrapResponse.decode(response.encoded()) == response)
    }

    @Test func zeroExpiryMeansNoExpiry() {
        #expect(AccessTokenInfo(accessToken: "t", accessTokenExpiry: 0).expiryDate == nil)
    }

    // MARK: Errors

    @Test func refusesBodiesOverTheLimit() {
        #expect(throws: BootstrapResponseError.tooLarge(InputTooLarge(what: "bootstrap response", limit: 8, actual: 9))) {
            try BootstrapResponse.decode(Data("{\"a\":123}".utf8), limit: InputLimit(maxBytes: 8))
        }
    }

    @Test func namesTheMissingField() {
        #expect(throws: BootstrapResponseError.missingField(path: "Bootstrap.SignInName")) {
            try Bootstrap.decode(Data(#"{"Bootstrap":{"EcosystemUrl":"e","UserId":"u"}}"#.utf8))
        }
        #expect(throws: BootstrapResponseError.missingField(path: "Bootstrap")) {
            try Bootstrap.decode(Data("{}".utf8))
        }
    }

    @Test func namesTheFieldOfTheWrongType() {
        #expect(throws: BootstrapResponseError.wrongType(path: "AccessTokenInfo.AccessTokenExpiry")) {
            try BootstrapResponse.decode(Data(
                #"{"Bootstrap":{"EcosystemUrl":"e","UserId":"u","SignInName":"s"},"AccessTokenInfo":{"AccessToken":"t","AccessTokenExpiry":"soon"}}"#
                    .utf8))
        }
    }

    @Test func refusesMalformedJSON() {
        #expect(throws: BootstrapResponseError.self) { try BootstrapResponse.decode(Data("{\"Bootstrap\":".utf8)) }
        do {
            _ = try BootstrapResponse.decode(Data("{\"Bootstrap\":".utf8))
        } catch {
            guard case .malformedJSON = error else {
                Issue.record("expected malformedJSON, got \(error)")
                return
            }
        }
    }
}

@Suite struct BootstrapResponsePropertyTests {
    @Test func roundTripsThroughJSON() async {
        await propertyCheck(
            input: ProtocolGen.text, ProtocolGen.text.optional, Gen<Int64>.int64(in: 0...Int64.max).optional,
            ProtocolGen.text.optional
        ) { text, friendlyName, expiry, containerName in
            let response = BootstrapResponse(
                bootstrap: Bootstrap(ecosystemURL: "https://h/e?access_token=" + text, userId: text, signInName: text,
                    userFriendlyName: friendlyName),
                accessTokenInfo: expiry.map { AccessTokenInfo(accessToken: text, accessTokenExpiry: $0) },
                rootContainerInfo: containerName.map {
                    RootContainerInfo(containerPointer: .init(url: "https://h/c", name: $0), containerInfo: .init(name: $0))
                })
            do {
                #expect(try BootstrapResponse.decode(response.encoded()) == response)
            } catch { Issue.record(error) }
        }
    }
}
