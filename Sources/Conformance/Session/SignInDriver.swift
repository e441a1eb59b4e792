/// Signs a user in as a browser would: loads the authorize URL, follows the host's redirects, fills the first form
/// that has a password field (hidden inputs kept), submits a consent form if one follows, and stops as soon as a
/// `Location` points at the redirect URI, which it never loads (Microsoft's Office app-to-app docs: Office stops
/// at `https://localhost`).
struct SignInDriver {
    let session: ConformanceSession
    let party: Party
    static let maxSteps = 12

    /// `alsoStopAt`: further URIs the driver must not load (the registered one, when probing with another).
    /// `person`: false for an attacker's probe, which is never shown to the person of `--manual`.
    func signIn(
        _ request: AuthorizeRequest, redirectURI: String, alsoStopAt: [String] = [], person: Bool = true
    ) async -> Result<SignInOutcome, StepFailure> {
        let options = session.options
        if person, let manual = options.manualSignIn {
            guard let final = await manual(request.url), !final.isEmpty else {
                return .failure(StepFailure("no redirected URL was entered"))
            }
            guard URLParts.isRedirect(final, to: redirectURI) else {
                return .failure(StepFailure("the URL entered is not the redirect URI \(redirectURI)"))
            }
            return .success(SignInOutcome(redirectedTo: final, sentState: request.state))
        }
        session.announce("signing in as \(party.rawValue) at \(URLParts.origin(request.url) ?? request.url)…")
        let user = options.user
        guard user != nil || !person else { return .failure(StepFailure("needs --username and --password (or --manual)")) }
        await session.http.clearCookies(of: party)
        return await follow(from: request.url, state: request.state, redirectURI: redirectURI, alsoStopAt: alsoStopAt)
    }

    /// The browser's walk from `start` with the cookies it has: redirects followed, the sign-in and consent forms
    /// submitted, until a `Location` points at the redirect URI (also where a link such as `resume_uri` leads).
    func follow(
        from start: String, state: String, redirectURI: String, alsoStopAt: [String] = []
    ) async -> Result<SignInOutcome, StepFailure> {
        let user = session.options.user
        var url = start
        var next = ConformanceHTTP.Request(url: url)
        var submittedPassword = false
        for _ in 0..<Self.maxSteps {
            let response: ObservedResponse
            do {
                response = try await session.http.send(next, as: party)
            } catch {
                return .failure(StepFailure("sign-in: \(error)", unanswered: true))
            }
            if response.isRedirect, let location = response.value("Location") {
                let target = URLParts.resolve(location, against: url)
                if ([redirectURI] + alsoStopAt).contains(where: { URLParts.isRedirect(target, to: $0) }) {
                    return .success(SignInOutcome(redirectedTo: target, sentState: state))
                }
                guard target.lowercased().hasPrefix("https://") || target.lowercased().hasPrefix("http://") else {
                    return .failure(StepFailure("sign-in redirected to \(SecretMask.maskURL(target)), not to the redirect URI"))
                }
                url = target
                next = .init(url: target)
                continue
            }
            guard response.status == 200 else {
                return .failure(StepFailure("sign-in: \(SecretMask.maskURL(url)) answered \(response.status)"))
            }
            let forms = HTMLForm.forms(in: response.text)
            let form: HTMLForm
            if let passwordForm = forms.first(where: \.hasPassword) {
                guard user != nil else {
                    return .failure(StepFailure("stopped at the sign-in form (no --username)", stoppedAtSignIn: true))
                }
                if submittedPassword {
                    return .failure(StepFailure("sign-in: the password form came back (wrong user or password?)"))
                }
                submittedPassword = true
                form = passwordForm
            } else if let consent = forms.first {
                form = consent
            } else {
                return .failure(StepFailure("sign-in: \(SecretMask.maskURL(url)) has no form to submit"))
            }
            let fields = form.fields(username: user?.username, password: user?.password)
            let action = URLParts.resolve(form.action ?? url, against: url)
            if form.method == "POST" {
                next = .form(action, fields)
            } else {
                next = .init(url: URLParts.appending(fields, to: action))
            }
            url = action
        }
        return .failure(StepFailure("sign-in: no redirect to the redirect URI after \(Self.maxSteps) requests"))
    }
}
