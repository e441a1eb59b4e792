import SignInProtocol

/// The PAR group's shared steps (RFC 9126): the endpoint the host advertises, pushes as Office's confidential
/// client, and the authorize request that names a pushed one.
enum PushedAuthorization {
    /// The endpoint and the client that pushes to it, or why the group cannot run.
    static func target(in session: ConformanceSession) async throws(CheckSkipped) -> PARTarget {
        let office = try session.options.required(.office)
        for document in [await session.metadata().value, await session.discovery().value] {
            if let endpoint = document?["pushed_authorization_request_endpoint"]?.stringValue {
                if let problem = session.endpointProblem(endpoint) {
                    throw CheckSkipped("pushed_authorization_request_endpoint: \(problem)")
                }
                return PARTarget(endpoint: endpoint, office: office)
            }
        }
        throw CheckSkipped("the metadata has no pushed_authorization_request_endpoint: the host does not offer PAR (RFC 9126)")
    }

    /// Office's authorization request as form fields (RFC 6749 §4.1.1), `redirectURI` replacing the registered one.
    static func officeFields(
        _ target: PARTarget, in session: ConformanceSession, redirectURI: String? = nil
    ) -> (fields: [(String, String)], state: String) {
        let office = target.office
        let state = AuthorizeRequestBuilder.newState()
        return ([
            ("response_type", "code"), ("client_id", office.id), ("redirect_uri", redirectURI ?? office.redirectURI),
            ("state", state),
        ] + session.officeScope, state)
    }

    /// A push (RFC 9126 §2.1) with Office's client credentials in the body unless `authenticated` is false.
    static func push(
        _ fields: [(String, String)], to target: PARTarget, authenticated: Bool = true, in session: ConformanceSession,
        as party: Party = .office
    ) async throws(CheckSkipped) -> Pushed {
        let credentials = authenticated ? [("client_secret", target.office.secret)] : []
        do {
            return Pushed(response: try await session.http.send(.form(target.endpoint, fields + credentials), as: party))
        } catch {
            throw CheckSkipped("the PAR endpoint did not answer: \(error)")
        }
    }

    /// Office's request pushed once per run, remembered: `par.push` judges the answer, the others use it.
    static func officePush(in session: ConformanceSession) async throws(CheckSkipped) -> PushedRequest {
        let target = try await target(in: session)
        let result: Result<PushedRequest, StepFailure> = await session.remembered("par-office") {
            let (fields, state) = officeFields(target, in: session)
            do throws(CheckSkipped) {
                return .success(PushedRequest(pushed: try await push(fields, to: target, in: session), state: state))
            } catch {
                return .failure(StepFailure(error.reason))
            }
        }
        return try result.orSkip()
    }

    /// The remembered push's `request_uri` and state, for the checks that authorize with it.
    static func officeRequest(in session: ConformanceSession) async throws(CheckSkipped) -> (requestURI: String, state: String) {
        let found = try await officePush(in: session)
        guard let requestURI = found.pushed.requestURI else {
            throw CheckSkipped("the push answered \(found.pushed.summary) (see par.push)")
        }
        return (requestURI, found.state)
    }

    /// RFC 9126 §4: the authorize request names the pushed one by `client_id` and `request_uri` only; the browser
    /// signs in and the driver stops at Office's redirect URI or `alsoStopAt`. A failure is the host's refusal
    /// (an error page) unless it is `unanswered`.
    static func authorize(
        _ target: PARTarget, requestURI: String, clientID: String, state: String, alsoStopAt: [String] = [],
        in session: ConformanceSession, as party: Party = .browser
    ) async throws(CheckSkipped) -> Result<SignInOutcome, StepFailure> {
        let endpoints = try await session.endpoints().orSkip()
        let url = URLParts.appending([("client_id", clientID), ("request_uri", requestURI)], to: endpoints.authorization)
        let outcome = await SignInDriver(session: session, party: party).signIn(
            AuthorizeRequest(url: url, state: state), redirectURI: target.office.redirectURI, alsoStopAt: alsoStopAt)
        if case .failure(let failure) = outcome, failure.unanswered { throw CheckSkipped(failure.reason) }
        return outcome
    }
}

/// Where the suite pushes, and as whom.
struct PARTarget: Sendable {
    var endpoint: String
    var office: ConformanceOptions.ConfidentialClient
}

/// A PAR endpoint's answer (RFC 9126 §2.2, §2.3).
struct Pushed: Sendable {
    var response: ObservedResponse
    var json: [String: JSONValue]? { JSONObject.parse(response.body) }
    var requestURI: String? { response.status == 201 ? json?["request_uri"]?.stringValue : nil }
    var error: String? { json?["error"]?.stringValue }
    var summary: String { "\(response.status)" + (error.map { " " + $0 } ?? "") }
}

struct PushedRequest: Sendable {
    var pushed: Pushed
    var state: String
}
