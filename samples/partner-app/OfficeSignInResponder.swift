import SignInProtocol

/// Answers Office's app-to-app sign-in request (Microsoft's app-to-app docs): reads what Office sent, checks it, lets the app sign
/// the user in, and builds the answer: a Back URL on iOS, result extras on Android.
///
/// Copy this type; it needs only `SignInProtocol`. Every failure after Office can be answered goes back to
/// Office in the RFC 6749 error form, so Office can tell the user instead of waiting.
struct OfficeSignInResponder: Sendable {
    /// The `client_id` Office uses with your service (agreed when you onboard with Microsoft).
    let officeClientID: String
    let accountSignIn: any AccountSignIn

    /// What to do with a URL the app was opened with.
    enum Reply: Sendable, Equatable {
        /// Open this Back URL (`UIApplication.shared.open`): it returns the user to Office.
        case openBackURL(String)
        /// Not an answerable Office request (no known Office app or no `action`): there is nowhere to return to.
        case ignore(reason: String)
    }

    // MARK: iOS: URL scheme

    /// iOS: call from `application(_:open:options:)` or `scene(_:openURLContexts:)` with `url.absoluteString`.
    func respond(toURL url: String) async -> Reply {
        let request: OfficeToURL
        do {
            request = try OfficeToURL(url: url)
        } catch {
            // Broken request: answer invalid_request if we can still tell which Office app and action to answer.
            guard let (app, action) = Self.appAndAction(in: url) else { return .ignore(reason: "\(error)") }
            let failure = OfficeSignInResult.failure(Self.failure(OAuthError(.invalidRequest, description: "\(error)")))
            return .openBackURL(OfficeBackURL(app: app, result: failure, action: action).url)
        }
        let result = await signIn(request.query, expectedUserId: nil).result
        guard let back = request.backURL(result) else {
            return .ignore(reason: "app '\(request.query.app ?? "")' is not an Office app this version knows")
        }
        return .openBackURL(back.url)
    }

    // MARK: Android: intent extras

    /// Android: call from your auth activity with the intent's string extras; then
    /// `setResult(response.resultCode.value, Intent().putExtras(response.extras()))` and `finish()`.
    func respond(toIntentExtras extras: [String: String]) async -> AndroidSignInIntent.Response {
        let request: AndroidSignInIntent.Request
        do {
            request = try AndroidSignInIntent.Request(extras: extras)
        } catch {
            let failure = Self.failure(OAuthError(.invalidRequest, description: "\(error)"))
            return AndroidSignInIntent.Response(result: .failure(failure), userId: nil)
        }
        let (result, userId) = await signIn(request.query, expectedUserId: request.userId)
        return AndroidSignInIntent.Response(result: result, userId: userId)
    }

    // MARK: The checks and the sign-in, shared by both platforms

    func signIn(_ query: OfficeAuthorizeQuery, expectedUserId: String?) async -> (result: OfficeSignInResult, userId: String?) {
        // Only Office's own client may get a code through this path (RFC 6749 §4.1.2.1 unauthorized_client).
        guard query.clientID == officeClientID else {
            return (.failure(Self.failure(OAuthError(.unauthorizedClient, description: "Unknown client_id"))), nil)
        }
        guard query.responseType == "code" else {
            return (.failure(Self.failure(OAuthError(.unsupportedResponseType, description: "Only response_type=code is supported"))), nil)
        }
        do {
            let signedIn = try await accountSignIn.signIn(for: query, expectedUserId: expectedUserId)
            let success = OfficeSignInResult.Success(
                code: signedIn.code, tokenEndpoint: signedIn.tokenEndpoint, sessionContext: signedIn.sessionContext)
            return (.success(success), signedIn.userId)
        } catch {
            return (.failure(Self.failure(error.oauthError)), nil)
        }
    }

    static func failure(_ error: OAuthError) -> OfficeSignInResult.Failure {
        OfficeSignInResult.Failure(error: error.code.rawValue, errorDescription: error.errorDescription, errorURI: error.errorURI)
    }

    /// `app` and `action` from a To URL that failed to decode as a whole, so the error can still reach Office.
    static func appAndAction(in url: String) -> (OfficeApp, String)? {
        guard let colon = url.firstIndex(of: ":") else { return nil }
        var query = url[url.index(after: colon)...]
        if query.hasPrefix("//") { query = query.dropFirst(2) }
        if query.hasPrefix("?") { query = query.dropFirst() }
        guard let form = try? FormParameters.decode(query, plusAsSpace: false),
            let app = form.value(forCaseInsensitive: "app").flatMap({ OfficeApp(appParameter: $0) }),
            let action = form.value(forCaseInsensitive: "action")
        else { return nil }
        return (app, action)
    }
}
