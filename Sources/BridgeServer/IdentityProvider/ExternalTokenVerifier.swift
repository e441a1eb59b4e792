import Foundation
import SignInProtocol

/// Decides whether an access token of the host's provider may use the bootstrapper ("the host must verify that the
/// provided token is valid", Microsoft's "WOPI bootstrapper" page). A JWS: the header by `JOSEHeaderRules` with the
/// profile's `typ`s, the signature against the provider's JWKS, then `ExternalClaimsCheck` (RFC 9068 §4). Anything
/// else, with `introspection` configured: RFC 7662. UserInfo fills the names a token lacks. Verdicts are kept
/// (`ExternalIdentityCache`), so a token seen before is answered without I/O (`remembered`).
struct ExternalTokenVerifier: Sendable {
    let settings: IdentityProviderSettings
    let check: ExternalClaimsCheck
    let connection: IdentityProviderConnection
    let cache: ExternalIdentityCache
    let profile: IdentityProviderProfile

    /// Larger than any provider's access token (Entra's with group claims stay under 8 KiB).
    static let maxTokenBytes = 16 * 1024
    /// How long an `active: false` answer is kept (RFC 7662 §4 lets a resource server cache; a refusal briefly).
    static let inactiveCacheSeconds: TimeInterval = 5

    init(settings: IdentityProviderSettings, connection: IdentityProviderConnection, cache: ExternalIdentityCache = ExternalIdentityCache()) {
        self.settings = settings
        self.check = ExternalClaimsCheck(settings: settings)
        self.connection = connection
        self.cache = cache
        self.profile = check.profile
    }

    /// The identity of a token accepted before and still usable at `now`; nil otherwise. Nothing awaited.
    func remembered(_ token: String, at now: Date) -> ExternalIdentity? {
        guard case .accepted(let identity)? = cache.verdict(for: token, at: now), identity.usableUntil > now else { return nil }
        connection.events(.verdictKept)
        return identity
    }

    func identity(for token: String, at now: Date) async throws(ExternalTokenRejection) -> ExternalIdentity {
        switch cache.verdict(for: token, at: now) {
        case .accepted(let identity)?:
            connection.events(.verdictKept)
            return identity
        case .refused(let rejection)?:
            connection.events(.verdictKept)
            throw rejection
        case nil: connection.events(.verdictChecked)
        }
        guard token.utf8.count <= Self.maxTokenBytes else { throw .malformed("over \(Self.maxTokenBytes) bytes") }
        if let kid = try Self.jwsHeader(of: token, profile: profile) {
            return try await verifyJWT(token, kid: kid.value, at: now)
        }
        guard settings.introspection != nil else { throw .malformed("not a JWS, and introspection is not configured") }
        return try await introspect(token, at: now)
    }

    private func verifyJWT(_ token: String, kid: String?, at now: Date) async throws(ExternalTokenRejection) -> ExternalIdentity {
        // The audience is what keeps another client's token or an ID token out; without one no JWT is taken.
        guard settings.audience != nil else { throw .wrongAudience }
        try await connection.verifySignature(of: token, kid: kid)
        let claims: [String: ClaimValue]
        do {
            claims = try IDTokenCheck.claims(of: token)
        } catch {
            throw .malformed("the payload is not a JSON object")
        }
        let checked = try check.check(jwt: claims, at: now)
        let identity = await completed(checked, token: token)
        cache.keep(.accepted(identity), for: token, until: identity.usableUntil, at: now)
        return identity
    }

    private func introspect(_ token: String, at now: Date) async throws(ExternalTokenRejection) -> ExternalIdentity {
        let members = try await connection.introspect(token)
        let identity: ExternalIdentity
        do {
            let checked = try check.check(introspected: members, at: now)
            identity = await completed(checked, token: token)
        } catch {
            if error == .inactive {
                cache.keep(.refused(error), for: token, until: now.addingTimeInterval(Self.inactiveCacheSeconds), at: now)
            }
            throw error
        }
        // Kept `cacheSeconds` at most, never past the token's own end.
        let cacheSeconds = TimeInterval(settings.introspection?.cacheSeconds ?? 0)
        var kept = identity
        kept.usableUntil = min(identity.usableUntil, now.addingTimeInterval(cacheSeconds))
        cache.keep(.accepted(kept), for: token, until: kept.usableUntil, at: now)
        return kept
    }

    /// UserInfo for the names the token lacks, only for the token's own subject (OpenID Connect Core §5.3.2).
    private func completed(_ identity: ExternalIdentity, token: String) async -> ExternalIdentity {
        guard settings.userInfo, identity.signInName == nil || identity.friendlyName == nil,
            let subject = identity.subject, let info = await connection.userInfo(token), info["sub"]?.string == subject
        else { return identity }
        return check.completed(identity, with: info)
    }

    /// The `kid` of a compact JWS whose header passes `JOSEHeaderRules` with one of the profile's `typ`s (RFC 9068
    /// §2.1, RFC 8725 §3.11); nil when the token is not a JWS at all (an opaque token, for introspection).
    static func jwsHeader(of token: String, profile: IdentityProviderProfile) throws(ExternalTokenRejection) -> Kid? {
        // The one compact-JWT decoder (`CompactJWT`); a token it cannot read is not a JWS: an opaque token.
        guard let header = (try? CompactJWT(parsing: token))?.header else { return nil }
        let type: String?
        switch header["typ"] {
        case nil: type = nil
        case .string(let value)?: type = value
        default: throw .malformed("the header's typ is not a string")
        }
        guard profile.accepts(headerType: type) else { throw .wrongTokenType }
        do throws(JWTProblem) {
            try JOSEHeaderRules(type: type, section: "RFC 9068 section 2.1").check(header)
        } catch {
            throw .malformed("the header: \(error)")
        }
        guard case .string(let kid)? = header["kid"] else { return Kid(value: nil) }
        return Kid(value: kid)
    }

    /// A JWS header's `kid`, possibly absent.
    struct Kid: Sendable, Hashable {
        var value: String?
    }
}
