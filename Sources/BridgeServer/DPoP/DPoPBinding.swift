import BridgeStore
import Foundation
import SignInProtocol

/// Which key the tokens of one token response are bound to (RFC 9449 §5): the access token to the proof's key
/// whenever a proof came (`cnf.jkt`, §6.1); the refresh token as `RefreshTokenBinding` decides.
struct DPoPBinding: Sendable, Hashable {
    var accessToken: String?
    var refreshToken: RefreshTokenBinding?

    static let none = DPoPBinding(accessToken: nil, refreshToken: nil)

    init(accessToken: String?, refreshToken: RefreshTokenBinding?) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
    }

    init(proof: VerifiedDPoPProof?, client: AuthenticatedClient) {
        accessToken = proof?.thumbprint
        refreshToken = RefreshTokenBinding(proof: proof, client: client)
    }

    /// The key a code will be bound to (RFC 9449 §10): the proof's when the authorization request came with one (a
    /// pushed or first-party request, §10.1), else `dpop_jkt`. A `dpop_jkt` beside a proof must name the proof's key
    /// ("MUST reject the request if the JWK Thumbprint in dpop_jkt does not match").
    static func codeKey(named: [String], proofKey: String?) throws(OAuthError) -> String? {
        guard let proofKey else { return named.first }
        guard named.allSatisfy({ ConstantTime.equal($0.utf8, proofKey.utf8) }) else {
            throw OAuthError(.invalidDPoPProof, description: "dpop_jkt does not match the DPoP proof's key (RFC 9449 section 10.1)")
        }
        return proofKey
    }

    /// A code requested with `dpop_jkt` is redeemed only with a proof by that key (§10.1: `invalid_grant`).
    static func checkCode(_ code: AuthorizationCodeRecord, proof: VerifiedDPoPProof?) throws(OAuthError) {
        guard let bound = code.dpopKeyThumbprint else { return }
        guard let proof, ConstantTime.equal(bound.utf8, proof.thumbprint.utf8) else {
            throw OAuthError(.invalidGrant, description: "the code is bound to a DPoP key (dpop_jkt): send a proof made with it")
        }
    }

    /// A token bound to a key is accepted only with a proof made with that key (§7.1 for resources; token exchange's
    /// subject token likewise).
    static func checkAccessToken(_ claims: AccessTokenClaims, proof: VerifiedDPoPProof?) -> Bool {
        guard let bound = claims.cnf?.jkt else { return true }
        guard let proof else { return false }
        return ConstantTime.equal(bound.utf8, proof.thumbprint.utf8)
    }
}
