import Foundation

/// Pushed authorization requests (RFC 9126): a client posts its authorization request's parameters, gets a
/// `request_uri`, and sends the browser to the authorization endpoint with only that. Stored by the digest of the
/// `request_uri`'s random part, bound to the client that pushed it, short-lived and used once (§4 allows a reload
/// to reuse it; this server does not, so a leaked `request_uri` is worth nothing once the user has started).
public protocol PushedAuthorizationStore: Sendable {
    func pushAuthorizationRequest(_ request: PushedAuthorizationRecord) async throws

    /// Takes the request for `clientID` (one statement): `.taken` once, then `.used`; a request pushed by another
    /// client is `.unknown` to this one, so a `request_uri` cannot be tried across clients.
    func takePushedAuthorizationRequest(
        _ digest: TokenDigest, clientID: String, at now: Date
    ) async throws -> PushedAuthorizationTaking
}

public struct PushedAuthorizationRecord: Sendable, Hashable {
    public var digest: TokenDigest
    public var clientID: String
    /// The pushed parameters, form-encoded as they will be read at the authorization endpoint.
    public var parameters: String
    public var pushedAt: Date
    public var expiresAt: Date

    public init(digest: TokenDigest, clientID: String, parameters: String, pushedAt: Date, expiresAt: Date) {
        self.digest = digest
        self.clientID = clientID
        self.parameters = parameters
        self.pushedAt = pushedAt
        self.expiresAt = expiresAt
    }
}

public enum PushedAuthorizationTaking: Sendable, Hashable {
    case taken(PushedAuthorizationRecord)
    case used
    case expired
    case unknown
}
