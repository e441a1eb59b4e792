import Crypto
import Foundation
import SignInProtocol

/// The attestation group's shared steps (OAuth 2.0 Attestation-Based Client Authentication,
/// draft-ietf-oauth-attestation-based-client-auth): the suite plays the client attester (with the key the host
/// trusts, `--attester-key`) and the client instance, and sends both JWTs to the token endpoint with a code the host
/// never issued. Client authentication comes before the grant (RFC 6749 §3.2.1), so an accepted attestation shows as
/// `invalid_grant` and a refused one as a client error.
enum ClientAttestation {
    static func draft(_ section: String, _ title: String) -> SourceCitation {
        SourceCitation(
            title: "OAuth 2.0 Attestation-Based Client Authentication (draft-ietf-oauth-attestation-based-client-auth) \(section) (\(title))",
            url: "https://datatracker.ietf.org/doc/draft-ietf-oauth-attestation-based-client-auth/")
    }

    /// The error codes a refused attestation may carry (draft §7.4 and RFC 6749 §5.2).
    static let refusals: Set<String> = ["invalid_client", "invalid_client_attestation", "use_fresh_attestation"]

    /// The run's keys, issuer and token endpoint, or why the group cannot run.
    static func target(in session: ConformanceSession) async throws(CheckSkipped) -> AttestationTarget {
        let options = try session.options.required(.attestation)
        var metadata = await session.metadata().value
        if metadata == nil { metadata = await session.discovery().value }
        guard let metadata, case .array(let methods) = metadata["token_endpoint_auth_methods_supported"],
            methods.contains(.string("attest_jwt_client_auth"))
        else { throw CheckSkipped("token_endpoint_auth_methods_supported has no attest_jwt_client_auth: the host does not offer it") }
        guard let issuer = metadata["issuer"]?.stringValue else { throw CheckSkipped("the metadata names no issuer") }
        guard let token = await session.endpoints().value?.token else { throw CheckSkipped("no token endpoint (see challenge.endpoints)") }
        let attester: P256.Signing.PrivateKey
        do {
            attester = try P256.Signing.PrivateKey(pemRepresentation: options.attesterKeyPEM)
        } catch {
            throw CheckSkipped("--attester-key is not a PEM P-256 private key")
        }
        return AttestationTarget(
            attester: attester, clientID: options.clientID, issuer: issuer, tokenEndpoint: token,
            challengeEndpoint: metadata["challenge_endpoint"]?.stringValue)
    }

    /// A token request authenticated by `attestation` and `pop` (draft §7.5), for a code the host never issued.
    static func send(
        _ target: AttestationTarget, attestation: String, pop: String, clientID: String? = nil, in session: ConformanceSession,
        as party: Party = .partnerApp
    ) async throws(CheckSkipped) -> TokenExchange {
        let fields = [
            ("grant_type", "authorization_code"), ("code", "conform-" + PKCE.Verifier.random().value),
            ("code_verifier", PKCE.Verifier.random().value), ("client_id", clientID ?? target.clientID),
        ]
        let headers = [(name: "OAuth-Client-Attestation", value: attestation), (name: "OAuth-Client-Attestation-PoP", value: pop)]
        do {
            return TokenExchange(response: try await session.http.send(.form(target.tokenEndpoint, fields, headers: headers), as: party))
        } catch {
            throw CheckSkipped("the token endpoint did not answer: \(error)")
        }
    }

    /// A challenge from the host's challenge endpoint (draft §6.1), when it has one: the PoP must then carry it.
    static func challenge(_ target: AttestationTarget, in session: ConformanceSession) async -> String? {
        guard let endpoint = target.challengeEndpoint,
            let response = try? await session.http.send(.form(endpoint, []), as: .partnerApp)
        else { return nil }
        return JSONObject.parse(response.body)?["attestation_challenge"]?.stringValue
    }

    /// The valid pair for a fresh instance key; `attestation.accepted` judges it, the others break one part.
    static func validPair(_ target: AttestationTarget, in session: ConformanceSession) async -> (attestation: String, pop: String) {
        let instance = P256.Signing.PrivateKey()
        let challenge = await challenge(target, in: session)
        return (
            AttestationJWT.attestation(subject: target.clientID, instance: instance, signedBy: target.attester),
            AttestationJWT.pop(audience: target.issuer, challenge: challenge, signedBy: instance)
        )
    }

    /// A refusal, or what the host answered instead.
    static func judgeRefused(_ answer: TokenExchange, what: String) -> CheckOutcome {
        if answer.error == "invalid_grant" || answer.accessToken != nil { return .fail("\(what) authenticated the client (\(answer.summary))") }
        return refusals.contains(answer.error ?? "") && [400, 401].contains(answer.response.status)
            ? .pass("refused: \(answer.summary)") : .fail("\(what) answered \(answer.summary), not invalid_client")
    }
}

struct AttestationTarget: Sendable {
    var attester: P256.Signing.PrivateKey
    var clientID: String
    var issuer: String
    var tokenEndpoint: String
    var challengeEndpoint: String?
}

/// The two JWTs of draft §4 and §5.1, signed ES256, each with the one flaw a check asks for.
enum AttestationJWT {
    static func attestation(
        subject: String, instance: P256.Signing.PrivateKey, signedBy key: P256.Signing.PrivateKey,
        expiresIn seconds: Int = 600, privateCnf: Bool = false
    ) -> String {
        let now = Int(Date().timeIntervalSince1970)
        var jwk = SignedJWT.publicJWK(instance.publicKey)
        if privateCnf { jwk.append(("d", Base64URL.encode(instance.rawRepresentation))) }
        let claims = [
            ("sub", JSONText.quoted(subject)), ("iat", String(now)), ("exp", String(now + seconds)),
            ("cnf", SignedJWT.object([("jwk", SignedJWT.object(jwk.map { ($0.0, JSONText.quoted($0.1)) }))])),
        ]
        return SignedJWT.es256(header: header("oauth-client-attestation+jwt"), claims: claims, signedBy: key)
    }

    /// A well-formed PoP, as an app makes one (SignInProtocol's `ClientAttestationPoP`): the checks' flaws are in
    /// the attestation, never in this.
    static func pop(audience: String, challenge: String?, signedBy key: P256.Signing.PrivateKey) -> String {
        let input = ClientAttestationPoP.signingInput(
            audience: audience, id: PKCE.Verifier.random().value, issuedAt: Int64(Date().timeIntervalSince1970),
            challenge: challenge)
        let signature = (try? key.signature(for: Array(input.utf8)).rawRepresentation) ?? Data()
        return ClientAttestationPoP.compact(signingInput: input, signature: Array(signature))
    }

    private static func header(_ type: String) -> [(String, String)] {
        [("typ", JSONText.quoted(type)), ("alg", JSONText.quoted("ES256"))]
    }
}
