import Foundation

/// The time claims of a JWT (RFC 7519 §4.1.4–§4.1.6), in whole seconds, each optional; a decoder says which it
/// requires.
public struct JWTTimes: Sendable, Hashable {
    public var expiresAt: Int64?
    public var notBefore: Int64?
    public var issuedAt: Int64?

    public init(expiresAt: Int64? = nil, notBefore: Int64? = nil, issuedAt: Int64? = nil) {
        self.expiresAt = expiresAt
        self.notBefore = notBefore
        self.issuedAt = issuedAt
    }
}

/// Why a JWT's times refuse it now; each caller maps it to its protocol's error code.
public enum JWTTimeProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// `exp` has passed (RFC 7519 §4.1.4).
    case expired
    /// `nbf` is ahead (RFC 7519 §4.1.5).
    case notYetValid
    /// `iat` is ahead.
    case issuedInTheFuture
    /// `iat` is longer ago than the caller accepts.
    case issuedTooLongAgo

    public var description: String {
        switch self {
        case .expired: "'exp' has passed (RFC 7519 section 4.1.4)"
        case .notYetValid: "'nbf' is in the future (RFC 7519 section 4.1.5)"
        case .issuedInTheFuture: "'iat' is in the future"
        case .issuedTooLongAgo: "'iat' is outside the accepted window"
        }
    }
}

/// The one judgement of a JWT's time claims against the clock, with one leeway for every claim: `exp` and `nbf`
/// as RFC 7519 §4.1.4 and §4.1.5 say ("MUST NOT be accepted for processing"), `iat` neither ahead beyond the
/// leeway nor older than `maximumAge`.
public struct JWTTimeRules: Sendable, Hashable {
    /// How far the issuer's clock may be off ours, for every claim (RFC 7519 §4.1.4: "some small leeway").
    public var leeway: TimeInterval
    /// How long after `iat` the JWT is still accepted; nil: `iat` is not bounded in the past.
    public var maximumAge: TimeInterval?

    public init(leeway: TimeInterval, maximumAge: TimeInterval? = nil) {
        self.leeway = leeway
        self.maximumAge = maximumAge
    }

    public func check(_ times: JWTTimes, at now: Date) throws(JWTTimeProblem) {
        let seconds = now.timeIntervalSince1970
        if let expiresAt = times.expiresAt, TimeInterval(expiresAt) + leeway <= seconds { throw .expired }
        if let notBefore = times.notBefore, TimeInterval(notBefore) - leeway > seconds { throw .notYetValid }
        if let issuedAt = times.issuedAt {
            if TimeInterval(issuedAt) - leeway > seconds { throw .issuedInTheFuture }
            if let maximumAge, seconds - TimeInterval(issuedAt) > maximumAge { throw .issuedTooLongAgo }
        }
    }

    /// Until when a JWT issued at `issuedAt` passes `check` (its replay window, RFC 9449 §11.1).
    public func acceptedUntil(issuedAt: Int64) -> Date {
        Date(timeIntervalSince1970: TimeInterval(issuedAt) + (maximumAge ?? leeway))
    }
}
