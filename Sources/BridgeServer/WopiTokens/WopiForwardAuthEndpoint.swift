import BridgeStore
import Foundation
import SignInProtocol

/// What a reverse proxy forwards to the WOPI host with a request it let through.
struct WopiForwardAuthAnswer: Sendable, Hashable {
    /// The bootstrap's `UserId` and `SignInName` (Microsoft's "WOPI bootstrapper" page).
    var userID: String
    var signInName: String
    /// As `AccessTokenInfo.AccessTokenExpiry`: whole milliseconds since the epoch.
    var tokenExpiry: Int64
    var clientID: String
    var wopiSource: String
}

/// The check behind a reverse proxy's sub-request (nginx `auth_request`, Traefik ForwardAuth, Envoy `ext_authz`):
/// the original request names a file under a configured WopiSrc prefix, and carries a WOPI access token
/// (`access_token` in its query, Microsoft's "Access tokens" page, or `Authorization: Bearer`) that this server sealed
/// for that file, unexpired, whose grant is active. Refusals follow RFC 6750 §3.1: 400 `invalid_request` for a
/// request this cannot judge, 401 `invalid_token`, 403 `insufficient_scope` for another file's token, 503 when the
/// store cannot be asked; never a pass by default.
struct WopiForwardAuthEndpoint: Sendable {
    static let path = "/wopi/auth"
    /// Every operation of the WOPI REST API is a GET or a POST (Microsoft's "WOPI REST API reference").
    static let methods: Set<String> = ["GET", "POST"]

    let verifier: WopiAccessTokenVerifier
    let wopiSources: WopiSourcePrefixes
    /// `limits.maxHeaderValueBytes`: the original URI and the token are header values.
    let maxHeaderBytes: Int
    let now: @Sendable () -> Date
    /// The checks passed a moment ago, for `rememberedAnswer` (`WopiForwardAuthPipeline`).
    let passes: RememberedForwardAuthPasses

    init(
        verifier: WopiAccessTokenVerifier, wopiSources: WopiSourcePrefixes, maxHeaderBytes: Int, statusMaxAge: TimeInterval,
        now: @escaping @Sendable () -> Date
    ) {
        self.verifier = verifier
        self.wopiSources = wopiSources
        self.maxHeaderBytes = maxHeaderBytes
        self.now = now
        self.passes = RememberedForwardAuthPasses(maxAge: statusMaxAge)
    }

    /// `remember`: keep a pass for `rememberedAnswer`; the route sets it for a sub-request to exactly `path`, the
    /// only one the pipeline answers, so a remembered pass stands for the request the route saw.
    func check(_ request: ForwardedWopiRequest, remember: Bool = false) async throws(BearerRefusal) -> WopiForwardAuthAnswer {
        // Read before the store is asked, so that a change committed meanwhile makes the pass stale (RecentAnswers).
        let changeCounter = verifier.store.changeCounter
        let time = now()
        let verified = try await verdict(request, at: time)
        if remember { passes.keep(verified, for: request, changeCounter: changeCounter, at: time) }
        return verified.answer
    }

    /// The answer `check` gave this very request a moment ago, while it still holds at `now`: the token unexpired, and
    /// its grant's status still the verifier's kept one (`WopiAccessTokenVerifier.keptActiveGrant`), so a revocation
    /// takes effect within `tokens.statusCacheMilliseconds` (at once through this server) as on the route. nil: ask
    /// `check`.
    func rememberedAnswer(to request: ForwardedWopiRequest, at now: Date) -> WopiForwardAuthAnswer? {
        let changeCounter = verifier.store.changeCounter
        guard let pass = passes.value(for: request, changeCounter: changeCounter, at: now), pass.expiresAt > now,
            let (grant, user) = verifier.keptActiveGrant(pass.grantID, changeCounter: changeCounter, at: now)
        else { return nil }
        return WopiForwardAuthAnswer(
            userID: user.id, signInName: user.signInName, tokenExpiry: Milliseconds.from(pass.expiresAt),
            clientID: grant.clientID, wopiSource: pass.wopiSource)
    }

    private func verdict(
        _ request: ForwardedWopiRequest, at time: Date
    ) async throws(BearerRefusal) -> (answer: WopiForwardAuthAnswer, grantID: GrantID) {
        if let field = request.repeatedField { throw Self.badRequest("\(field) was sent more than once") }
        guard let uri = request.originalURI else {
            throw Self.badRequest("no original URI: send X-Original-URI (nginx) or X-Forwarded-Uri (Traefik)")
        }
        guard uri.utf8.count <= maxHeaderBytes else {
            throw Self.badRequest("the original URI is over \(maxHeaderBytes) bytes")
        }
        guard Self.methods.contains(request.method) else {
            throw Self.badRequest("the original method is not GET or POST, the WOPI REST API's methods")
        }
        let path = uri.prefix { $0 != "?" }
        guard path.hasPrefix("/"),
            let wopiSource = wopiSources.fileSource(path: path, forwardedHost: request.forwardedHost)
        else {
            throw Self.badRequest("the original URI names no file under a configured WOPI source prefix")
        }
        let token = try self.token(query: uri.dropFirst(path.count + 1), authorization: request.authorization)
        let verified: WopiAccessTokenVerifier.Verified
        do {
            verified = try await verifier.verify(token, for: wopiSource, at: time)
        } catch {
            throw Self.refusal(error)
        }
        // An ecosystem or root container token is for no one file: Office asks for a file's own token
        // (GET_NEW_ACCESS_TOKEN, Microsoft's "Ecosystem operations" page) before it calls the file's endpoints.
        guard verified.claims.wopiSource != nil else {
            throw .insufficientScope("the token is for no one file; a file's token comes from GET_NEW_ACCESS_TOKEN")
        }
        let answer = WopiForwardAuthAnswer(
            userID: verified.user.id, signInName: verified.user.signInName,
            tokenExpiry: Milliseconds.from(verified.claims.expiresAt), clientID: verified.grant.clientID,
            wopiSource: wopiSource)
        return (answer, verified.grant.id)
    }

    /// The one token of the request: `access_token` in the query, the Bearer credential, or both when equal (Office
    /// for the web sends both, Microsoft's FAQ "access token header and url"); two different ones are refused, as
    /// RFC 6750 §2 allows one method per request.
    private func token(query: Substring, authorization: String?) throws(BearerRefusal) -> String {
        let parameters: FormParameters
        do {
            parameters = try FormParameters.decode(
                query, plusAsSpace: false, limit: InputLimit(maxBytes: maxHeaderBytes), what: "the original URI's query")
        } catch {
            throw Self.badRequest("the original URI's query is malformed")
        }
        let inQuery = parameters.values(for: "access_token")
        guard inQuery.count <= 1 else { throw Self.badRequest("access_token appears more than once") }
        let inHeader = BearerCredential(authorization: authorization, maxBytes: maxHeaderBytes)?.token
        switch (inQuery.first, inHeader) {
        case (nil, nil): throw .noCredential
        case (let query?, let header?) where query != header:
            throw Self.badRequest("two different access tokens, in the query and in Authorization (RFC 6750 section 2)")
        case (let query?, _): return query
        case (nil, let header?): return header
        }
    }

    private static func badRequest(_ reason: String) -> BearerRefusal { .request(.invalidRequest(reason)) }

    /// Another file's token is refused as RFC 6750 §3.1 refuses a token without the scope the resource needs.
    private static func refusal(_ rejection: WopiAccessTokenVerifier.Rejection) -> BearerRefusal {
        rejection.bearerRefusal ?? .insufficientScope("the WOPI access token is for another file")
    }
}
