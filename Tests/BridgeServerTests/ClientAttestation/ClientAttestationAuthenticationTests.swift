import BridgeStore
import Crypto
import Foundation
import Testing
@testable import BridgeServer
@testable import SignInProtocol

/// `attest_jwt_client_auth` in `ClientAuthenticator` (draft-ietf-oauth-attestation-based-client-auth-11 §7), one
/// rule at a time; the same flows go over the wire in scripts/test/client_attestation.py.
@Suite("Attestation-based client authentication")
struct ClientAttestationAuthenticationTests {
    let maker = ClientAttestationMaker()

    static func yaml(attesters: String) -> String {
        """
        issuer: \(ClientAttestationMaker.issuer)
        clients:
          - id: attested-app
            public: true
            attestation: {required: true}
            redirectUris: [com.example.app:/cb]
            grants: [authorization_code]
          - id: attested-service
            attestation: {required: true}
            redirectUris: [https://service.example/cb]
            grants: [client_credentials]
          - id: native-app
            public: true
            redirectUris: [com.example.native:/cb]
            grants: [authorization_code]
        \(attesters)
        """
    }

    var configuration: BridgeConfiguration {
        try! ConfigurationLoader(environment: [:]).load(yaml: Self.yaml(attesters: maker.attestersYAML)).configuration
    }

    func authenticator(store: any DPoPProofStore = MemoryProofStore()) -> ClientAuthenticator {
        let settings = configuration.clientAttestation
        let attesters = try! ClientAttesters(configuration: settings)
        return ClientAuthenticator(
            clients: configuration.clients,
            attestations: ClientAttestationCheck(attesters: attesters, issuer: ClientAttestationMaker.issuer, settings: settings),
            usedProofs: store, now: { ClientAttestationMaker.now })
    }

    func formRequest(_ attestation: String?, _ proof: String?, body: [String: String] = [:], authorization: String? = nil) -> (OAuthFormRequest, FormParameters) {
        let form = FormParameters(body.sorted { $0.key < $1.key }.map { FormParameters.Pair($0.key, $0.value) })
        let presentation = ClientAttestationPresentation(
            attestations: attestation.map { [$0] } ?? [], proofs: proof.map { [$0] } ?? [])
        return (OAuthFormRequest(body: form.encoded, authorization: authorization, attestation: presentation), form)
    }

    /// The error code, or nil when the client was authenticated.
    func code(
        _ attestation: String?, _ proof: String?, body: [String: String] = [:], authorization: String? = nil,
        with authenticator: ClientAuthenticator? = nil
    ) async -> String? {
        let (request, form) = formRequest(attestation, proof, body: body, authorization: authorization)
        do throws(OAuthError) {
            _ = try await (authenticator ?? self.authenticator()).authenticate(request, form: form)
            return nil
        } catch {
            return error.code.rawValue
        }
    }

    /// §7.5: a public native app with a good attestation is authenticated as `attest_jwt_client_auth`.
    @Test func aGoodAttestationAuthenticatesAPublicClient() async throws {
        let (request, form) = formRequest(maker.attestation(), maker.proof(), body: ["client_id": "attested-app"])
        let client = try await authenticator().authenticate(request, form: form)
        #expect(client.id == "attested-app")
        #expect(client.method == "attest_jwt_client_auth")
        #expect(client.attestation?.attester == "https://attester.example")
        #expect(client.client.public)
    }

    /// §7.1: a client without a secret is authenticated by its attestation alone; `iss` and `kid` are optional.
    @Test func aClientWithoutSecretAuthenticatesWithItsAttestationAlone() async {
        #expect(await code(maker.attestation(sub: "attested-service", iss: nil, kid: nil), maker.proof()) == nil)
    }

    /// §5.1 and §7.2 on the draft's own example: its PoP verifies with its attestation's `cnf` key.
    @Test func theDraftsPoPVerifiesWithTheDraftsCnfKey() throws {
        let attestation = try ClientAttestationJWT(parsing: ClientAttestationParsingFixtures.attestation)
        let proof = try ClientAttestationPoP(parsing: ClientAttestationParsingFixtures.proof)
        let key = try DPoPProofKey(attestation.claims.confirmationKey, algorithm: proof.algorithm)
        #expect(key.verifies(proof.signature, over: proof.signingInput))
        #expect(!key.verifies(attestation.signature, over: attestation.signingInput))
    }

