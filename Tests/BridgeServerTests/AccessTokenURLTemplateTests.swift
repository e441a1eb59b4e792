@testable import BridgeServer
import Testing

@Suite("AccessTokenURLTemplate")
struct AccessTokenURLTemplateTests {
    @Test func everyPlaceholderIsFilledAndTheRestKeptByteForByte() {
        let template = AccessTokenURLTemplate("https://contoso.com/wopi/{access_token}/x?access_token={access_token}&y=%7B")
        #expect(template.filled(with: "abc-_") == "https://contoso.com/wopi/abc-_/x?access_token=abc-_&y=%7B")
        // Characters outside the unreserved set would be escaped (our tokens never have any).
        #expect(template.filled(with: "a+b") == "https://contoso.com/wopi/a%2Bb/x?access_token=a%2Bb&y=%7B")
        #expect(AccessTokenURLTemplate("https://contoso.com/no-token").filled(with: "t") == "https://contoso.com/no-token")
    }
}
