import SignInProtocol

/// The first-party group's shared steps (OAuth 2.0 for First-Party Applications, draft-ietf-oauth-first-party-apps):
/// the authorization challenge endpoint the host advertises, challenge requests as the first-party app, and the
/// redemption of the code it answers at the token endpoint.
///
/// How a host asks for the user's credentials is its own (the draft's "intermediate requests" are out of its scope);
/// the suite sends RFC 6749 §4.3's `username` and `password` parameters, the form most hosts use for a password.
enum FirstPartyApp {
    /// The draft's citation for a section, linked on the IETF datatracker.
    static func draft(_ section: String, _ title: String) -> SourceCitation {
        SourceCitation(
            title: "OAuth 2.0 for First-Party Applications (draft-ietf-oauth-first-party-apps) \(section) (\(title))",
            url: "https://datatracker.ietf.org/doc/draft-ietf-oauth-first-party-apps/")
    }

    /// The endpoint and the client, or why the group cannot run.
    static func target(in session: ConformanceSession) async throws(CheckSkipped) -> FirstPartyTarget {
        let client = try session.options.required(.firstPartyClient)
        _ = try session.options.required(.user)
        for document in [await session.metadata().value, await session.discovery().value] {
            if let endpoint = document?["authorization_challenge_endpoint"]?.stringValue {
                if let problem = session.endpointProblem(endpoint) {
                    throw CheckSkipped("authorization_challenge_endpoint: \(problem)")
                }
                return FirstPartyTarget(endpoint: endpoint, client: client)
            }
        }
        throw CheckSkipped("the metadata has no authorization_challenge_endpoint: the host does not offer first-party sign-in")
    }

    /// The initial request's fields (draft §5.1): `response_type=code`, the client and an S256 challenge, as an app
    /// sends them (SignInProtocol's `AuthorizationChallengeRequest`). Checks that send a flawed request change these.
    static func initialFields(_ target: FirstPartyTarget, verifier: PKCE.Verifier, in session: ConformanceSession) -> [(String, String)] {
        pairs(
            AuthorizationChallengeRequest.initial(
                clientID: target.client.id, scope: session.options.scope, codeChallenge: verifier.challenge(method: .s256)))
    }

    /// The test user's credentials as the suite sends them (see the type's comment).
    static func credentials(in session: ConformanceSession, password: String? = nil) -> [(String, String)] {
        guard let user = session.options.user else { return [] }
        typealias Step = AuthorizationChallengeRequest.StepName
        return [(Step.username, user.username), (Step.password, password ?? user.password)]
    }

    private static func pairs(_ request: AuthorizationChallengeRequest) -> [(String, String)] {
        request.form.pairs.map { ($0.name, $0.value) }
    }

    /// One POST to the challenge endpoint, with the client's secret when it has one (draft §4.1: the same client
    /// authentication as at the token endpoint).
    static func send(
        _ fields: [(String, String)], to target: FirstPartyTarget, in session: ConformanceSession, as party: Party = .partnerApp
    ) async throws(CheckSkipped) -> AuthorizationChallengeAnswer {
        let secret = target.client.secret.map { [("client_secret", $0)] } ?? []
        do {
            return AuthorizationChallengeAnswer(response: try await session.http.send(.form(target.endpoint, fields + secret), as: party))
        } catch {
            throw CheckSkipped("the authorization challenge endpoint did not answer: \(error)")
        }
    }

    /// The password sign-in answered once per run with its verifier, remembered: `firstparty.code` judges it.
    static func passwordSignIn(in session: ConformanceSession) async throws(CheckSkipped) -> (answer: AuthorizationChallengeAnswer, verifier: PKCE.Verifier) {
        let target = try await target(in: session)
        let result: Result<PasswordSignIn, StepFailure> = await session.remembered("first-party-password") {
            let verifier = PKCE.Verifier.random()
            do throws(CheckSkipped) {
                let answer = try await send(initialFields(target, verifier: verifier, in: session) + credentials(in: session), to: target, in: session)
                return .success(PasswordSignIn(answer: answer, verifier: verifier))
            } catch {
                return .failure(StepFailure(error.reason))
            }
        }
        let found = try result.orSkip()
        return (found.answer, found.verifier)
    }

    /// RFC 6749 §4.1.3 without `redirect_uri` (draft §6: the challenge request had none).
    static func redeem(
        _ code: String, verifier: String, target: FirstPartyTarget, in session: ConformanceSession, as party: Party = .partnerApp
    ) async throws(CheckSkipped) -> TokenExchange {
        guard let endpoint = await session.endpoints().value?.token else { throw CheckSkipped("no token endpoint (see challenge.endpoints)") }
        var fields = [("grant_type", "authorization_code"), ("code", code), ("code_verifier", verifier), ("client_id", target.client.id)]
        if let secret = target.client.secret { fields.append(("client_secret", secret)) }
        do {
            return TokenExchange(response: try await session.http.send(.form(endpoint, fields), as: party))
        } catch {
            throw CheckSkipped("the token endpoint did not answer: \(error)")
        }
    }
}

/// Where the suite sends challenge requests, and as which client.
struct FirstPartyTarget: Sendable {
    var endpoint: String
    var client: ConformanceOptions.FirstPartyClient
}

struct PasswordSignIn: Sendable {
    var answer: AuthorizationChallengeAnswer
    var verifier: PKCE.Verifier
}

/// An authorization challenge endpoint's answer (draft §5.2): 200 with `authorization_code`, or an error.
struct AuthorizationChallengeAnswer: Sendable {
    var response: ObservedResponse
    var json: [String: JSONValue]? { JSONObject.parse(response.body) }
    var code: String? { response.status == 200 ? json?["authorization_code"]?.stringValue : nil }
    var error: String? { json?["error"]?.stringValue }
    var authSession: String? { json?["auth_session"]?.stringValue }
    var summary: String { "\(response.status)" + (error.map { " " + $0 } ?? "") }
}
