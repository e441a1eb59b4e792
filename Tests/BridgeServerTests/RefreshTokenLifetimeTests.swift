import BridgeServer
import BridgeStore
import Foundation
import HummingbirdTesting
import SignInProtocol
import Testing

/// `tokens.refreshTokenLifetimeSeconds`: each refresh token lives that long from its issue, and each refresh issues
/// a new one, so an app in use stays signed in while an abandoned one is signed out.
@Suite("Token endpoint: refresh token lifetime")
struct RefreshTokenLifetimeTests {
    @Test func aRefreshTokenExpiresAfterItsLifetimeButEachRefreshStartsANewOne() async throws {
        let bridge = try await TestBridge.makeForTokens()
        let lifetime = TimeInterval(bridge.configuration.tokens.refreshTokenLifetimeSeconds)
        #expect(lifetime == 90 * 24 * 3600)
        try await bridge.app.makeApplication().test(.live) { client in
            let (_, first) = try await RefreshAndClientCredentialsTests.partnerTokens(bridge, client)
            // Used just before it expires: a new token, with a new lifetime.
            bridge.clock.advance(by: lifetime - 1)
            let second = try #require(try await RefreshAndClientCredentialsTests.refresh(client, first).refreshToken)
            bridge.clock.advance(by: lifetime - 1)
            let third = try #require(try await RefreshAndClientCredentialsTests.refresh(client, second).refreshToken)
            // Left unused for its whole lifetime: refused.
            bridge.clock.advance(by: lifetime)
            let late = try await RefreshAndClientCredentialsTests.refresh(client, third)
            #expect(late.status == .badRequest)
            #expect(late.error == "invalid_grant")
        }
    }

    @Test func zeroMeansUntilRotatedOrRevoked() async throws {
        let bridge = try await TestBridge.make(TokenTestClients.configuration.addingSections("tokens: {refreshTokenLifetimeSeconds: 0}"))
        try await bridge.app.makeApplication().test(.live) { client in
            let (_, first) = try await RefreshAndClientCredentialsTests.partnerTokens(bridge, client)
            bridge.clock.advance(by: 5 * 365 * 24 * 3600)
            let refreshed = try await RefreshAndClientCredentialsTests.refresh(client, first)
            #expect(refreshed.status == .ok)
            #expect(refreshed.refreshToken != nil)
        }
    }
}

@Suite("Token endpoint: refresh token reuse grace")
struct RefreshReuseGraceTests {
    @Test func twoRefreshesWithOneTokenWithinTheGraceBothSucceed() async throws {
        let bridge = try await TestBridge.make(TokenTestClients.configuration.addingSections("tokens: {refreshReuseGraceSeconds: 10}"))
        try await bridge.app.makeApplication().test(.live) { client in
            let (_, first) = try await RefreshAndClientCredentialsTests.partnerTokens(bridge, client)
            let one = try await RefreshAndClientCredentialsTests.refresh(client, first)
            bridge.clock.advance(by: 3)
            let two = try await RefreshAndClientCredentialsTests.refresh(client, first)
            #expect(one.status == .ok && two.status == .ok)
            #expect(one.refreshToken != two.refreshToken)
            #expect(try await client.bootstrapStatus(try #require(one.accessToken)) == .ok)
            // Past the grace: a replay, and the grant goes with both branches.
            bridge.clock.advance(by: 8)
            #expect(try await RefreshAndClientCredentialsTests.refresh(client, first).error == "invalid_grant")
            #expect(try await client.bootstrapStatus(try #require(two.accessToken)) == .unauthorized)
        }
    }
}
