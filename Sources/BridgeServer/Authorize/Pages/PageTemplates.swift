/// The HTML of the sign-in pages as mustache templates (swift-mustache), embedded so the installed binary needs no
/// resource folder. `{{x}}` is HTML-escaped; nothing here uses triple braces except the constant stylesheet.
/// No JavaScript: the pages work in any WebView, with forms and plain links only.
enum PageTemplates {
    static let head = """
        <!doctype html>
        <html lang="{{lang}}">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="referrer" content="no-referrer">
        <title>{{title}}</title>
        <style>\(PageStyle.css)</style>
        </head>
        <body>
        <main>
        <div class="card">
        <p class="service">{{service}}</p>
        """

    static let foot = """
        </div>
        </main>
        <footer><a href="{{privacyURL}}">{{text.privacy}}</a></footer>
        </body>
        </html>
        """

    static let signIn = """
        {{> head}}
        <h1>{{text.signInTitle}}</h1>
        <p class="lead">{{lead}}</p>
        {{#error}}<p class="error" role="alert">{{error}}</p>{{/error}}
        <form method="post" action="{{action}}">
        <input type="hidden" name="csrf_token" value="{{csrfToken}}">
        <label for="username">{{text.userName}}</label>
        <input type="text" id="username" name="username" value="{{userName}}" autocomplete="username" autocapitalize="none" autocorrect="off" spellcheck="false" required{{^hasUserName}} autofocus{{/hasUserName}}>
        <label for="password">{{text.password}}</label>
        <input type="password" id="password" name="password" autocomplete="current-password" required{{#hasUserName}} autofocus{{/hasUserName}}>
        <button type="submit">{{text.signIn}}</button>
        </form>
        {{#upstreams}}<a class="button secondary upstream" href="{{href}}">{{label}}</a>
        {{/upstreams}}
        {{> foot}}
        """

    static let consent = """
        {{> head}}
        <h1>{{text.consentTitle}}</h1>
        <p class="lead">{{lead}}</p>
        <ul class="scopes">{{#scopes}}<li>{{.}}</li>{{/scopes}}</ul>
        <p class="who">{{signedInAs}}</p>
        <form method="post" action="{{action}}">
        <input type="hidden" name="csrf_token" value="{{csrfToken}}">
        <button type="submit" name="decision" value="allow">{{text.allow}}</button>
        <button type="submit" name="decision" value="deny" class="secondary">{{text.deny}}</button>
        </form>
        {{> foot}}
        """

    static let error = """
        {{> head}}
        <h1>{{text.errorTitle}}</h1>
        <p class="lead">{{message}}</p>
        {{#code}}<details><summary>{{text.details}}</summary><p><code>{{code}}</code>{{#description}}: {{description}}{{/description}}</p></details>{{/code}}
        {{> foot}}
        """

    /// `requested_flow=app_to_app`: continue in the host's app (a plain link, no script), or sign in right here.
    static let parked = """
        {{> head}}
        <h1>{{text.parkedTitle}}</h1>
        <p class="lead">{{lead}}</p>
        <a class="button" id="open-app" href="{{deepLink}}">{{openApp}}</a>
        <p class="hint">{{hint}}</p>
        <p class="or">{{text.orSignInHere}}</p>
        <form method="post" action="{{action}}">
        <input type="hidden" name="csrf_token" value="{{csrfToken}}">
        <label for="username">{{text.userName}}</label>
        <input type="text" id="username" name="username" autocomplete="username" autocapitalize="none" autocorrect="off" spellcheck="false" required>
        <label for="password">{{text.password}}</label>
        <input type="password" id="password" name="password" autocomplete="current-password" required>
        <button type="submit" class="secondary">{{text.signIn}}</button>
        </form>
        {{> foot}}
        """

    /// RP-initiated logout asking first (OpenID Connect RP-Initiated Logout 1.0 §6): the request's parameters ride
    /// along as hidden fields, and nothing ends until this form is posted.
    static let logoutConfirmation = """
        {{> head}}
        <h1>{{text.logoutConfirmTitle}}</h1>
        <p class="lead">{{lead}}</p>
        <form method="post" action="{{action}}">
        <input type="hidden" name="csrf_token" value="{{csrfToken}}">
        {{#fields}}<input type="hidden" name="{{name}}" value="{{value}}">
        {{/fields}}
        <button type="submit">{{text.signOut}}</button>
        </form>
        {{> foot}}
        """

    /// A page that only tells the person something (signed out).
    static let notice = """
        {{> head}}
        <h1>{{heading}}</h1>
        <p class="lead">{{message}}</p>
        {{> foot}}
        """

    static let privacy = """
        {{> head}}
        <h1>{{text.privacyTitle}}</h1>
        {{#text.privacyBody}}<p>{{.}}</p>{{/text.privacyBody}}
        {{> foot}}
        """
}
