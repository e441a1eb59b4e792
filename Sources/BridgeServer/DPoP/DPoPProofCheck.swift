import Crypto
import Foundation
import SignInProtocol

/// A proof that passed every check of RFC 9449 §4.3 for one request; what is left for the caller is the replay check
/// (a store step keyed by `id` and `thumbprint` until `replayWindowEnds`) and, for a bound token, `cnf.jkt`.
struct VerifiedDPoPProof: Sendable, Hashable {
    /// `jti`.
    let id: String
    /// The RFC 7638 thumbprint of the proof's key.
    let thumbprint: String
    /// Until when a replay of this proof could still pass the `iat` check.
    let replayWindowEnds: Date
}

/// Why a request's DPoP proof is refused; each maps to the error RFC 9449 names.
enum DPoPRefusal: Error, Sendable, Hashable {
    /// `invalid_dpop_proof` (§5, §7.1).
    case invalidProof(DPoPProofError)
    /// `use_dpop_nonce` (§8, §9): the server wants a nonce, or the one sent is no longer good; `nonce` is the one to
    /// retry with, sent in `DPoP-Nonce`.
    case nonceRequired(nonce: String)
    /// The replay check could not ask the store: 503, never a pass.
    case storeUnavailable
    /// The replay check failed for a reason that is the server's own (`StoreUnavailable(classifying:)`): 500.
    case storeFault

    var oauthError: OAuthError {
        switch self {
        case .invalidProof(let problem): problem.oauthError
        case .nonceRequired: OAuthError(.useDPoPNonce, description: "retry with the nonce in the DPoP-Nonce header (RFC 9449 section 8)")
        case .storeUnavailable: .storeUnavailable
        case .storeFault: .serverFault
        }
    }
}

extension DPoPRefusal: StoreCallFailure {
    init(_ outage: StoreUnavailable) { self = .storeUnavailable }
    init(storeFault: any Error) { self = .storeFault }
}

/// The request a proof is judged against.
struct DPoPRequest: Sendable, Hashable {
    /// The HTTP method as sent (§4.3 step 8).
    var method: String
    /// The absolute URI the request was sent to, as the server's configured origin says (§4.3 step 9).
    var uri: String
    /// The access token sent with the proof, on requests to protected resources (§4.3 step 12: `ath`).
    var accessToken: String?
}

/// Checks a DPoP proof against the request it came with (RFC 9449 §4.3 steps 2–12, without the replay step).
struct DPoPProofCheck: Sendable {
    /// How far `iat` may be from now either way (§4.3 step 11 leaves the window to the server; §11.1). Five minutes,
    /// as node-oidc-provider: phones' clocks drift, and servers that require nonces get freshness from them instead.
    let issuedAtWindow: TimeInterval
    /// Set when every proof must carry a server nonce (§8).
    let nonces: DPoPNonces?
    let limit: InputLimit

    init(issuedAtWindow: TimeInterval = 300, nonces: DPoPNonces? = nil, limit: InputLimit = DPoPProof.defaultLimit) {
        self.issuedAtWindow = issuedAtWindow
        self.nonces = nonces
        self.limit = limit
    }

    func check(_ header: String, for request: DPoPRequest, at now: Date) throws(DPoPRefusal) -> VerifiedDPoPProof {
        let proof: DPoPProof
        let key: DPoPProofKey
        do throws(DPoPProofError) {
            // §4.3 steps 2–5 (`typ`, `alg`, and `crit` as RFC 7515 §4.1.11) in the parser: `JOSEHeaderRules.dpopProof`.
            proof = try DPoPProof(parsing: header, limit: limit)
            key = try DPoPProofKey(proof.header.key, algorithm: proof.header.algorithm)
            guard key.verifies(proof.signature, over: proof.signingInput) else {
                throw .invalid(member: "signature", reason: "does not verify with the proof's own jwk")
            }
            guard proof.claims.method == request.method else {
                throw .invalid(member: "htm", reason: "is not the request's method")
            }
            guard DPoPTargetURI.matches(proof: proof.claims.targetURI, request: request.uri) else {
                throw .invalid(member: "htu", reason: "is not the URI the request was sent to (RFC 9449 section 4.3)")
            }
            do throws(JWTTimeProblem) {
                try times.check(proof.claims.times, at: now)
            } catch {
                throw .invalid(member: Self.member(of: error), reason: "is outside the accepted window (\(error))")
            }
            if let token = request.accessToken {
                let expected = Base64URL.encode(Array(SHA256.hash(data: Array(token.utf8))))
                guard let hash = proof.claims.accessTokenHash else { throw .missing(member: "ath") }
                guard ConstantTime.equal(hash.utf8, expected.utf8) else {
                    throw .invalid(member: "ath", reason: "is not the hash of the access token sent")
                }
            }
        } catch {
            throw .invalidProof(error)
        }
        if let nonces {
            guard let nonce = proof.claims.nonce, nonces.accepts(nonce, at: now) else {
                throw .nonceRequired(nonce: nonces.current(at: now))
            }
        }
        return VerifiedDPoPProof(
            id: proof.claims.id, thumbprint: key.thumbprint,
            replayWindowEnds: times.acceptedUntil(issuedAt: proof.claims.issuedAt))
    }

    /// `iat` within the window either way (§4.3 step 11), `nbf` and `exp` when sent, by the one time rule.
    private var times: JWTTimeRules { JWTTimeRules(leeway: issuedAtWindow, maximumAge: issuedAtWindow) }

    private static func member(of problem: JWTTimeProblem) -> String {
        switch problem {
        case .expired: "exp"
        case .notYetValid: "nbf"
        case .issuedInTheFuture, .issuedTooLongAgo: "iat"
        }
    }
}
