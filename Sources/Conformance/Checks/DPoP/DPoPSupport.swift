import Foundation
import SignInProtocol

/// The DPoP group's shared steps: whether the host speaks DPoP, and the public client's token requests with a proof.
enum DPoPSupport {
    /// The algorithms the host advertises (RFC 9449 §5.1); the group runs only when ES256 is among them.
    static func advertised(in session: ConformanceSession) async throws(CheckSkipped) -> [String] {
        _ = try session.options.required(.publicClient)
        for document in [await session.metadata().value, await session.discovery().value] {
            if case .array(let values)? = document?["dpop_signing_alg_values_supported"] {
                let algorithms = values.compactMap(\.stringValue)
                guard algorithms.contains("ES256") else {
                    throw CheckSkipped("the host's dpop_signing_alg_values_supported has no ES256 (\(algorithms))")
                }
                return algorithms
            }
        }
        throw CheckSkipped("the metadata has no dpop_signing_alg_values_supported: the host does not offer DPoP (RFC 9449)")
    }

    /// A request carrying a proof made by `makeProof(nonce)`. When the host answers `use_dpop_nonce` with a
    /// `DPoP-Nonce` (RFC 9449 §8), the request is sent once more with a new proof carrying that nonce.
    static func send(
        _ request: @Sendable (String) -> ConformanceHTTP.Request, proof makeProof: @Sendable (String?) -> String,
        in session: ConformanceSession, as party: Party
    ) async -> Result<DPoPAnswer, StepFailure> {
        do {
            let proof = makeProof(nil)
            let first = try await session.http.send(request(proof), as: party)
            guard Self.asksForNonce(first), let nonce = first.value("DPoP-Nonce") else {
                return .success(DPoPAnswer(response: first, proof: proof, usedNonce: false))
            }
            let second = makeProof(nonce)
            let response = try await session.http.send(request(second), as: party)
            return .success(DPoPAnswer(response: response, proof: second, usedNonce: true))
        } catch {
            return .failure(StepFailure("no answer: \(error)", unanswered: true))
        }
    }

    /// `use_dpop_nonce` in a token endpoint's JSON (§8) or a resource's challenge (§9).
    static func asksForNonce(_ response: ObservedResponse) -> Bool {
        if JSONObject.parse(response.body)?["error"]?.stringValue == "use_dpop_nonce" { return true }
        return response.values("WWW-Authenticate").contains { $0.contains("use_dpop_nonce") }
    }

    /// The public client's code redeemed with a proof by `key` (with `flaw`, when a check wants it refused).
    static func redeem(
        in session: ConformanceSession, key: DPoPClientKey, flaw: DPoPClientKey.Flaw = .none,
        method: String = "POST", uriOverride: String? = nil, issuedAt: Date? = nil, scope: String? = nil
    ) async -> Result<DPoPAnswer, StepFailure> {
        let code: PartnerApp.Code
        switch await PartnerApp.code(in: session, extra: scope.map { [("scope", $0)] } ?? []) {
        case .failure(let failure): return .failure(failure)
        case .success(let found): code = found
        }
        guard let client = session.options.publicClient, let endpoint = await session.endpoints().value?.token else {
            return .failure(StepFailure("no token endpoint (see challenge.endpoints)"))
        }
        let fields = [
            ("grant_type", "authorization_code"), ("code", code.code), ("redirect_uri", client.redirectURI),
            ("code_verifier", code.verifier.value), ("client_id", client.id),
        ]
        let target = uriOverride ?? endpoint
        return await send(
            { proof in .form(endpoint, fields, headers: [(name: "DPoP", value: proof)]) },
            proof: { nonce in key.proof(method: method, uri: target, nonce: nonce, issuedAt: issuedAt ?? Date(), flaw: flaw) },
            in: session, as: .partnerApp)
    }

    /// A token request with a good proof, remembered: the first DPoP-bound tokens of the run (`openid` scope, so that
    /// userinfo can be the protected resource).
    static func boundTokens(in session: ConformanceSession) async -> Result<BoundTokens, StepFailure> {
        await session.remembered("dpop-bound-tokens") {
            let key = DPoPClientKey()
            return await redeem(in: session, key: key, scope: "openid").flatMap { answer in
                guard answer.response.status == 200, let token = answer.exchange.accessToken else {
                    return .failure(StepFailure("the code redeemed with a DPoP proof answered \(answer.exchange.summary)"))
                }
                return .success(BoundTokens(key: key, answer: answer, accessToken: token))
            }
        }
    }

    /// The judgement the proof checks share: refused with `invalid_dpop_proof` (RFC 9449 §5), nothing issued.
    static func judgeRefused(_ answer: DPoPAnswer, what: String) -> CheckOutcome {
        let exchange = answer.exchange
        if exchange.accessToken != nil { return .fail("a proof \(what) was accepted: tokens were issued") }
        guard exchange.response.status == 400, exchange.error == "invalid_dpop_proof" else {
            return .fail("a proof \(what) answered \(exchange.summary), not 400 invalid_dpop_proof")
        }
        return .pass("a proof \(what) is refused with invalid_dpop_proof")
    }
}

/// A host's answer to a request with a proof, and whether it took a second try with the host's nonce.
struct DPoPAnswer: Sendable {
    var response: ObservedResponse
    /// The proof that got this answer.
    var proof: String
    var usedNonce: Bool
    var exchange: TokenExchange { TokenExchange(response: response) }
}

/// The run's first DPoP-bound tokens and the key they are bound to.
struct BoundTokens: Sendable {
    var key: DPoPClientKey
    var answer: DPoPAnswer
    var accessToken: String
}
