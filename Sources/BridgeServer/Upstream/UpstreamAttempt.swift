import BridgeStore
import Foundation
import SignInProtocol

/// The secrets of one login at an upstream: `state` (RFC 6749 §10.12), `nonce` (OpenID Connect Core §3.1.2.1) and
/// the PKCE verifier (RFC 7636 §4.1), all fresh.
struct UpstreamAttempt: Sendable {
    let state = SecretToken()
    let nonce = SecretToken()
    let verifier = PKCE.Verifier.random()

    func record(
        upstream: String, at now: Date, lifetime: Int, interactionID: String? = nil, browser: TokenDigest? = nil,
        brokerSessionID: String? = nil
    ) -> UpstreamLoginRecord {
        UpstreamLoginRecord(
            stateDigest: state.digest, upstreamID: upstream, nonceDigest: nonce.digest, codeVerifier: verifier.value,
            interactionID: interactionID, browserDigest: browser, brokerSessionID: brokerSessionID, createdAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(lifetime)))
    }
}
