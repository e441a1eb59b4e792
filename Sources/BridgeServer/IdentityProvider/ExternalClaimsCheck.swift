import Foundation
import SignInProtocol

/// The person an external access token speaks for, in Office's words, and until when the token may be used.
public struct ExternalIdentity: Sendable, Hashable {
    public var userId: String
    public var signInName: String?
    public var friendlyName: String?
    /// `sub`, to match a UserInfo answer against (OpenID Connect Core §5.3.2).
    public var subject: String?
    /// The last moment the token is accepted (its `exp` plus the leeway, or an introspection answer's end).
    public var usableUntil: Date
}

/// The claim checks of an external access token after its signature was verified (RFC 9068 §4: issuer, audience,
/// times, scope), and the mapping of its claims to Office's user fields. Pure: the clock is passed in.
struct ExternalClaimsCheck: Sendable {
    var issuer: String
    /// nil: no `aud` is required (an introspected token, when none is configured).
    var audience: String?
    var profile: IdentityProviderProfile
    var requiredScope: String?
    var leeway: TimeInterval

    /// Longest claim value taken into Office's fields; `sub` is at most 255 ASCII characters (OpenID Connect Core §2).
    static let maxClaimBytes = 512

    init(settings: IdentityProviderSettings) {
        issuer = settings.issuer
        audience = settings.audience
        profile = IdentityProviderProfile.named(settings.profile).overridden(by: settings.claims)
        requiredScope = settings.requiredScope
        leeway = TimeInterval(settings.clockSkewSeconds)
    }

    /// A signed JWT's claims: every check applies, `exp` required.
    func check(jwt claims: [String: ClaimValue], at now: Date) throws(ExternalTokenRejection) -> ExternalIdentity {
        guard let audience else { throw .wrongAudience }
        return try check(claims, audience: audience, requireExpiry: true, at: now)
    }

    /// An active introspection answer's members (RFC 7662 §2.2): `iss`, `aud` and `exp` are optional there, and
    /// checked when present.
    func check(introspected claims: [String: ClaimValue], at now: Date) throws(ExternalTokenRejection) -> ExternalIdentity {
        guard claims["active"] == .bool(true) else { throw .inactive }
        let audience = claims["aud"] == nil ? nil : audience
        return try check(claims, audience: audience, requireExpiry: false, at: now, issuerOptional: true)
    }

    private func check(
        _ claims: [String: ClaimValue], audience: String?, requireExpiry: Bool, at now: Date, issuerOptional: Bool = false
    ) throws(ExternalTokenRejection) -> ExternalIdentity {
        if let iss = claims["iss"]?.string {
            guard profile.acceptsIssuer(iss, configured: issuer, tenant: claims["tid"]?.string) else { throw .wrongIssuer }
        } else if !issuerOptional {
            throw .wrongIssuer
        }
        if let audience { guard claims["aud"]?.strings?.contains(audience) == true else { throw .wrongAudience } }
        if let payloadType = profile.payloadType, let typ = claims["typ"] {
            guard typ.string == payloadType else { throw .wrongTokenType }
        }
        let times = JWTTimes(
            expiresAt: try Self.seconds(claims["exp"], "exp", required: requireExpiry),
            notBefore: try Self.seconds(claims["nbf"], "nbf", required: false),
            issuedAt: try Self.seconds(claims["iat"], "iat", required: false))
        do throws(JWTTimeProblem) {
            try JWTTimeRules(leeway: leeway).check(times, at: now)
        } catch {
            throw .time(error)
        }
        if let requiredScope, !Self.scopes(of: claims).contains(requiredScope) { throw .missingScope }
        var identity = try mapped(claims)
        identity.usableUntil = times.expiresAt.map { Date(timeIntervalSince1970: TimeInterval($0) + leeway) } ?? .distantFuture
        return identity
    }

    /// Office's user fields from the profile's claims (`usableUntil` is the caller's).
    func mapped(_ claims: [String: ClaimValue]) throws(ExternalTokenRejection) -> ExternalIdentity {
        var parts: [String] = []
        for name in profile.userId {
            guard let value = Self.text(claims[name]) else { throw .missingClaim(name) }
            parts.append(value)
        }
        return ExternalIdentity(
            userId: parts.joined(separator: ":"), signInName: first(profile.signInName, in: claims),
            friendlyName: first(profile.friendlyName, in: claims), subject: Self.text(claims["sub"]),
            usableUntil: .distantFuture)
    }

    /// Fills the names the token lacked from a UserInfo answer.
    func completed(_ identity: ExternalIdentity, with userInfo: [String: ClaimValue]) -> ExternalIdentity {
        var identity = identity
        identity.signInName = identity.signInName ?? first(profile.signInName, in: userInfo)
        identity.friendlyName = identity.friendlyName ?? first(profile.friendlyName, in: userInfo)
        return identity
    }

    private func first(_ names: [String], in claims: [String: ClaimValue]) -> String? {
        names.lazy.compactMap { Self.text(claims[$0]) }.first
    }

    static func text(_ value: ClaimValue?) -> String? {
        guard let string = value?.string, !string.isEmpty, string.utf8.count <= maxClaimBytes else { return nil }
        return string
    }

    /// `scope` is space-separated (RFC 9068 §2.2.3, RFC 8693 §4.2); Entra's `scp` is a space-separated string, and
    /// some providers send it as an array.
    static func scopes(of claims: [String: ClaimValue]) -> Set<String> {
        var scopes = Set<String>()
        for name in ["scope", "scp"] {
            switch claims[name] {
            case .string(let value)?: scopes.formUnion(value.split(separator: " ").map(String.init))
            case .strings(let values)?: scopes.formUnion(values)
            default: break
            }
        }
        return scopes
    }

    private static func seconds(_ value: ClaimValue?, _ name: String, required: Bool) throws(ExternalTokenRejection) -> Int64? {
        guard let value else {
            if required { throw .malformed("no \(name)") }
            return nil
        }
        guard let number = value.number, number.isFinite, abs(number) < 1e15 else { throw .malformed("\(name) is not a number") }
        return Int64(number)
    }
}
