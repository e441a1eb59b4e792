import Crypto
import Foundation
import SignInProtocol

/// The attestation group's shared steps (draft-ietf-oauth-attestation-based-client-auth-11): whether the host offers
/// `attest_jwt_client_auth`, and token requests carrying an attestation signed by a key only this run knows.
enum AttestationSupport {
    /// The metadata document that advertises the method (§8), or why the group cannot run.
    static func metadata(in session: ConformanceSession) async throws(CheckSkipped) -> [String: JSONValue] {
        for document in [await session.metadata().value, await session.discovery().value] {
            guard let document, case .array(let methods)? = document["token_endpoint_auth_methods_supported"] else { continue }
            if methods.contains(.string(ClientAttestationNames.authenticationMethod)) { return document }
        }
        throw CheckSkipped(
            "the metadata's token_endpoint_auth_methods_supported has no attest_jwt_client_auth: the host does not offer "
                + "attestation-based client authentication")
    }

    /// A `client_credentials` request as the run's client, with an attestation from an attester nobody configured
    /// (a key made for this run) and a PoP that is right in every other way (§4, §5.1).
    static func untrustedTokenRequest(in session: ConformanceSession) async throws(CheckSkipped) -> ObservedResponse {
        let document = try await metadata(in: session)
        guard let clientID = session.options.publicClient?.id ?? session.options.office?.id else {
            throw CheckSkipped("needs --public-client-id or --client-id")
        }
        // §5.1: the PoP's audience is the issuer; the request goes where every other check redeems codes.
        guard let issuer = document["issuer"]?.stringValue else { throw CheckSkipped("the metadata has no issuer") }
        let endpoint = try await session.endpoints().orSkip().token
        let instance = P256.Signing.PrivateKey()
        let now = Int(Date().timeIntervalSince1970)
        let attestation = sign(
            header: ["typ": .string(ClientAttestationNames.attestationType), "alg": .string("ES256")],
            claims: [
                "iss": .string("https://untrusted-attester.invalid"), "sub": .string(clientID), "iat": .integer(Int64(now)),
                "exp": .integer(Int64(now + 600)), "cnf": .object(["jwk": .object(publicJWK(instance.publicKey))]),
            ],
            with: P256.Signing.PrivateKey())
        let proof = sign(
            header: ["typ": .string(ClientAttestationNames.proofOfPossessionType), "alg": .string("ES256")],
            claims: [
                "aud": .string(issuer), "jti": .string(UUID().uuidString), "iat": .integer(Int64(now)),
            ],
            with: instance)
        let headers = [
            (name: ClientAttestationNames.attestationHeader, value: attestation),
            (name: ClientAttestationNames.proofOfPossessionHeader, value: proof),
        ]
        let fields = [("grant_type", "client_credentials"), ("client_id", clientID)]
        do {
            return try await session.http.send(.form(endpoint, fields, headers: headers), as: .attacker)
        } catch {
            throw CheckSkipped("the token endpoint did not answer: \(error)")
        }
    }

    static func publicJWK(_ key: P256.Signing.PublicKey) -> [String: JSONValue] {
        let point = Array(key.x963Representation.dropFirst())
        return [
            "kty": .string("EC"), "crv": .string("P-256"), "x": .string(Base64URL.encode(point[..<32])),
            "y": .string(Base64URL.encode(point[32...])),
        ]
    }

    /// A compact JWS over the members' canonical JSON (RFC 7515 §7.1), ES256 (RFC 7518 §3.4).
    static func sign(header: [String: JSONValue], claims: [String: JSONValue], with key: P256.Signing.PrivateKey) -> String {
        let input = Base64URL.encode(JSONValue.object(header).compactJSON) + "." + Base64URL.encode(JSONValue.object(claims).compactJSON)
        let signature = (try? key.signature(for: Array(input.utf8)).rawRepresentation) ?? Data()
        return input + "." + Base64URL.encode(Array(signature))
    }
}
