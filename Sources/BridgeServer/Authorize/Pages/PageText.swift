/// Every user-visible sentence of the sign-in pages, per language. `{client}`, `{name}` and `{minutes}` are filled
/// in before rendering (the template still HTML-escapes the result).
struct PageText: Sendable {
    var signInTitle: String
    var signInLead: String
    var userName: String
    var password: String
    var signIn: String
    var wrongCredentials: String
    var throttled: String
    var consentTitle: String
    var consentLead: String
    var signedInAs: String
    var allow: String
    var deny: String
    var privacy: String
    var errorTitle: String
    var errorLead: String
    var expired: String
    var formExpired: String
    var otherBrowser: String
    var unavailable: String
    var continueWith: String
    var upstreamDown: String
    var upstreamRefused: String
    var upstreamCancelled: String
    var signedOutTitle: String
    var parkedTitle: String
    var parkedLead: String
    var openApp: String
    var parkedHint: String
    /// Simple Login (`app_to_app_v2`): the host's app sends the user straight back to the client's app.
    var parkedHintDirect: String
    var orSignInHere: String
    var resumeUsed: String
    var appToAppLanding: String
    var signedOut: String
    var logoutRefused: String
    /// RP-initiated logout without a valid id_token_hint: the question asked before anything ends.
    var logoutConfirmTitle: String
    var logoutConfirmLead: String
    var signOut: String
    var details: String
    var privacyTitle: String
    var privacyBody: [String]
    /// What each scope lets the client do, by scope value; unknown scopes are shown by name.
    var scopes: [String: String]

    static func `for`(_ language: PageLanguage) -> PageText {
        switch language {
        case .en: english
        case .nb: norwegian
        }
    }

    static let english = PageText(
        signInTitle: "Sign in",
        signInLead: "to continue to {client}",
        userName: "Email or user name",
        password: "Password",
        signIn: "Sign in",
        wrongCredentials: "The user name or password is incorrect.",
        throttled: "Too many failed sign-ins. Wait {minutes} minutes, then try again.",
        consentTitle: "Allow access?",
        consentLead: "{client} wants to:",
        signedInAs: "Signed in as {name}",
        allow: "Allow",
        deny: "Cancel",
        privacy: "Privacy statement",
        errorTitle: "Sign-in cannot continue",
        errorLead: "The app that sent you here made a request this service cannot accept. Close this page and try again from the app.",
        expired: "This sign-in has expired. Close this page and start again from the app.",
        formExpired: "This form is no longer valid. Close this page and start again from the app.",
        otherBrowser: "This sign-in was started in another browser. Start again from the app.",
        unavailable: "Sign-in is unavailable for a moment. Wait a little and try again.",
        continueWith: "Continue with {name}",
        upstreamDown: "{name} is not answering right now. Wait a few minutes and try again, or sign in another way.",
        upstreamRefused: "Signing in with {name} did not work. Close this page and start again from the app.",
        upstreamCancelled: "Signing in with {name} was cancelled.",
        signedOutTitle: "Signed out",
        parkedTitle: "Continue in the app",
        parkedLead: "{client} wants you to sign in. Approve it in the {service} app, where you are already signed in.",
        openApp: "Open the {service} app",
        parkedHint: "After you approve in the app, you come back to {client} and sign-in finishes here.",
        parkedHintDirect: "After you approve in the app, it takes you straight back to {client}.",
        orSignInHere: "or sign in here",
        resumeUsed: "This sign-in link was already used. Close this page and start again from the app.",
        appToAppLanding: "Open this link on a phone or tablet with the app installed, or go back and sign in with your password.",
        signedOut: "You are signed out. You can close this page.",
        logoutRefused: "The app that sent you here asked to sign you out with a request this service cannot accept. You are still signed in.",
        logoutConfirmTitle: "Sign out?",
        logoutConfirmLead: "Do you want to sign out of {service} on this device? Apps that use this sign-in will ask you to sign in again.",
        signOut: "Sign out",
        details: "Details for the app's developer",
        privacyTitle: "Privacy statement",
        privacyBody: [
            "This service signs you in to your files for apps such as Microsoft Office.",
            "It keeps your user name, a one-way hash of your password, the apps you allowed, and short-lived sign-in records. Failed sign-ins are recorded with the network address for 15 minutes to stop password guessing.",
            "Nothing is shared with anyone other than the app you allow, and only for the access you allowed.",
        ],
        scopes: [
            "wopi": "Open and edit your files", "openid": "Know who you are here",
            "profile": "See your name and user name", "email": "See your email address",
            "phone": "See your phone number",
        ])

