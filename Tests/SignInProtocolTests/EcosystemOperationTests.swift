import Foundation
import Testing

@testable import SignInProtocol
@testable import SignInProtocolCore

@Suite struct EcosystemOperationTests {
    @Test func readsTheKnownOperationsAndKeepsUnknownOnes() {
        #expect(EcosystemOperation(headerValue: "GET_NEW_ACCESS_TOKEN") == .getNewAccessToken)
        #expect(EcosystemOperation(headerValue: " get_root_container\t") == .getRootContainer)
        #expect(EcosystemOperation(headerValue: "GET_WOPI_SRC_WITH_ACCESS_TOKEN") == .getWopiSrcWithAccessToken)
        #expect(EcosystemOperation(headerValue: "GET_SHARE_URL") == .unknown("GET_SHARE_URL"))
        for operation in [EcosystemOperation.getNewAccessToken, .getRootContainer, .getWopiSrcWithAccessToken, .unknown("X")] {
            #expect(EcosystemOperation(headerValue: operation.headerValue) == operation)
        }
    }

    @Test func codableUsesTheHeaderValue() throws {
        let data = try JSONEncoder().encode([EcosystemOperation.getRootContainer, .unknown("NEW_OP")])
        #expect(String(decoding: data, as: UTF8.self) == #"["GET_ROOT_CONTAINER","NEW_OP"]"#)
        #expect(try JSONDecoder().decode([EcosystemOperation].self, from: data) == [.getRootContainer, .unknown("NEW_OP")])
    }
}
