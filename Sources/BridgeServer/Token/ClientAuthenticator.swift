import Foundation
import SignInProtocol

/// A client the token, revocation or introspection endpoint has authenticated.
struct AuthenticatedClient: Sendable, Hashable {
    let client: BridgeConfiguration.Client
    /// `client_secret_basic`, `client_secret_post` or `none` (RFC 8414 §2 names).
    let method: String

    var id: String { client.id }
}

/// Authenticates the client of a token-endpoint-style request (RFC 6749 §2.3): `client_secret_basic` or
/// `client_secret_post` for confidential clients, compared in constant time against the configured hash, and
/// `none` (just `client_id`) for public clients. Every failure is `invalid_client`, answered 401 with a Basic
/// challenge (RFC 6749 §5.2), except two methods in one request, which is `invalid_request`.
struct ClientAuthenticator: Sendable {
    let clients: [String: BridgeConfiguration.Client]
    /// Every configured secret of each confidential client (`secretHash` and `secrets`), with its expiry.
    let secrets: [String: [ClientSecretHash.Expiring]]
    let now: @Sendable () -> Date

    init(clients: [BridgeConfiguration.Client], now: @escaping @Sendable () -> Date = { Date() }) {
        var byID = [String: BridgeConfiguration.Client]()
        var secrets = [String: [ClientSecretHash.Expiring]]()
        for client in clients {
            byID[client.id] = client
            secrets[client.id] = client.allSecrets.compactMap { secret in
                ClientSecretHash(configured: secret.hash).map { .init(hash: $0, expiresAt: secret.expiryDate) }
            }
        }
        self.clients = byID
        self.secrets = secrets
        self.now = now
    }

    /// A hash of nothing in particular, compared against when the client is unknown so that both paths cost the same.
    private static let decoy = ClientSecretHash(configured: "sha256:" + String(repeating: "0", count: 64))!

    func authenticate(form: FormParameters, authorization: String?) throws(OAuthError) -> AuthenticatedClient {
        let hasHeader = !(authorization ?? "").isEmpty
        if hasHeader, form["client_secret"] != nil {
            // RFC 6749 §2.3: "MUST NOT use more than one authentication method in each request".
            throw OAuthError(.invalidRequest, description: "client credentials sent both in the Authorization header and in the body")
        }
        let presented: ClientAuthentication?
        do {
            presented = try ClientAuthentication.decode(form: form, authorization: authorization)
        } catch .invalidClientAuthentication(let reason) {
            throw OAuthError(.invalidClient, description: reason)
        } catch {
            throw error.oauthError
        }
        guard let presented else {
            throw OAuthError(.invalidClient, description: "client authentication is required (client_id, or HTTP Basic)")
        }
        guard let client = clients[presented.clientID] else {
            _ = Self.decoy.matches(presented.clientSecret ?? "")
            throw OAuthError(.invalidClient, description: "client authentication failed")
        }
        if client.public {
            // RFC 8252 §8.5: a native app cannot keep a secret; one sent anyway means a misconfigured client.
            guard presented.clientSecret == nil else {
                throw OAuthError(.invalidClient, description: "client '\(client.id)' is public and has no secret")
            }
            return AuthenticatedClient(client: client, method: "none")
        }
        guard let secret = presented.clientSecret,
            let matched = ClientSecretHash.Expiring.firstMatch(of: secret, in: secrets[client.id] ?? [])
        else {
            throw OAuthError(.invalidClient, description: "client authentication failed")
        }
        if let expiresAt = matched.expiresAt, expiresAt <= now() {
            // Said only to a caller who knows the secret, so the partner learns why it stopped working.
            throw OAuthError(.invalidClient, description: "the client secret has expired")
        }
        return AuthenticatedClient(client: client, method: presented.method.rawValue)
    }
}
