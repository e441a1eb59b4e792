import BridgeStore
import Foundation
import SignInProtocol

/// Pushed authorization requests (RFC 9126): `POST /oauth2/par` takes the authorization request's parameters from
/// an authenticated client (as the token endpoint authenticates it), runs every authorize check on them now, and
/// answers 201 with a `request_uri` (§2.2); the authorization endpoint then takes that `request_uri` with
/// `client_id` (§4), once, for that client, before it expires.
struct PushedAuthorizationEndpoint: Sendable {
    static let path = "/oauth2/par"
    /// RFC 9126 §2.2: a URN of this form, with an unguessable part.
    static let requestURIPrefix = "urn:ietf:params:oauth:request_uri:"

    let authenticator: ClientAuthenticator
    /// A `DPoP` header is checked as at the token endpoint, and binds the code to its key (RFC 9449 §10.1).
    let dpop: DPoPProofs
    let pipeline: AuthorizePipeline
    let store: any PushedAuthorizationStore
    let configuration: BridgeConfiguration
    let now: @Sendable () -> Date

    /// The 201 body (RFC 9126 §2.2).
    struct Pushed: Encodable, Sendable, Equatable {
        var request_uri: String
        var expires_in: Int
    }

    func respond(to request: OAuthFormRequest) async throws(OAuthError) -> Pushed {
        var form = try OAuthForm.decode(request.body)
        let client = try await authenticator.authenticate(request, form: form).client
        let proof = try await dpop.presentedProof(request.dpop, at: now())
        // RFC 9449 §10.1: the proof's key is the code's `dpop_jkt` when the client sent none.
        if let key = try DPoPBinding.codeKey(named: form.values(for: "dpop_jkt"), proofKey: proof?.thumbprint), form["dpop_jkt"] == nil {
            form.append("dpop_jkt", key)
        }
        let parameters = try checked(form, from: client)
        return try await push(parameters, clientID: client.id)
    }

    /// Stores checked `parameters` for `clientID` under a new `request_uri` (also the authorization challenge
    /// endpoint's `redirect_to_web`, draft-ietf-oauth-first-party-apps-04 §5.2.2.1.1).
    func push(_ parameters: FormParameters, clientID: String) async throws(OAuthError) -> Pushed {
        let secret = SecretToken()
        let now = now()
        let lifetime = configuration.authorize.pushedRequestLifetimeSeconds
        let record = PushedAuthorizationRecord(
            digest: secret.digest, clientID: clientID, parameters: parameters.encoded, pushedAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(lifetime)))
        try await storeCall { try await store.pushAuthorizationRequest(record) }
        return Pushed(request_uri: Self.requestURIPrefix + secret.value, expires_in: lifetime)
    }

    /// The parameters as the authorization endpoint will read them once every check passed: the errors the
    /// authorization endpoint would send to the client come back here as RFC 6749 §5.2 errors (§2.3).
    func checked(_ form: FormParameters, from client: BridgeConfiguration.Client) throws(OAuthError) -> FormParameters {
        // RFC 9126 §2.1: "The request_uri authorization request parameter is one exception, and it MUST NOT be provided."
        guard form["request_uri"] == nil else {
            throw .invalidRequest("request_uri must not be pushed")
        }
        guard form["client_id"] == nil || form["client_id"] == client.id else {
            throw .invalidRequest("client_id is not the authenticated client")
        }
        var parameters = form
        parameters.removeAll(named: "client_secret")
        if parameters["client_id"] == nil { parameters.append("client_id", client.id) }
        switch pipeline.evaluate(parameters) {
        case .showError(let error), .redirectError(_, let error): throw error
        case .accepted: return parameters
        }
    }

    /// The pushed parameters behind `requestURI` for `clientID`, taken (RFC 9126 §4: single use, bound to the client
    /// that pushed them, before they expire), or `invalid_request_uri`.
    func take(requestURI: String, clientID: String?) async throws -> Result<FormParameters, OAuthError> {
        guard requestURI.hasPrefix(Self.requestURIPrefix),
            let secret = BrowserCookies.secret(String(requestURI.dropFirst(Self.requestURIPrefix.count)))
        else {
            return .failure(OAuthError(.invalidRequestURI, description: "request_uri is not one this server issued"))
        }
        guard let clientID = clientID.nonEmpty else {
            return .failure(.invalidRequest("client_id is required with request_uri"))
        }
        let time = now()
        let taking = try await callStore {
            try await store.takePushedAuthorizationRequest(TokenDigest(of: secret), clientID: clientID, at: time)
        }
        switch taking {
        case .taken(let record):
            guard let parameters = try? FormParameters.decode(record.parameters) else {
                return .failure(OAuthError(.invalidRequestURI, description: "request_uri is unknown"))
            }
            return .success(parameters)
        case .used: return .failure(OAuthError(.invalidRequestURI, description: "request_uri was used already"))
        case .expired: return .failure(OAuthError(.invalidRequestURI, description: "request_uri has expired"))
        case .unknown: return .failure(OAuthError(.invalidRequestURI, description: "request_uri is unknown"))
        }
    }

    /// RFC 9126 §5: `requirePushedAuthorizationRequests`, server-wide or for the client.
    func isRequired(for clientID: String?) -> Bool {
        configuration.authorize.requirePushedAuthorizationRequests
            || configuration.clients.contains { $0.id == clientID && $0.requirePushedAuthorizationRequests }
    }
}
