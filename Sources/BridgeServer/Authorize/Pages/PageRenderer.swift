import Foundation
import HTTPTypes
import Hummingbird
import Mustache
import SignInProtocol

/// Renders the sign-in, consent, error and privacy pages and wraps them in a response with the page CSP.
struct PageRenderer: Sendable {
    let library: MustacheLibrary
    /// Shown above every page's heading.
    let serviceName: String
    let privacyURL: String

    init(serviceName: String, privacyURL: String) {
        var library = MustacheLibrary()
        do {
            try library.register(PageTemplates.head, named: "head")
            try library.register(PageTemplates.foot, named: "foot")
            try library.register(PageTemplates.signIn, named: "signin")
            try library.register(PageTemplates.consent, named: "consent")
            try library.register(PageTemplates.error, named: "error")
            try library.register(PageTemplates.privacy, named: "privacy")
            try library.register(PageTemplates.notice, named: "notice")
            try library.register(PageTemplates.parked, named: "parked")
            try library.register(PageTemplates.logoutConfirmation, named: "logout")
        } catch {
            fatalError("an embedded page template does not parse: \(error)")  // caught by every page test
        }
        self.library = library
        self.serviceName = serviceName
        self.privacyURL = privacyURL
    }

    struct SignInPage {
        var language: PageLanguage
        var clientName: String
        var action: String
        var csrfToken: String
        var userName: String = ""
        var error: String? = nil
        var formTarget: String?
        /// "Continue with …" links to upstream providers: (href, name).
        var upstreams: [(href: String, name: String)] = []
    }

    func signIn(_ page: SignInPage, status: HTTPResponse.Status = .ok) -> Response {
        let text = PageText.for(page.language)
        var values = common(text, page.language, title: text.signInTitle)
        values["lead"] = text.signInLead.filling("client", with: page.clientName)
        values["action"] = page.action
        values["csrfToken"] = page.csrfToken
        values["userName"] = page.userName
        // Focus the password when the name is already filled in (after a failed attempt).
        values["hasUserName"] = !page.userName.isEmpty
        values["error"] = page.error ?? false
        values["upstreams"] = page.upstreams.map { ["href": $0.href, "label": text.continueWith.filling("name", with: $0.name)] }
        return html("signin", values, status: status, formTarget: page.formTarget)
    }

    struct ParkedPage {
        var language: PageLanguage
        var clientName: String
        var deepLink: String
        var action: String
        var csrfToken: String
        var formTarget: String?
        /// Simple Login: approving in the app returns the user to the client's app, not to this page.
        var returnsDirectly = false
    }

    /// The app-to-app parked request: the deep link into the host's app, and the password form as a fallback.
    func parked(_ page: ParkedPage) -> Response {
        let text = PageText.for(page.language)
        var values = common(text, page.language, title: text.parkedTitle)
        values["lead"] = text.parkedLead.filling("client", with: page.clientName).filling("service", with: serviceName)
        values["openApp"] = text.openApp.filling("service", with: serviceName)
        values["hint"] = (page.returnsDirectly ? text.parkedHintDirect : text.parkedHint).filling("client", with: page.clientName)
        values["deepLink"] = page.deepLink
        values["action"] = page.action
        values["csrfToken"] = page.csrfToken
        return html("parked", values, status: .ok, formTarget: page.formTarget)
    }

    struct ConsentPage {
        var language: PageLanguage
        var clientName: String
        var userName: String
        var scopes: [String]
        var action: String
        var csrfToken: String
        var formTarget: String?
    }

    func consent(_ page: ConsentPage) -> Response {
        let text = PageText.for(page.language)
        var values = common(text, page.language, title: text.consentTitle)
        values["lead"] = text.consentLead.filling("client", with: page.clientName)
        values["scopes"] = page.scopes.map { text.scopes[$0] ?? $0 }
        values["signedInAs"] = text.signedInAs.filling("name", with: page.userName)
        values["action"] = page.action
        values["csrfToken"] = page.csrfToken
        return html("consent", values, status: .ok, formTarget: page.formTarget)
    }

    struct LogoutConfirmationPage {
        var language: PageLanguage
        var action: String
        var csrfToken: String
        /// The logout request's own parameters, posted back unchanged.
        var fields: [(name: String, value: String)]
        /// Where the post may redirect afterwards (`post_logout_redirect_uri`), for `form-action`.
        var formTarget: String?
    }