    /// §4 and §7.1: expired, or issued longer ago than `maxAttestationAgeSeconds` (30 days by default).
    @Test func aStaleAttestationIsUseFreshAttestation() async {
        let now = ClientAttestationMaker.now
        #expect(await code(maker.attestation(exp: now.addingTimeInterval(-61)), maker.proof()) == "use_fresh_attestation")
        #expect(await code(maker.attestation(exp: now.addingTimeInterval(-30)), maker.proof()) == nil)  // within clock skew
        #expect(await code(maker.attestation(iat: now.addingTimeInterval(-31 * 86400)), maker.proof()) == "use_fresh_attestation")
    }

    /// §7.1: signed by a trusted attester's key, the one `iss` and `kid` name.
    @Test func anAttestationNotSignedByATrustedAttesterIsRefused() async {
        #expect(await code(maker.attestation(signer: P256.Signing.PrivateKey()), maker.proof()) == "invalid_client_attestation")
        #expect(await code(maker.attestation(iss: "https://other.example"), maker.proof()) == "invalid_client_attestation")
        #expect(await code(maker.attestation(kid: "a2"), maker.proof()) == "invalid_client_attestation")
    }

    /// §7.2: signed by the `cnf` key, for this server's issuer, fresh; `iss` (when sent) the attested client.
    @Test func aPoPThatIsNotTheInstancesOwnFreshProofIsRefused() async {
        let now = ClientAttestationMaker.now
        let attestation = maker.attestation()
        #expect(await code(attestation, maker.proof(signer: P256.Signing.PrivateKey())) == "invalid_client_attestation")
        #expect(await code(attestation, maker.proof(aud: "https://other-as.example")) == "invalid_client_attestation")
        #expect(await code(attestation, maker.proof(iat: now.addingTimeInterval(-301))) == "invalid_client_attestation")
        #expect(await code(attestation, maker.proof(iat: now.addingTimeInterval(301))) == "invalid_client_attestation")
        #expect(await code(attestation, maker.proof(iss: "native-app")) == "invalid_client_attestation")
        #expect(await code(attestation, maker.proof(iss: "attested-app")) == nil)
        #expect(await code(attestation, nil) == "invalid_client_attestation")
        #expect(await code(nil, maker.proof()) == "invalid_client_attestation")
    }

    /// RFC 7515 §4.1.11: an attestation or a PoP naming a critical extension is rejected (this server understands
    /// none); an empty or malformed `crit` too.
    @Test func anAttestationOrPoPWithCritIsRefused() async {
        for crit: Any in [["urn:example:ext"], [String](), "urn:example:ext"] {
            #expect(await code(maker.attestation(extraHeader: ["crit": crit]), maker.proof()) == "invalid_client_attestation")
            #expect(await code(maker.attestation(), maker.proof(extraHeader: ["crit": crit])) == "invalid_client_attestation")
        }
    }

    /// RFC 7519 §4.1.5: a PoP or an attestation whose `nbf` is ahead beyond the leeway (60 s) MUST NOT be accepted;
    /// §4.1.4: nor a PoP whose `exp` has passed.
    @Test func aPoPOrAttestationNotValidYetIsRefused() async {
        let now = ClientAttestationMaker.now.timeIntervalSince1970
        let attestation = maker.attestation()
        #expect(await code(attestation, maker.proof(extraClaims: ["nbf": Int(now + 3600)])) == "invalid_client_attestation")
        #expect(await code(attestation, maker.proof(extraClaims: ["exp": Int(now - 3600)])) == "invalid_client_attestation")
        #expect(await code(attestation, maker.proof(extraClaims: ["nbf": Int(now + 30)])) == nil)
        #expect(await code(maker.attestation(extraClaims: ["nbf": Int(now + 3600)]), maker.proof()) == "invalid_client_attestation")
    }

    /// §7.5: a `client_id` in the body is the attestation's `sub`; `sub` must name a client of this server.
    @Test func theAttestedClientIsTheOneTheRequestNames() async {
        #expect(await code(maker.attestation(), maker.proof(), body: ["client_id": "native-app"]) == "invalid_client_attestation")
        #expect(await code(maker.attestation(sub: "nobody"), maker.proof()) == "invalid_client")
    }

