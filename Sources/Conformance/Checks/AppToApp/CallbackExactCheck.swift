import SignInProtocol

/// Vipps Login API app-to-app: the provider's app sends the user to `app_callback_uri`, so it is matched like a
/// redirect URI, by exact string (RFC 9700 §4.1.3): a host that forgives a trailing `/`, a percent-encoding or a
/// change of case sends users (and their `state`) to a callback the merchant never registered.
struct CallbackExactCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "apptoapp.callback-exact", group: .apptoapp, level: .must, source: .rfc(9700, "§4.1.3", "Countermeasures: exact redirect URI matching"),
        summary: "requested_flow=app_to_app with the registered app_callback_uri plus '/', percent-encoded or in another case is refused")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let client = try session.options.required(.appToAppClient)
        let endpoints = try await session.endpoints().orSkip()
        let registered = try await AppToAppProbe.send(client.callbackURI, client: client, to: endpoints, in: session)
        if let refusal = registered.refusal { return .skip("the host does not accept requested_flow=app_to_app here (\(refusal))") }
        var accepted = [String]()
        for (what, variant) in AppToAppProbe.variants(of: client.callbackURI) {
            let probe = try await AppToAppProbe.send(variant, client: client, to: endpoints, in: session)
            if probe.refusal == nil { accepted.append("\(what) (\(variant)) answered \(probe.response.status)") }
        }
        return accepted.isEmpty ? .pass("'/', percent-encoding and case variants refused") : .fail("accepted: " + accepted.joined(separator: "; "))
    }
}

/// One `requested_flow=app_to_app` authorize request as the merchant's app sends it (PKCE, nonce, state), judged on
/// its first answer: an error redirect to the client or a 4xx is a refusal; anything else (the page that offers the
/// host's app, a sign-in) accepted it.
enum AppToAppProbe {
    struct Answer {
        var response: ObservedResponse
        var refusal: String?
    }

    static func variants(of callback: String) -> [(String, String)] {
        var variants = [("a trailing '/'", callback + "/")]
        if let letter = callback.lastIndex(where: { $0.isLetter }) {
            let hex = String(callback[letter].asciiValue ?? 0, radix: 16, uppercase: true)
            variants.append(("a letter percent-encoded", callback.replacingCharacters(in: letter...letter, with: "%" + hex)))
            variants.append(("a letter in the other case", callback.replacingCharacters(
                in: letter...letter, with: callback[letter].isUppercase ? callback[letter].lowercased() : callback[letter].uppercased())))
        }
        return variants
    }

    static func send(
        _ callback: String, client: ConformanceOptions.AppToAppClient, to endpoints: Endpoints, in session: ConformanceSession
    ) async throws(CheckSkipped) -> Answer {
        let state = AuthorizeRequestBuilder.newState()
        let fields = [
            ("client_id", client.id), ("response_type", "code"), ("redirect_uri", client.redirectURI), ("state", state),
            ("scope", "openid"), ("nonce", "conform-" + state), ("code_challenge", PKCE.Verifier.random().challenge(method: .s256).value),
            ("code_challenge_method", "S256"), ("requested_flow", "app_to_app"), ("app_callback_uri", callback),
        ]
        return try await send(fields, state: state, redirectURI: client.redirectURI, to: endpoints, in: session)
    }

    /// Any authorize request of the merchant's app, judged the same way.
    static func send(
        _ fields: [(String, String)], state: String, redirectURI: String, to endpoints: Endpoints, in session: ConformanceSession
    ) async throws(CheckSkipped) -> Answer {
        await session.http.clearCookies(of: .partnerApp)
        let response: ObservedResponse
        do {
            response = try await session.http.send(.init(url: URLParts.appending(fields, to: endpoints.authorization)), as: .partnerApp)
        } catch {
            throw CheckSkipped("the authorization endpoint did not answer: \(error)")
        }
        if (400..<500).contains(response.status) { return Answer(response: response, refusal: "\(response.status)") }
        if response.isRedirect, let location = response.value("Location"), URLParts.isRedirect(location, to: redirectURI) {
            let outcome = SignInOutcome(redirectedTo: location, sentState: state)
            return Answer(response: response, refusal: outcome.parameters["error"].map { "error=" + $0 })
        }
        return Answer(response: response, refusal: nil)
    }
}
