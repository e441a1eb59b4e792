import Foundation
import SignInProtocol

/// The suite in the seat of the host's own app for `requested_flow=app_to_app` (Vipps "Integrate from a mobile
/// app": the provider's app approves, then opens `app_callback_uri` with `resume_uri`). How a host's app approves
/// is the host's own API, so the suite needs `--app-to-app-decision-uri`; it posts there as SignInProtocol's
/// `AppToAppApproval` (the deep link's `reference`, `decision=approve`) with the first-party app's access token,
/// and reads the `AppToAppApprovalAnswer`.
enum HostAppApproval {
    /// What the approval gave the merchant's app, with the browser tab (`.partnerApp`'s cookies) still parked.
    struct Approved: Sendable {
        var resumeURI: String
        var state: String
    }

    /// The `reference` of the parked page's deep link: the first `reference=` in the page.
    static func reference(in page: String) -> String? {
        guard let range = page.range(of: #"[?&;]reference=[A-Za-z0-9._~%-]+"#, options: .regularExpression) else { return nil }
        let pair = page[range].dropFirst()
        return String(pair.dropFirst("reference=".count)).removingPercentEncoding
    }

    /// Parks a request in the merchant's browser tab, approves it as the host's app, and returns the `resume_uri`.
    static func approve(in session: ConformanceSession) async throws(CheckSkipped) -> Approved {
        let client = try session.options.required(.appToAppClient)
        let decisionURI = try session.options.required(.appToAppDecisionURI)
        if let problem = session.endpointProblem(decisionURI) { throw CheckSkipped("--app-to-app-decision-uri: \(problem)") }
        let token = try await hostAppToken(in: session)
        let endpoints = try await session.endpoints().orSkip()
        let parked = try await AppToAppProbe.send(client.callbackURI, client: client, to: endpoints, in: session)
        if let refusal = parked.refusal {
            throw CheckSkipped("the host does not accept requested_flow=app_to_app here (\(refusal))")
        }
        guard let reference = reference(in: parked.response.text) else {
            throw CheckSkipped("the parked page has no deep link with a reference")
        }
        let approval = AppToAppApproval(reference: reference, decision: .approve)
        let response: ObservedResponse
        do {
            response = try await session.http.send(
                .form(
                    decisionURI, approval.parameters.pairs.map { ($0.name, $0.value) },
                    headers: [(name: "Authorization", value: "Bearer " + token)]),
                as: .partnerApp)
        } catch {
            throw CheckSkipped("the decision endpoint did not answer: \(error)")
        }
        guard response.status == 200 else { throw CheckSkipped("the host's app could not approve: \(response.status)") }
        let callback: AppCallback
        do {
            callback = try AppToAppApprovalAnswer.decode(json: response.text).callback()
        } catch {
            throw CheckSkipped("the approval's answer is not an app callback: \(error)")
        }
        guard let resumeURI = callback.resumeURI else { throw CheckSkipped("the app callback carries no resume_uri") }
        return Approved(resumeURI: URLParts.resolve(resumeURI, against: decisionURI), state: callback.state)
    }

    /// The host's app's own access token: a password sign-in at the authorization challenge endpoint as
    /// `--first-party-client-id`, redeemed with its verifier.
    static func hostAppToken(in session: ConformanceSession) async throws(CheckSkipped) -> String {
        let target = try await FirstPartyApp.target(in: session)
        let verifier = PKCE.Verifier.random()
        let answer = try await FirstPartyApp.send(
            FirstPartyApp.initialFields(target, verifier: verifier, in: session) + FirstPartyApp.credentials(in: session),
            to: target, in: session)
        guard let code = answer.code else { throw CheckSkipped("the host's app could not sign in (\(answer.summary))") }
        let exchange = try await FirstPartyApp.redeem(code, verifier: verifier.value, target: target, in: session)
        guard let token = exchange.accessToken else {
            throw CheckSkipped("the host's app got no access token (\(exchange.summary))")
        }
        return token
    }
}