    /// §9.8 leaves the trust in an attester to the deployment: an attester scoped with `clients` vouches for those
    /// clients only; an unscoped one for clients without a secret, never for a confidential client.
    @Test func anAttesterVouchesOnlyForTheClientsInItsScope() async throws {
        let confidential = """
            id: host-backend
            secretHash: sha256:6e15e3912e04b1b7a42a4b562c390a7054a80b3092cc2283c9e74dd9eada34b7
            redirectUris: [https://backend.example/cb]
            grants: [client_credentials]
            """
        func authenticator(_ attesters: String) throws -> ClientAuthenticator {
            let configuration = try ConfigurationBuilder(Self.yaml(attesters: attesters)).addingClient(confidential).configuration
            let settings = configuration.clientAttestation
            return ClientAuthenticator(
                clients: configuration.clients,
                attestations: ClientAttestationCheck(
                    attesters: try ClientAttesters(configuration: settings), issuer: ClientAttestationMaker.issuer,
                    settings: settings),
                usedProofs: MemoryProofStore(), now: { ClientAttestationMaker.now })
        }
        let unscoped = try authenticator(maker.attestersYAML)
        #expect(await code(maker.attestation(sub: "host-backend"), maker.proof(), with: unscoped) == "invalid_client_attestation")
        #expect(await code(maker.attestation(sub: "native-app"), maker.proof(), with: unscoped) == nil)
        let scoped = try authenticator(maker.attestersYAML + "\n      clients: [attested-app]")
        #expect(await code(maker.attestation(sub: "attested-app"), maker.proof(), with: scoped) == nil)
        #expect(await code(maker.attestation(sub: "native-app"), maker.proof(), with: scoped) == "invalid_client_attestation")
        #expect(await code(maker.attestation(sub: "attested-service"), maker.proof(), with: scoped) == "invalid_client_attestation")
        #expect(await code(maker.attestation(sub: "host-backend"), maker.proof(), with: scoped) == "invalid_client_attestation")
        // Named explicitly, a confidential client may be attested: the deployment said so.
        let named = try authenticator(maker.attestersYAML + "\n      clients: [host-backend]")
        #expect(await code(maker.attestation(sub: "host-backend"), maker.proof(), with: named) == nil)
    }

