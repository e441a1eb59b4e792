import Foundation
import Testing
@testable import SignInProtocolCore

/// The two JWTs of draft-ietf-oauth-attestation-based-client-auth-11, parsed from the draft's own examples (§4,
/// §5.1 and §7.5, verbatim but for the line breaks) and from variants with one thing wrong.
@Suite struct ClientAttestationParsingTests {
    /// §4: the example `OAuth-Client-Attestation` value.
    static let draftAttestation =
        "eyJ0eXAiOiJvYXV0aC1jbGllbnQtYXR0ZXN0YXRpb24rand0IiwiYWxnIjoiRVMyNTYiLCJraWQiOiIxMSJ9.eyJzdWIiOiJodHRwczovL2NsaWVudC5leGFtcGxlLmNvbSIsImlhdCI6MTc3MjQ4NzU5NSwiZXhwIjoyNTI5ODY2Mzk0LCJjbmYiOnsiandrIjp7Imt0eSI6IkVDIiwidXNlIjoic2lnIiwiY3J2IjoiUC0yNTYiLCJ4IjoiVmNLVk5CWjRJYUJBWVczanhNNHczVEpGVkE3bXllVUdReUd0LWdfeXZwUSIsInkiOiJmLUUtaFlFM1RBV0t3aFZ2OXBlajlOQUJzOVNYOVhzTk84MHg1N2pGVHlVIn19fQ._TS4d-LAnRlwdN97wiVnl4z7C9gvm45IWr-BvGTzeZaHtZtgNZ88gvzroU3LElUPbgF4kWi_DFORnKzsx5yu6A"
    /// §5.1: the example `OAuth-Client-Attestation-PoP` value, signed by the attestation's `cnf` key.
    static let draftPoP =
        "eyJ0eXAiOiJvYXV0aC1jbGllbnQtYXR0ZXN0YXRpb24tcG9wK2p3dCIsImFsZyI6IkVTMjU2In0.eyJhdWQiOiJodHRwczovL2FzLmV4YW1wbGUuY29tIiwianRpIjoiZDI1ZDAwYWItNTUyYi00NmZjLWFlMTktOThmNDQwZjI1MDY0IiwiaWF0IjoxNzcyNDg3NTk1LCJjaGFsbGVuZ2UiOiI1YzFhOWUxMC0yOWZmLTRjMmItYWU3My01N2MwOTU3YzA5YzQifQ.M4Uc4rWVAqaLlmDDUXQKkKPbAQKj0JrTizLgWhZndmbkvM3VL8y-w_QJr7Z0HZlH94E64cLa8L5fSjJItYv0jg"