    func logoutConfirmation(_ page: LogoutConfirmationPage) -> Response {
        let text = PageText.for(page.language)
        var values = common(text, page.language, title: text.logoutConfirmTitle)
        values["lead"] = text.logoutConfirmLead.filling("service", with: serviceName)
        values["action"] = page.action
        values["csrfToken"] = page.csrfToken
        values["fields"] = page.fields.map { ["name": $0.name, "value": $0.value] }
        return html("logout", values, status: .ok, formTarget: page.formTarget)
    }

    /// A page for a request that cannot go back to the client (RFC 6749 §4.1.2.1), or a sign-in that cannot
    /// continue. `message` is for the person; the OAuth error, if any, for the developer.
    func error(
        _ language: PageLanguage, status: HTTPResponse.Status, message: (PageText) -> String, oauthError: OAuthError? = nil
    ) -> Response {
        let text = PageText.for(language)
        var values = common(text, language, title: text.errorTitle)
        values["message"] = message(text)
        values["code"] = oauthError?.code.rawValue ?? false
        values["description"] = oauthError?.errorDescription ?? false
        return html("error", values, status: status, formTarget: nil)
    }

    /// A page about an upstream provider (down, refused, cancelled), the provider's name filled in.
    func upstreamError(
        _ language: PageLanguage, status: HTTPResponse.Status, name: String, message: (PageText) -> String
    ) -> Response {
        let text = PageText.for(language)
        var values = common(text, language, title: text.errorTitle)
        values["message"] = message(text).filling("name", with: name)
        values["code"] = false
        values["description"] = false
        return html("error", values, status: status, formTarget: nil)
    }

    /// A page with a heading and one sentence, nothing to do on it.
    func notice(
        _ language: PageLanguage, status: HTTPResponse.Status = .ok, heading: (PageText) -> String,
        message: (PageText) -> String
    ) -> Response {
        let text = PageText.for(language)
        var values = common(text, language, title: heading(text))
        values["heading"] = heading(text)
        values["message"] = message(text)
        return html("notice", values, status: status, formTarget: nil)
    }

    func privacy(_ language: PageLanguage) -> Response {
        let text = PageText.for(language)
        return html("privacy", common(text, language, title: text.privacyTitle), status: .ok, formTarget: nil)
    }

    private func common(_ text: PageText, _ language: PageLanguage, title: String) -> [String: Any] {
        ["lang": language.rawValue, "title": title, "service": serviceName, "privacyURL": privacyURL, "text": text]
    }

    private func html(_ template: String, _ values: [String: Any], status: HTTPResponse.Status, formTarget: String?) -> Response {
        let body = library.render(values, withTemplate: template) ?? ""
        var headers: HTTPFields = [.contentType: "text/html; charset=utf-8"]
        headers[.contentSecurityPolicy] = Self.contentSecurityPolicy(formTarget: formTarget)
        headers[.contentLanguage] = (values["lang"] as? String) ?? PageLanguage.fallback.rawValue
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: body)))
    }

    /// Nothing but the page's own stylesheet; forms may post here and, because browsers apply `form-action` to the
    /// redirects that follow a submission too (CSP 3 §6.3.1), to the client's redirect URI.
    static func contentSecurityPolicy(formTarget: String?) -> String {
        var formAction = "'self'"
        if let formTarget { formAction += " " + formTarget }
        return "default-src 'none'; style-src \(PageStyle.hashSource); img-src 'self'; form-action \(formAction); "
            + "frame-ancestors 'none'; base-uri 'none'"
    }

    /// The CSP source expression that allows redirects to `redirectURI`: its origin for http(s), its scheme for a
    /// private-use scheme (RFC 8252 §7.1). Nil if the URI has characters a source expression cannot carry.
    static func formTarget(for redirectURI: String) -> String? {
        guard let colon = redirectURI.firstIndex(of: ":") else { return nil }
        let scheme = redirectURI[..<colon].lowercased()
        let source: String
        if scheme == "http" || scheme == "https" {
            guard let url = URL(string: redirectURI), let host = url.host, !host.isEmpty else { return nil }
            let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
            source = "\(scheme)://\(bracketed)" + (url.port.map { ":\($0)" } ?? "")
        } else {
            source = "\(scheme):"
        }
        let forbidden: Set<Character> = [";", ",", " ", "'", "\"", "\t", "\r", "\n"]
        return source.contains(where: { forbidden.contains($0) }) ? nil : source
    }
}
