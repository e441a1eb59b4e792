import Foundation

/// The fixtures' configurations as builders, the starting point of every test that needs a variant.
extension ConfigurationBuilder {
    static let testBridge = ConfigurationBuilder(TestBridge.yaml)
    static let authorizeFixture = ConfigurationBuilder(AuthorizeFixture.yaml)
    static let openIDFixture = ConfigurationBuilder(OpenIDFixture.yaml)
}

extension TestBridge {
    static func make(
        _ configuration: ConfigurationBuilder, directory: URL? = nil, clock: TestClock = TestClock()
    ) async throws -> TestBridge {
        try await make(yaml: configuration.yaml(), directory: directory, clock: clock)
    }
}

extension AuthorizeFixture {
    static func make(_ configuration: ConfigurationBuilder) async throws -> TestBridge {
        try await make(yaml: configuration.yaml())
    }
}