    static let norwegian = PageText(
        signInTitle: "Logg inn",
        signInLead: "for å fortsette til {client}",
        userName: "E-post eller brukernavn",
        password: "Passord",
        signIn: "Logg inn",
        wrongCredentials: "Brukernavnet eller passordet er feil.",
        throttled: "For mange mislykkede innlogginger. Vent {minutes} minutter og prøv igjen.",
        consentTitle: "Gi tilgang?",
        consentLead: "{client} ønsker å:",
        signedInAs: "Logget inn som {name}",
        allow: "Tillat",
        deny: "Avbryt",
        privacy: "Personvernerklæring",
        errorTitle: "Innloggingen kan ikke fortsette",
        errorLead: "Appen som sendte deg hit, sendte en forespørsel denne tjenesten ikke kan godta. Lukk siden og prøv igjen fra appen.",
        expired: "Denne innloggingen er utløpt. Lukk siden og start på nytt fra appen.",
        formExpired: "Dette skjemaet er ikke lenger gyldig. Lukk siden og start på nytt fra appen.",
        otherBrowser: "Denne innloggingen ble startet i en annen nettleser. Start på nytt fra appen.",
        unavailable: "Innlogging er utilgjengelig et øyeblikk. Vent litt og prøv igjen.",
        continueWith: "Fortsett med {name}",
        upstreamDown: "{name} svarer ikke akkurat nå. Vent noen minutter og prøv igjen, eller logg inn på en annen måte.",
        upstreamRefused: "Innlogging med {name} virket ikke. Lukk siden og start på nytt fra appen.",
        upstreamCancelled: "Innlogging med {name} ble avbrutt.",
        signedOutTitle: "Logget ut",
        parkedTitle: "Fortsett i appen",
        parkedLead: "{client} ber deg logge inn. Godkjenn i {service}-appen, der du allerede er logget inn.",
        openApp: "Åpne {service}-appen",
        parkedHint: "Når du har godkjent i appen, kommer du tilbake til {client}, og innloggingen fullføres her.",
        parkedHintDirect: "Når du har godkjent i appen, sender den deg rett tilbake til {client}.",
        orSignInHere: "eller logg inn her",
        resumeUsed: "Denne innloggingslenken er allerede brukt. Lukk siden og start på nytt fra appen.",
        appToAppLanding: "Åpne lenken på en telefon eller et nettbrett med appen installert, eller gå tilbake og logg inn med passord.",
        signedOut: "Du er logget ut. Du kan lukke denne siden.",
        logoutRefused: "Appen som sendte deg hit, ba om å logge deg ut med en forespørsel denne tjenesten ikke kan godta. Du er fortsatt logget inn.",
        logoutConfirmTitle: "Logge ut?",
        logoutConfirmLead: "Vil du logge ut av {service} på denne enheten? Apper som bruker denne innloggingen, ber deg logge inn på nytt.",
        signOut: "Logg ut",
        details: "Detaljer for appens utvikler",
        privacyTitle: "Personvernerklæring",
        privacyBody: [
            "Denne tjenesten logger deg inn på filene dine for apper som Microsoft Office.",
            "Den lagrer brukernavnet ditt, en enveis-hash av passordet, appene du har gitt tilgang og kortlivede innloggingsdata. Mislykkede innlogginger lagres med nettverksadressen i 15 minutter for å hindre passordgjetting.",
            "Ingenting deles med andre enn appen du gir tilgang, og bare for tilgangen du har gitt.",
        ],
        scopes: [
            "wopi": "Åpne og redigere filene dine", "openid": "Vite hvem du er her",
            "profile": "Se navnet og brukernavnet ditt", "email": "Se e-postadressen din",
            "phone": "Se telefonnummeret ditt",
        ])
}

extension String {
    func filling(_ placeholder: String, with value: String) -> String {
        replacingOccurrences(of: "{\(placeholder)}", with: value)
    }
}
