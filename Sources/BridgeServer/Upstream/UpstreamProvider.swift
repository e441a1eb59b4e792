import BridgeStore
import Foundation
import SignInProtocol

/// One configured upstream OpenID provider: its discovery document and keys, read at first use and kept; the
/// authorization request it is sent (code flow with PKCE, `state` and `nonce`, OpenID Connect Core §3.1.2.1) and
/// the token request and ID token validation of its callback (§3.1.3).
actor UpstreamProvider {
    let settings: BridgeConfiguration.Upstream
    let callbackURL: String
    let http: UpstreamHTTP
    let keys: RemoteKeySet
    private var cachedMetadata: Endpoints?

    init(settings: BridgeConfiguration.Upstream, callbackURL: String, http: UpstreamHTTP, keys: RemoteKeySet = RemoteKeySet()) {
        self.settings = settings
        self.callbackURL = callbackURL
        self.http = http
        self.keys = keys
    }

    /// The endpoints Discovery §3 marks REQUIRED, read from the provider's document at first use.
    struct Endpoints: Sendable, Hashable {
        var issuer: String
        var authorization: String
        var token: String
        var jwks: String
        var userinfo: String?
    }

    func metadata() async throws -> Endpoints {
        if let cachedMetadata { return cachedMetadata }
        let url = ProviderMetadata.discoveryURL(issuer: settings.issuer)
        let answer = try await http.get(url, timeout: settings.timeoutSeconds)
        guard answer.status == 200, let document = try? JSONDecoder().decode(ProviderMetadata.self, from: Data(answer.body))
        else { throw UpstreamFailure(.badResponse, "\(url) answered \(answer.status) without a discovery document") }
        // OpenID Connect Discovery 1.0 §4.3: the document's issuer must be the one we asked; else refuse it.
        guard document.issuer == settings.issuer else {
            throw UpstreamFailure(.issuerMismatch, "\(url) names issuer \(document.issuer.prefix(100))")
        }
        guard let authorization = document.authorizationEndpoint, let token = document.tokenEndpoint,
            let jwks = document.jwksURI
        else {
            throw UpstreamFailure(.badResponse, "\(url) lacks authorization_endpoint, token_endpoint or jwks_uri")
        }
        let endpoints = Endpoints(
            issuer: document.issuer, authorization: authorization, token: token, jwks: jwks,
            userinfo: document.userinfoEndpoint)
        cachedMetadata = endpoints
        return endpoints
    }

    /// Where to send the browser. `appToApp` adds `requested_flow=app_to_app` and `app_callback_uri` (Vipps Login API).
    func authorizationURL(for attempt: UpstreamAttempt, appToApp: Bool) async throws -> String {
        let (state, nonce, verifier) = (attempt.state.value, attempt.nonce.value, attempt.verifier)
        var query = FormParameters()
        query.append("response_type", "code")
        query.append("client_id", settings.clientId)
        query.append("redirect_uri", callbackURL)
        query.append("scope", settings.scopes.joined(separator: " "))
        query.append("state", state)
        query.append("nonce", nonce)
        query.append("code_challenge", verifier.challenge(method: .s256).value)
        query.append("code_challenge_method", "S256")
        if appToApp {
            query.append("requested_flow", "app_to_app")
            query.append("app_callback_uri", settings.appCallbackUri)
        }
        return query.appended(to: try await metadata().authorization)
    }

    /// Redeems the code (RFC 6749 §4.1.3 with the PKCE verifier), validates the ID token and reads UserInfo.
    func signIn(code: String, verifier: String, nonceDigest: TokenDigest, now: Date) async throws -> UpstreamUser {
        let metadata = try await metadata()
        var form = FormParameters()
        form.append("grant_type", "authorization_code")
        form.append("code", code)
        form.append("redirect_uri", callbackURL)
        form.append("code_verifier", verifier)
        if settings.clientSecret == nil { form.append("client_id", settings.clientId) }
        let answer = try await http.postForm(
            metadata.token, form, basic: settings.clientSecret.map { (settings.clientId, $0) },
            timeout: settings.timeoutSeconds)
        let tokens = try? JSONDecoder().decode(TokenAnswer.self, from: Data(answer.body))
        guard answer.status == 200, let tokens, let idToken = tokens.idToken else {
            let error = tokens?.error ?? "no id_token"
            throw UpstreamFailure(.tokenRefused, "token endpoint answered \(answer.status) (\(error.prefix(64)))")
        }
        var claims: [String: ClaimValue]
        let subject: String
        do {
            let header = try IDTokenCheck.header(of: idToken)
            let (http, jwksURI, timeout) = (self.http, metadata.jwks, settings.timeoutSeconds)
            try await Self.verifySignature(of: idToken, kid: header.kid, keys: keys) {
                let jwks = try await http.get(jwksURI, timeout: timeout)
                guard jwks.status == 200 else { throw UpstreamFailure(.badResponse, "\(jwksURI) answered \(jwks.status)") }
                return RemoteKeySet.Fetched(body: jwks.body, cacheControl: jwks.cacheControl)
            }
            claims = try IDTokenCheck.claims(of: idToken)
            subject = try IDTokenCheck(
                issuer: metadata.issuer, clientID: settings.clientId, nonceDigest: nonceDigest, now: now
            ).check(claims)
        } catch let problem as IDTokenProblem {
            throw UpstreamFailure(.idToken, problem.description)
        }
        if let endpoint = metadata.userinfo, let accessToken = tokens.accessToken {
            let info = try await http.get(endpoint, bearer: accessToken, timeout: settings.timeoutSeconds)
            guard info.status == 200, let userInfo = try? JSONDecoder().decode([String: ClaimValue].self, from: Data(info.body))
            else { throw UpstreamFailure(.userInfo, "UserInfo answered \(info.status)") }
            // OpenID Connect Core §5.3.2: a UserInfo answer for another subject must not be used.
            guard userInfo["sub"]?.string == subject else { throw UpstreamFailure(.userInfo, "UserInfo sub differs") }
            claims.merge(userInfo) { idTokenValue, _ in idTokenValue }
        }
        let names = settings.claims
        return UpstreamUser(
            subject: subject, name: claims[names.name]?.string, email: claims[names.email]?.string,
            emailVerified: claims[names.emailVerified]?.isTrue ?? false,
            phoneNumber: claims[names.phoneNumber]?.string)
    }

    /// The ID token's signature against the provider's keys: a key it does not have is the token's fault
    /// (`IDTokenProblem`), keys that cannot be fetched the provider's (`UpstreamFailure`).
    static func verifySignature(
        of idToken: String, kid: String?, keys: RemoteKeySet,
        fetch: @escaping @Sendable () async throws -> RemoteKeySet.Fetched
    ) async throws {
        do throws(RemoteKeySet.Problem) {
            try await keys.verify(idToken, kid: kid, fetch: fetch)
        } catch {
            switch error {
            case .unknownKey: throw IDTokenProblem.unknownKey
            case .badSignature: throw IDTokenProblem.badSignature
            case .unavailable(let why): throw UpstreamFailure(.unreachable, why)
            }
        }
    }

    struct TokenAnswer: Decodable {
        var idToken: String?
        var accessToken: String?
        var error: String?

        enum CodingKeys: String, CodingKey {
            case idToken = "id_token", accessToken = "access_token", error
        }
    }
}

/// The person the upstream signed in, with the claims the configuration maps to our user's fields.
struct UpstreamUser: Sendable, Hashable {
    var subject: String
    var name: String?
    var email: String?
    var emailVerified: Bool
    var phoneNumber: String?
}
