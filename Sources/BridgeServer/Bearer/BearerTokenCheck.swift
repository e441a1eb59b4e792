import Foundation
import HTTPTypes
import Hummingbird
import SignInProtocol

/// RFC 6750's credential check, shared by every bearer-protected endpoint: finds the token (`BearerTokenPresentation`)
/// and verifies it, or says which refusal applies.
struct BearerTokenCheck: Sendable {
    let verifier: AccessTokenVerifier
    let maxHeaderBytes: Int
    let dpop: DPoPProofs

    /// `formToken` is the form field's value where the endpoint accepts one (the exchange endpoint's `oauth_token`);
    /// `dpop` the request's DPoP fields where the endpoint accepts DPoP tokens (RFC 9449 §7), nil where it does not.
    func verified(
        authorization: String?, formToken: String? = nil, dpop presentation: DPoPPresentation? = nil, at now: Date
    ) async throws(BearerRefusal) -> VerifiedAccessToken {
        let token: String
        let placement: ExchangeRequest.TokenPlacement
        switch BearerTokenPresentation(
            authorization: authorization, formToken: formToken, maxHeaderBytes: maxHeaderBytes,
            acceptsDPoP: presentation != nil)
        {
        case .none: throw .noCredential
        case .twoMethods:
            throw .request(.invalidRequest("the access token was sent in more than one way (RFC 6750 section 2)"))
        case .token(let value, let place): (token, placement) = (value, place)
        }
        var proof: VerifiedDPoPProof?
        if placement == .dpopHeader, let presentation {
            proof = try await self.proof(presentation, for: token, at: now)
        }
        let verified: VerifiedAccessToken
        do {
            verified = try await verifier.verifiedToken(token, at: now)
        } catch .storeUnavailable {
            throw .storeUnavailable
        } catch .storeFault {
            throw .request(.serverFault)
        } catch {
            throw .invalidToken("the access token is invalid")
        }
        if proof == nil, verified.claims.cnf != nil {
            throw .invalidToken("the access token is DPoP-bound: send it with the DPoP scheme and a proof (RFC 9449 section 7.2)")
        }
        if proof != nil, verified.claims.cnf == nil || !DPoPBinding.checkAccessToken(verified.claims, proof: proof) {
            throw .invalidToken("the access token is not bound to the proof's key (RFC 9449 section 7.1)")
        }
        return verified
    }

    /// The proof that must come with a `DPoP` token, checked with its `ath` and recorded as used (§7.1).
    private func proof(_ presentation: DPoPPresentation, for token: String, at now: Date) async throws(BearerRefusal)
        -> VerifiedDPoPProof
    {
        let header: String?
        do {
            header = try presentation.singleProof()
        } catch {
            throw .invalidDPoPProof(error)
        }
        guard let header else {
            throw .invalidDPoPProof(OAuthError(.invalidDPoPProof, description: "a DPoP token needs a DPoP proof (RFC 9449 section 7.1)"))
        }
        do throws(DPoPRefusal) {
            let request = DPoPRequest(method: presentation.method, uri: presentation.uri, accessToken: token)
            return try await dpop.verify(header, for: request, at: now)
        } catch {
            throw BearerRefusal(error)
        }
    }
}
