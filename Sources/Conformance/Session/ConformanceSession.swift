import Foundation
import SignInProtocol

/// The host under test and what the run learned of it so far. Steps several checks need (the challenge, Office's
/// sign-in, the token redemption) run once and are remembered; checks run one after another, so the memo needs no
/// locking beyond the actor.
public actor ConformanceSession {
    public let options: ConformanceOptions
    public let http: ConformanceHTTP

    private var unauthenticated: Result<ObservedResponse, StepFailure>?
    private var signIn: Result<SignInOutcome, StepFailure>?
    private var tokens: Result<TokenExchange, StepFailure>?
    private var metadataResult: Result<[String: JSONValue], StepFailure>?
    /// Experiments two checks read (code reuse, refresh rotation): done once, so `--manual` asks for fewer sign-ins.
    private var experiments: [String: any Sendable] = [:]

    /// Prints a progress line before a long step ("signing in as Office…").
    nonisolated let announce: @Sendable (String) -> Void

    public init(options: ConformanceOptions, http: ConformanceHTTP, announce: @escaping @Sendable (String) -> Void = { _ in }) {
        self.options = options
        self.http = http
        self.announce = announce
    }

    // MARK: The challenge

    /// `GET <bootstrap-url>` with no credential, as Office's first request.
    public func unauthenticatedBootstrap() async -> Result<ObservedResponse, StepFailure> {
        if let unauthenticated { return unauthenticated }
        guard let bootstrapURL = options.bootstrapURL else { return .failure(StepFailure(Self.noBootstrapper)) }
        let result: Result<ObservedResponse, StepFailure>
        do {
            result = .success(try await http.send(.init(url: bootstrapURL), as: .office))
        } catch {
            result = .failure(StepFailure("the bootstrapper did not answer: \(error)"))
        }
        unauthenticated = result
        return result
    }

    static let noBootstrapper = "no bootstrap URL: the host was named by --issuer"

    /// The `WWW-Authenticate` values of the unauthenticated `401`.
    public func challengeHeaderValues() async -> Result<[String], StepFailure> {
        await unauthenticatedBootstrap().challengeValues
    }

    // MARK: Office's sign-in and tokens

    /// Office's authorize request and the sign-in, ending at the redirect URI.
    public func officeSignIn() async -> Result<SignInOutcome, StepFailure> {
        if let signIn { return signIn }
        guard let office = options.office else { return .failure(StepFailure("needs --client-id and --redirect-uri")) }
        let result: Result<SignInOutcome, StepFailure>
        switch await endpoints() {
        case .failure(let failure): result = .failure(failure)
        case .success(let endpoints):
            let request = AuthorizeRequestBuilder.office(
                authorizationURI: endpoints.authorization, clientID: office.id, redirectURI: office.redirectURI,
                extra: officeScope)
            result = await SignInDriver(session: self, party: .browser).signIn(request, redirectURI: office.redirectURI)
        }
        signIn = result
        return result
    }

    /// The code of Office's sign-in redeemed at the token endpoint (`tk` when the host sent one).
    public func officeTokens() async -> Result<TokenExchange, StepFailure> {
        if let tokens { return tokens }
        let result: Result<TokenExchange, StepFailure>
        switch await officeSignIn() {
        case .failure(let failure): result = .failure(failure)
        case .success(let outcome):
            if let code = outcome.code {
                result = await redeemOfficeCode(code, signIn: outcome)
            } else {
                result = .failure(StepFailure("the redirect carried no code"))
            }
        }
        tokens = result
        return result
    }

    /// Where Office redeems codes: `tk` from the redirect, else the challenge's `tokenIssuance_uri`.
    public func officeTokenEndpoint(signIn: SignInOutcome? = nil) async -> String? {
        if let tk = signIn?.parameters["tk"], !tk.isEmpty {
            // Office's client secret goes wherever tk points, so only to an endpoint that may carry it (RFC 6749 §3.2).
            guard endpointProblem(tk) == nil else { return nil }
            return tk
        }
        return await endpoints().value?.token
    }

    /// A token request as Office's confidential client, with `X-WOPI-SessionContext` when the redirect had `sc`.
    public func officeTokenRequest(
        _ fields: [(String, String)], signIn: SignInOutcome? = nil, as party: Party = .office
    ) async -> Result<TokenExchange, StepFailure> {
        guard let office = options.office else { return .failure(StepFailure("needs --client-id")) }
        guard let endpoint = await officeTokenEndpoint(signIn: signIn) else {
            return .failure(StepFailure("no token endpoint the client secret may be sent to (see challenge.endpoints, authorize.tk-sc)"))
        }
        var headers = [(name: String, value: String)]()
        if let sc = signIn?.parameters["sc"] { headers.append((name: "X-WOPI-SessionContext", value: sc)) }
        let body = fields + [("client_id", office.id), ("client_secret", office.secret)]
        do {
            let response = try await http.send(.form(endpoint, body, headers: headers), as: party)
            return .success(TokenExchange(response: response))
        } catch {
            return .failure(StepFailure("the token endpoint did not answer: \(error)", unanswered: true))
        }
    }

    public func redeemOfficeCode(
        _ code: String, signIn: SignInOutcome, as party: Party = .office, extra: [(String, String)] = []
    ) async -> Result<TokenExchange, StepFailure> {
        guard let office = options.office else { return .failure(StepFailure("needs --client-id")) }
        return await officeTokenRequest(
            [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", office.redirectURI)] + extra,
            signIn: signIn, as: party)
    }

    /// `scope` for Office's request: none, as Office sends none, unless `--scope` asked for one.
    nonisolated var officeScope: [(String, String)] { options.scope.map { [("scope", $0)] } ?? [] }

    /// A fresh Office sign-in whose code is not redeemed yet. Not tried when the first sign-in failed: its check
    /// reports why, and a retry would only wait for the same failure.
    public func freshOfficeSignIn(extra: [(String, String)] = []) async -> Result<SignInOutcome, StepFailure> {
        guard let office = options.office else { return .failure(StepFailure("needs --client-id and --redirect-uri")) }
        if case .failure(let failure) = await officeSignIn() {
            return .failure(StepFailure("authorize.sign-in failed: \(failure.reason)"))
        }
        let endpoints: Endpoints
        switch await self.endpoints() {
        case .success(let found): endpoints = found
        case .failure(let failure): return .failure(failure)
        }
        let request = AuthorizeRequestBuilder.office(
            authorizationURI: endpoints.authorization, clientID: office.id, redirectURI: office.redirectURI,
            extra: officeScope + extra)
        return await SignInDriver(session: self, party: .browser).signIn(request, redirectURI: office.redirectURI)
    }

    /// A fresh Office sign-in and redemption, for checks that spend their tokens (rotation, reuse).
    public func freshOfficeTokens() async -> Result<(SignInOutcome, TokenExchange), StepFailure> {
        let outcome: SignInOutcome
        switch await freshOfficeSignIn() {
        case .failure(let failure): return .failure(failure)
        case .success(let value): outcome = value
        }
        guard let code = outcome.code else { return .failure(StepFailure("the redirect carried no code")) }
        switch await redeemOfficeCode(code, signIn: outcome) {
        case .failure(let failure): return .failure(failure)
        case .success(let exchange):
            guard exchange.response.status == 200, exchange.accessToken != nil else {
                return .failure(StepFailure("the code redemption answered \(exchange.response.status)"))
            }
            return .success((outcome, exchange))
        }
    }

    /// Calls the bootstrapper with `Authorization: Bearer <token>` (or the raw `authorization` value).
    public func bootstrap(
        authorization: String?, operation: String? = nil, wopiSrc: String? = nil, as party: Party = .office
    ) async -> Result<ObservedResponse, StepFailure> {
        await resource(authorizations: authorization.map { [$0] } ?? [], operation: operation, wopiSrc: wopiSrc, as: party)
    }

    /// The protected resource (the bootstrapper, or userinfo for a host named by `--issuer`) with any number of
    /// `Authorization` lines and an optional query.
    public func resource(
        authorizations: [String], query: [(String, String)] = [], operation: String? = nil, wopiSrc: String? = nil,
        as party: Party = .office
    ) async -> Result<ObservedResponse, StepFailure> {
        let url: String
        switch await protectedResourceURL() {
        case .success(let found): url = URLParts.appending(query, to: found)
        case .failure(let failure): return .failure(failure)
        }
        var headers = authorizations.map { (name: "Authorization", value: $0) }
        if let operation { headers.append((name: EcosystemOperation.headerName, value: operation)) }
        if let wopiSrc { headers.append((name: "X-WOPI-WopiSrc", value: wopiSrc)) }
        let request = ConformanceHTTP.Request(
            method: operation == nil ? "GET" : "POST", url: url, headers: headers, body: operation == nil ? nil : "")
        do {
            return .success(try await http.send(request, as: party))
        } catch {
            return .failure(StepFailure("the bootstrapper did not answer: \(error)"))
        }
    }

    /// The value `make` produced the first time `key` was asked for.
    func remembered<T: Sendable>(_ key: String, _ make: @Sendable () async -> T) async -> T {
        if let value = experiments[key] as? T { return value }
        let value = await make()
        experiments[key] = value
        return value
    }

    // MARK: Metadata

    /// RFC 8414 §3.1: `/.well-known/oauth-authorization-server` at the issuer's origin with the issuer's path after it
    /// (`--issuer`, or the issuer found by following the challenge, `issuer()`; else the authorization endpoint's origin).
    public func metadata() async -> Result<[String: JSONValue], StepFailure> {
        if let metadataResult { return metadataResult }
        let result: Result<[String: JSONValue], StepFailure>
        let endpoints = await endpoints().value
        let issuer = await issuer().value ?? endpoints.flatMap { URLParts.origin($0.authorization) }
        let issuerPath = issuer.flatMap { URLComponents(string: $0)?.path }.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 } ?? ""
        if endpoints != nil, let issuer, let origin = URLParts.origin(issuer) {
            let url = origin + "/.well-known/oauth-authorization-server" + issuerPath
            do {
                let response = try await http.send(.init(url: url), as: .office)
                if response.status != 200 {
                    result = .failure(StepFailure("\(url) answered \(response.status)"))
                } else if let object = JSONObject.parse(response.body) {
                    result = .success(object)
                } else {
                    result = .failure(StepFailure("\(url) is not a JSON object"))
                }
            } catch {
                result = .failure(StepFailure("\(url) did not answer: \(error)"))
            }
        } else {
            result = .failure(StepFailure("the challenge did not parse"))
        }
        metadataResult = result
        return result
    }
}

extension Result where Success == ObservedResponse, Failure == StepFailure {
    /// The `WWW-Authenticate` values of a `401`; a failure for any other status.
    var challengeValues: Result<[String], StepFailure> {
        flatMap { response in
            guard response.status == 401 else {
                return .failure(StepFailure("expected 401 without a token, got \(response.status)"))
            }
            let values = response.values("WWW-Authenticate")
            guard !values.isEmpty else { return .failure(StepFailure("the 401 has no WWW-Authenticate")) }
            return .success(values)
        }
    }
}
