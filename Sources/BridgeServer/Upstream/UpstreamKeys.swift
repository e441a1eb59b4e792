import Foundation
import JWTKit

/// An upstream provider's signing keys (its JWKS, RFC 7517), kept between sign-ins. A token whose `kid` is not
/// among them makes one fetch of the JWKS (the provider rotated its keys, OpenID Connect Core §10.1.1), at most
/// once per `minimumRefetch`, so tokens with made-up `kid`s cannot make us hammer the provider.
actor UpstreamKeys {
    private var collection = JWTKeyCollection()
    private var kids: Set<String> = []
    private var fetchedAt: ContinuousClock.Instant?
    let minimumRefetch: Duration

    init(minimumRefetch: Duration = .seconds(30)) {
        self.minimumRefetch = minimumRefetch
    }

    /// How often the JWKS was fetched (tests).
    private(set) var fetches = 0

    /// Verifies the token's signature; `fetch` gives the JWKS document when it must be (re)read.
    func verify(_ token: String, kid: String?, fetch: @Sendable () async throws -> [UInt8]) async throws {
        let known = kid.map { kids.contains($0) } ?? !kids.isEmpty
        if !known, fetchedAt.map({ ContinuousClock.now - $0 >= minimumRefetch }) ?? true {
            try await load(fetch())
        }
        if let kid, !kids.contains(kid) { throw IDTokenProblem.unknownKey }
        do {
            _ = try await collection.verify(token, as: SignatureOnly.self)
        } catch {
            throw IDTokenProblem.badSignature
        }
    }

    /// Replaces the keys with the JWKS `document`; keys without `kid` or of a type jwt-kit cannot use are skipped.
    private func load(_ document: [UInt8]) async throws {
        fetches += 1
        fetchedAt = ContinuousClock.now
        guard let jwks = try? JSONDecoder().decode(JWKS.self, from: Data(document)) else {
            throw UpstreamFailure(.badResponse, "the JWKS is not a JSON Web Key Set (RFC 7517 §5)")
        }
        let fresh = JWTKeyCollection()
        var freshKids = Set<String>()
        for key in jwks.keys {
            guard let kid = key.keyIdentifier?.string, (try? await fresh.add(jwk: key)) != nil else { continue }
            freshKids.insert(kid)
        }
        collection = fresh
        kids = freshKids
    }
}

/// The signature alone: jwt-kit verifies it, `IDTokenCheck` then checks the claims with the server's clock.
struct SignatureOnly: JWTPayload {
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
