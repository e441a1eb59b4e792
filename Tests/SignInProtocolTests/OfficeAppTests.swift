import Testing

@testable import SignInProtocol
@testable import SignInProtocolCore

@Suite struct OfficeAppTests {
    @Test func mapsAppsToTheSchemesTheDocsList() {
        // Microsoft's app-to-app docs, "New URL schemes registered by Office iOS".
        #expect(OfficeApp.allCases.map(\.scheme) == ["ms-word-tp", "ms-excel-tp", "ms-powerpoint-tp", "ms-officemobile-tp"])
        #expect(OfficeApp.allCases.map(\.appParameter) == ["word", "excel", "powerpoint", "officemobile"])
    }

    @Test func roundTripsSchemesAndAppValuesIgnoringCase() {
        for app in OfficeApp.allCases {
            #expect(OfficeApp(scheme: app.scheme) == app)
            #expect(OfficeApp(scheme: app.scheme.uppercased()) == app)
            #expect(OfficeApp(appParameter: app.appParameter) == app)
        }
        #expect(OfficeApp(appParameter: "Word") == .word)
    }

    @Test func knowsNoOtherScheme() {
        #expect(OfficeApp(scheme: "ms-word") == nil)
        #expect(OfficeApp(scheme: "ms-onenote-tp") == nil)
        #expect(OfficeApp(scheme: "") == nil)
        #expect(OfficeApp(appParameter: "visio") == nil)
    }
}