    static func jwt(header: [String: Any], claims: [String: Any], signature: String = "c2ln") -> String {
        func part(_ object: [String: Any]) -> String {
            Base64URL.encode(try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
        }
        return part(header) + "." + part(claims) + "." + signature
    }

    static var attestationHeader: [String: Any] { ["typ": "oauth-client-attestation+jwt", "alg": "ES256"] }
    static var attestationClaims: [String: Any] {
        ["sub": "app", "exp": 2_000_000_000, "cnf": ["jwk": ["kty": "EC", "crv": "P-256", "x": "eA", "y": "eQ"]]]
    }
    static var popHeader: [String: Any] { ["typ": "oauth-client-attestation-pop+jwt", "alg": "ES256"] }
    static var popClaims: [String: Any] { ["aud": "https://as.example", "jti": "j1", "iat": 1_800_000_000] }

    func attestationError(_ text: String, limit: InputLimit = ClientAttestationJWT.defaultLimit) -> ClientAttestationError? {
        do {
            _ = try ClientAttestationJWT(parsing: text, limit: limit)
            return nil
        } catch {
            return error
        }
    }

    func popError(_ text: String) -> ClientAttestationError? {
        do {
            _ = try ClientAttestationPoP(parsing: text)
            return nil
        } catch {
            return error
        }
    }

    @Test func theDraftsAttestationExampleParses() throws {
        let attestation = try ClientAttestationJWT(parsing: Self.draftAttestation)
        #expect(attestation.header.algorithm == "ES256")
        #expect(attestation.header.keyID == "11")
        #expect(attestation.claims.subject == "https://client.example.com")
        #expect(attestation.claims.issuer == nil)
        #expect(attestation.claims.issuedAt == 1_772_487_595)
        #expect(attestation.claims.expiresAt == 2_529_866_394)
        #expect(attestation.claims.confirmationKey["x"] == .string("VcKVNBZ4IaBAYW3jxM4w3TJFVA7myeUGQyGt-g_yvpQ"))
        #expect(attestation.signature.count == 64)
    }

    @Test func theDraftsPoPExampleParses() throws {
        let proof = try ClientAttestationPoP(parsing: Self.draftPoP)
        #expect(proof.algorithm == "ES256")
        #expect(proof.claims.audience == ["https://as.example.com"])
        #expect(proof.claims.id == "d25d00ab-552b-46fc-ae19-98f440f25064")
        #expect(proof.claims.issuedAt == 1_772_487_595)
        #expect(proof.claims.challenge == "5c1a9e10-29ff-4c2b-ae73-57c0957c09c4")
    }

    /// §4 and §5.1: each JWT has its own `typ`, so one can never pass for the other.
    @Test func eachJWTRefusesTheOthersType() {
        #expect(attestationError(Self.draftPoP) == ClientAttestationError(.attestation, .invalid(
            member: "typ", reason: "is not 'oauth-client-attestation+jwt' (section 4)")))
        #expect(popError(Self.draftAttestation) == ClientAttestationError(.proofOfPossession, .invalid(
            member: "typ", reason: "is not 'oauth-client-attestation-pop+jwt' (section 5.1)")))
    }

    /// §4: `sub`, `exp` and `cnf.jwk` are required.
    @Test(arguments: ["sub", "exp", "cnf"])
    func anAttestationWithoutARequiredClaimIsRefused(claim: String) {
        var claims = Self.attestationClaims
        claims.removeValue(forKey: claim)
        #expect(attestationError(Self.jwt(header: Self.attestationHeader, claims: claims))
            == ClientAttestationError(.attestation, .missing(member: claim)))
    }

    @Test func anAttestationWhoseCnfHasNoJWKIsRefused() {
        var claims = Self.attestationClaims
        claims["cnf"] = ["jkt": "abc"]
        #expect(attestationError(Self.jwt(header: Self.attestationHeader, claims: claims))
            == ClientAttestationError(.attestation, .missing(member: "cnf.jwk")))
    }

    /// §5.1: `aud`, `jti` and `iat` are required.
    @Test(arguments: ["aud", "jti", "iat"])
    func aPoPWithoutARequiredClaimIsRefused(claim: String) {
        var claims = Self.popClaims
        claims.removeValue(forKey: claim)
        #expect(popError(Self.jwt(header: Self.popHeader, claims: claims)) == ClientAttestationError(.proofOfPossession, .missing(member: claim)))
    }

    /// RFC 7519 §4.1.3: `aud` is a string or an array of strings.
    @Test func aPoPAudienceMayBeAnArrayOfStringsButNothingElse() throws {
        var claims = Self.popClaims
        claims["aud"] = ["https://a.example", "https://as.example"]
        let proof = try ClientAttestationPoP(parsing: Self.jwt(header: Self.popHeader, claims: claims))
        #expect(proof.claims.audience == ["https://a.example", "https://as.example"])
        claims["aud"] = 7
        #expect(popError(Self.jwt(header: Self.popHeader, claims: claims)) == ClientAttestationError(.proofOfPossession, .invalid(
            member: "aud", reason: "is not a string or an array of strings")))
    }

    @Test func brokenFormsAreNamedAsSuch() {
        #expect(attestationError("a.b") == ClientAttestationError(.attestation, .notCompactJWS))
        #expect(attestationError("!!.e30.c2ln") == ClientAttestationError(.attestation, .malformed(part: "header")))
        #expect(popError("e30.e30.***") == ClientAttestationError(.proofOfPossession, .malformed(part: "signature")))
    }

    @Test func anOversizedHeaderIsRefusedBeforeParsing() {
        let error = attestationError(String(repeating: "a", count: 65), limit: InputLimit(maxBytes: 64))
        #expect(error?.jwt == .attestation)
        guard case .tooLarge(let tooLarge)? = error?.problem else {
            Issue.record("expected tooLarge, got \(String(describing: error))")
            return
        }
        #expect(tooLarge.actual == 65)
        #expect(error?.description.hasPrefix("client attestation: OAuth-Client-Attestation is 65 bytes") == true)
    }

    @Test func descriptionsNameTheJWTAndTheMemberNeverTheValue() {
        let error = ClientAttestationError(.proofOfPossession, .invalid(member: "aud", reason: "is wrong"))
        #expect(error.description == "client attestation PoP 'aud' is wrong")
    }
}

/// The client's side: what an app signs for its PoP reads back as the server reads it.
@Suite struct ClientAttestationPoPMakingTests {
    @Test func aMadePoPParsesBackWithEveryClaim() throws {
        let input = ClientAttestationPoP.signingInput(
            audience: "https://as.example", id: "j-1", issuedAt: 1_800_000_000, challenge: "c-1")
        let proof = try ClientAttestationPoP(parsing: ClientAttestationPoP.compact(signingInput: input, signature: [1, 2, 3]))
        #expect(proof.algorithm == "ES256")
        #expect(proof.claims == ClientAttestationPoP.Claims(
            audience: ["https://as.example"], id: "j-1", issuedAt: 1_800_000_000, issuer: nil, expiresAt: nil, challenge: "c-1"))
        #expect(proof.signingInput == Array(input.utf8))
        #expect(proof.signature == [1, 2, 3])
    }

    @Test func withoutAChallengeThereIsNoChallengeClaim() throws {
        let input = ClientAttestationPoP.signingInput(audience: "https://as.example", id: "j-2", issuedAt: 1)
        let proof = try ClientAttestationPoP(parsing: ClientAttestationPoP.compact(signingInput: input, signature: [0]))
        #expect(proof.claims.challenge == nil)
    }
}
