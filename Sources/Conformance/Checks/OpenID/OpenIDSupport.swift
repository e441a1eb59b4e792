import Crypto
import Foundation
import SignInProtocol

/// One OpenID sign-in of the public client: `scope=openid`, a nonce, PKCE; the code redeemed and the ID token read.
struct OpenIDSignIn: Sendable {
    var nonce: String
    var exchange: TokenExchange
    var idToken: String?
    var claims: [String: JSONValue]?
    var header: [String: JSONValue]?

    /// Two sign-ins of the same user (the ID token checks read the first, `openid.stable-sub` both).
    static func pair(in session: ConformanceSession) async -> Result<[OpenIDSignIn], StepFailure> {
        await session.remembered("openid-sign-ins") { await both(in: session) }
    }

    /// The discovery document, when the host speaks OpenID (discovery answers and does not leave `openid` out).
    static func discovery(in session: ConformanceSession) async throws(CheckSkipped) -> [String: JSONValue] {
        guard let metadata = await session.discovery().value else { throw CheckSkipped("no OpenID discovery document") }
        if case .array(let scopes) = metadata["scopes_supported"], !scopes.contains(.string("openid")) {
            throw CheckSkipped("discovery's scopes_supported has no openid")
        }
        return metadata
    }

    private static func both(in session: ConformanceSession) async -> Result<[OpenIDSignIn], StepFailure> {
        var found = [OpenIDSignIn]()
        for _ in 0..<2 {
            switch await one(in: session) {
            case .failure(let failure): return .failure(failure)
            case .success(let signIn): found.append(signIn)
            }
        }
        return .success(found)
    }

    private static func one(in session: ConformanceSession) async -> Result<OpenIDSignIn, StepFailure> {
        let nonce = "conform-" + PKCE.Verifier.random().value.prefix(16)
        let verifier = PKCE.Verifier.random()
        let outcome = await PartnerApp.signIn(
            in: session, challenge: verifier.challenge(method: .s256).value, extra: [("scope", "openid"), ("nonce", nonce)])
        let code: String
        switch outcome.flatMap({ $0.requireCode() }) {
        case .failure(let failure): return .failure(failure)
        case .success(let found): code = found
        }
        switch await PartnerApp.redeem(code, verifier: verifier.value, in: session, as: .partnerApp) {
        case .failure(let failure): return .failure(failure)
        case .success(let exchange):
            guard exchange.response.status == 200 else {
                return .failure(StepFailure("the openid code redemption answered \(exchange.summary)"))
            }
            let idToken = exchange.json?["id_token"]?.stringValue
            let parts = idToken.flatMap(TokenForgery.split)
            return .success(OpenIDSignIn(nonce: nonce, exchange: exchange, idToken: idToken, claims: parts?.claims, header: parts?.header))
        }
    }

    /// OpenID Connect Core §3.1.3.8: base64url of the left half of the hash of the access token, the hash being the
    /// one of the ID token's `alg` (SHA-256 for *256, and so on).
    static func atHash(of accessToken: String, alg: String) -> String? {
        let bytes = Array(accessToken.utf8)
        let digest: [UInt8]
        switch alg.suffix(3) {
        case "256": digest = Array(SHA256.hash(data: bytes))
        case "384": digest = Array(SHA384.hash(data: bytes))
        case "512": digest = Array(SHA512.hash(data: bytes))
        default: return nil
        }
        return Base64URL.encode(digest.prefix(digest.count / 2))
    }
}