    /// §11.1: a PoP is good for one request, at every instance sharing the store.
    @Test func aReplayedPoPIsRefusedAndAStoreOutageIsNoPass() async {
        let authenticator = authenticator()
        let attestation = maker.attestation()
        let proof = maker.proof()
        #expect(await code(attestation, proof, with: authenticator) == nil)
        #expect(await code(attestation, proof, with: authenticator) == "invalid_client_attestation")
        #expect(await code(attestation, maker.proof(), with: authenticator) == nil)
        #expect(await code(maker.attestation(), maker.proof(), with: self.authenticator(store: MemoryProofStore(failing: true)))
            == "temporarily_unavailable")
    }

    /// The same key and `jti` as a DPoP proof and as a PoP are two different single-use records.
    @Test func attestationPoPsAndDPoPProofsDoNotShareDigests() {
        let dpop = DPoPProofUse(keyThumbprint: "k", proofID: "j", expiresAt: ClientAttestationMaker.now)
        let pop = DPoPProofUse(clientAttestationKey: "k", proofID: "j", expiresAt: ClientAttestationMaker.now)
        #expect(dpop.digest != pop.digest)
    }

    /// RFC 6749 §2.3: one method per request; a client with `attestation.required` has no other.
    @Test func otherMethodsBesideOrInsteadOfAnAttestationAreRefused() async {
        #expect(await code(maker.attestation(), maker.proof(), body: ["client_secret": "x"]) == "invalid_request")
        #expect(await code(maker.attestation(), maker.proof(), authorization: "Basic YTpi") == "invalid_request")
        #expect(await code(nil, nil, body: ["client_id": "attested-app"]) == "invalid_client")
        #expect(await code(nil, nil, body: ["client_id": "native-app"]) == nil)
        let (twice, form) = formRequest(nil, nil)
        var doubled = twice
        doubled.attestation = ClientAttestationPresentation(
            attestations: [maker.attestation(), maker.attestation()], proofs: [maker.proof()])
        do throws(OAuthError) {
            _ = try await authenticator().authenticate(doubled, form: form)
            Issue.record("two attestation headers were accepted")
        } catch {
            #expect(error.code == .invalidClientAttestation)
        }
    }

    /// With no attester configured the headers are ignored, as any header the server does not implement.
    @Test func withoutAttestersTheHeadersChangeNothing() async throws {
        let configuration = try ConfigurationLoader(environment: [:]).load(yaml: """
            issuer: https://as.example
            clients: [{id: native-app, public: true, redirectUris: ["com.example.native:/cb"], grants: [authorization_code]}]
            """).configuration
        let plain = ClientAuthenticator(
            clients: configuration.clients,
            attestations: ClientAttestationCheck(
                attesters: ClientAttesters(attesters: []), issuer: "https://as.example", settings: configuration.clientAttestation),
            usedProofs: MemoryProofStore())
        #expect(await code(maker.attestation(), maker.proof(), body: ["client_id": "native-app"], with: plain) == nil)
        #expect(AuthorizationServerMetadata(configuration: configuration).token_endpoint_auth_methods_supported?
            .contains("attest_jwt_client_auth") == false)
        #expect(AuthorizationServerMetadata(configuration: configuration).client_attestation_signing_alg_values_supported == nil)
    }

    /// §8: advertised at every endpoint that authenticates clients, once an attester is configured.
    @Test func theMetadataAdvertisesTheMethodAndItsAlgorithms() {
        let metadata = AuthorizationServerMetadata(configuration: configuration)
        for methods in [
            metadata.token_endpoint_auth_methods_supported, metadata.revocation_endpoint_auth_methods_supported,
            metadata.introspection_endpoint_auth_methods_supported,
        ] {
            #expect(methods?.contains("attest_jwt_client_auth") == true)
        }
        #expect(metadata.client_attestation_signing_alg_values_supported?.contains("ES256") == true)
        #expect(metadata.client_attestation_pop_signing_alg_values_supported?.contains("ES256") == true)
    }
}

/// The draft's examples (§4, §5.1), shared with SignInProtocolTests' copy by value.
enum ClientAttestationParsingFixtures {
    static let attestation =
        "eyJ0eXAiOiJvYXV0aC1jbGllbnQtYXR0ZXN0YXRpb24rand0IiwiYWxnIjoiRVMyNTYiLCJraWQiOiIxMSJ9.eyJzdWIiOiJodHRwczovL2NsaWVudC5leGFtcGxlLmNvbSIsImlhdCI6MTc3MjQ4NzU5NSwiZXhwIjoyNTI5ODY2Mzk0LCJjbmYiOnsiandrIjp7Imt0eSI6IkVDIiwidXNlIjoic2lnIiwiY3J2IjoiUC0yNTYiLCJ4IjoiVmNLVk5CWjRJYUJBWVczanhNNHczVEpGVkE3bXllVUdReUd0LWdfeXZwUSIsInkiOiJmLUUtaFlFM1RBV0t3aFZ2OXBlajlOQUJzOVNYOVhzTk84MHg1N2pGVHlVIn19fQ._TS4d-LAnRlwdN97wiVnl4z7C9gvm45IWr-BvGTzeZaHtZtgNZ88gvzroU3LElUPbgF4kWi_DFORnKzsx5yu6A"
    static let proof =
        "eyJ0eXAiOiJvYXV0aC1jbGllbnQtYXR0ZXN0YXRpb24tcG9wK2p3dCIsImFsZyI6IkVTMjU2In0.eyJhdWQiOiJodHRwczovL2FzLmV4YW1wbGUuY29tIiwianRpIjoiZDI1ZDAwYWItNTUyYi00NmZjLWFlMTktOThmNDQwZjI1MDY0IiwiaWF0IjoxNzcyNDg3NTk1LCJjaGFsbGVuZ2UiOiI1YzFhOWUxMC0yOWZmLTRjMmItYWU3My01N2MwOTU3YzA5YzQifQ.M4Uc4rWVAqaLlmDDUXQKkKPbAQKj0JrTizLgWhZndmbkvM3VL8y-w_QJr7Z0HZlH94E64cLa8L5fSjJItYv0jg"
}
