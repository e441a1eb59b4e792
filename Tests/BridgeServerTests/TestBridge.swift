import BridgeServer
import BridgeStore
import BridgeStoreSQLite
import Foundation
import NIOConcurrencyHelpers
import Testing

/// A configured server on a temporary SQLite file, with a clock the test controls.
struct TestBridge: Sendable {
    let directory: URL
    let configuration: BridgeConfiguration
    let store: SQLiteStore
    let app: BridgeServerApp
    let clock: TestClock

    /// A configuration shaped like the Office docs' sample (contoso), so that expected header bytes can be written
    /// out by hand.
    static let yaml = """
        issuer: https://contoso.com
        listen: {host: 127.0.0.1, port: 0}
        log: {level: warning, requests: false}
        office:
          authorizationUri: https://contoso.com/api/oauth2/authorize
          tokenIssuanceUri: https://contoso.com/api/oauth2/token
          providerId: TPCONTOSO
          urlSchemes:
            iOS: [contoso, contoso-EMM]
            Android: [{minimumVersionCode: 7, packageName: com.c, authActivity: com.c.A}]
        wopi:
          ecosystemUrlTemplate: https://contoso.com/wopi/ecosystem?access_token={access_token}
          rootContainer: {name: My files, urlTemplate: "https://contoso.com/wopi/containers/root?access_token={access_token}"}
          wopiSrcPrefixes: [https://contoso.com/wopi/files/]
          accessTokenLifetimeSeconds: 3600
        clients:
          - id: office
            secretHash: sha256:6e15e3912e04b1b7a42a4b562c390a7054a80b3092cc2283c9e74dd9eada34b7
            redirectUris: [https://localhost]
            grants: [authorization_code, refresh_token]
        users:
          - id: alice
            signInName: alice@contoso.com
            friendlyName: Alice
            passwordHash: $2b$12$spZMyuggXL3hVlAEWn6Ji.2/o./7RYcPQD49gPV/Me1vHSjTCvTuS
        """

    static func make(yaml: String = yaml, directory: URL? = nil, clock: TestClock = TestClock()) async throws -> TestBridge {
        let directory = try directory ?? {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("signin-bridge-server-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            return url
        }()
        var configuration = try ConfigurationLoader(environment: [:]).load(yaml: yaml).configuration
        configuration.store.sqlite.path = directory.appendingPathComponent("bridge.sqlite").path
        configuration.signingKeys.file = directory.appendingPathComponent("keys.json").path
        let store = try await SQLiteStore.open(path: configuration.store.sqlite.path)
        let keys = try await SigningKeyFile.loadOrCreate(path: configuration.signingKeys.file).keys
        let app = BridgeServerApp(configuration: configuration, store: store, keys: keys, now: { clock.now })
        try await app.seedUsers()
        return TestBridge(directory: directory, configuration: configuration, store: store, app: app, clock: clock)
    }

    /// A token as `signin-bridge token issue` makes one.
    func issueToken(user: String = "alice", client: String = "office") async throws -> IssuedAccessToken {
        let grant = GrantRecord(userID: user, clientID: client, scope: "wopi", createdAt: clock.now)
        return try await app.accessTokenIssuer.issue(inNewGrant: grant, at: clock.now)
    }
}

/// A settable clock, so lifetimes are tested without sleeping.
final class TestClock: Sendable {
    private let current = NIOLockedValueBox(Date(timeIntervalSince1970: 1_800_000_000))
    var now: Date { current.withLockedValue { $0 } }
    func advance(by seconds: TimeInterval) { current.withLockedValue { $0.addTimeInterval(seconds) } }
}
