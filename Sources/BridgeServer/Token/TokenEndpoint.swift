import BridgeStore
import Foundation
import Logging
import SignInProtocol

/// What a token-endpoint-style request carries, already pulled out of HTTP.
struct OAuthFormRequest: Sendable {
    /// The `application/x-www-form-urlencoded` body.
    var body: String
    var authorization: String?
    var sessionContext: String?
    /// The request's `DPoP` header and what its proof is checked against (RFC 9449 §4.3).
    var dpop: DPoPPresentation? = nil
    /// The request's `OAuth-Client-Attestation` and `OAuth-Client-Attestation-PoP` fields.
    var attestation: ClientAttestationPresentation? = nil
}

/// The token endpoint (RFC 6749 §3.2) as a pipeline of named steps: decode the form, authenticate the client, check
/// the grant type, then hand over to the grant's `GrantHandler` from `GrantRegistry`. Every failure is an
/// `OAuthError`; rendering is `OAuthHTTPResponse`'s job.
struct TokenEndpoint: Sendable {
    let authenticator: ClientAuthenticator
    let grants: GrantRegistry
    let dpop: DPoPProofs
    let now: @Sendable () -> Date

    /// `grants` are what the grant handlers and the token response's contributors use (`BridgeServices` builds them).
    init(
        authenticator: ClientAuthenticator, grants: GrantDependencies, dpop: DPoPProofs,
        now: @escaping @Sendable () -> Date
    ) {
        self.authenticator = authenticator
        self.grants = GrantRegistry(grants)
        self.dpop = dpop
        self.now = now
    }

    func respond(to request: OAuthFormRequest) async throws(OAuthError) -> TokenResponse {
        var (handler, grantRequest) = try await authenticated(request)
        grantRequest.proof = try await dpop.proof(request.dpop, client: grantRequest.client, at: grantRequest.now)
        return try await handler.respond(to: grantRequest)
    }

    /// The form decoded and the client authenticated (the attestation PoP's replay step is a store call), then
    /// `prepare`; its own frame, so that `respond`'s keeps only what the grant needs.
    @inline(never)
    func authenticated(_ request: OAuthFormRequest) async throws(OAuthError) -> (any GrantHandler, GrantRequest) {
        let form = try OAuthForm.decode(request.body)
        let client = try await authenticator.authenticate(request, form: form)
        return try prepare(request, form: form, client: client)
    }

    /// Everything before the grant's store call, outside `respond`: an async function's frame holds every temporary
    /// of its body while the request runs, and a connection keeps its deepest frames while it is open (2,640 bytes
    /// when this was inlined there).
    @inline(never)
    func prepare(
        _ request: OAuthFormRequest, form: FormParameters, client: AuthenticatedClient
    ) throws(OAuthError) -> (any GrantHandler, GrantRequest) {
        try CheckGrantTypeAllowed.check(form["grant_type"], for: client.client)
        let tokenRequest: TokenRequest
        do {
            tokenRequest = try TokenRequest.decode(form, authorization: request.authorization)
        } catch {
            throw error.oauthError
        }
        let sessionContext = try CheckSessionContext.check(request.sessionContext)
        guard let handler = grants.handler(for: tokenRequest.grant.grantType) else {
            // Unreachable after CheckGrantTypeAllowed, which reads the same registry.
            throw OAuthError(.unsupportedGrantType, description: "grant_type is not supported")
        }
        return (handler, GrantRequest(token: tokenRequest, client: client, sessionContext: sessionContext, now: now()))
    }
}

/// Decoding of form bodies for the token, revocation and introspection endpoints.
enum OAuthForm {
    static func decode(_ body: String) throws(OAuthError) -> FormParameters {
        do {
            return try FormParameters.decode(body, limit: .default, what: "request body")
        } catch {
            throw OAuthError(.invalidRequest, description: "\(error)")
        }
    }

    /// What revocation (RFC 7009 §2.1) and introspection (RFC 7662 §2.1) start from: the form, the client that
    /// authenticated as at the token endpoint, and the one `token` it asks about.
    static func tokenQuestion(
        _ request: OAuthFormRequest, authenticator: ClientAuthenticator
    ) async throws(OAuthError) -> (form: FormParameters, client: AuthenticatedClient, token: String) {
        let form = try decode(request.body)
        let client = try await authenticator.authenticate(request, form: form)
        return (form, client, try singleToken(in: form))
    }

    /// The one non-empty `token` parameter that revocation (RFC 7009 §2.1) and introspection (RFC 7662 §2.1) take.
    static func singleToken(in form: FormParameters) throws(OAuthError) -> String {
        if form.values(for: "token").count > 1 {
            throw OAuthError(.invalidRequest, description: "parameter 'token' appears more than once")
        }
        guard let token = form["token"], !token.isEmpty else {
            throw OAuthError(.invalidRequest, description: "required parameter 'token' is missing")
        }
        return token
    }
}
