/// From iOS 17.4 an `ASWebAuthenticationSession` may end at an https callback, and iOS hands it to the app only
/// when the callback's domain lists the app in `webcredentials.apps` of its apple-app-site-association as well as in
/// `applinks`; without it sign-in never returns to the app.
/// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/callback
public struct AppSiteAssociationWebCredentialsMissing: AppSiteAssociationRule {
    public let descriptor = RuleDescriptor(
        id: "aasa-webcredentials-missing",
        severity: .error,
        summary: "An https sign-in callback's domain does not list the app in webcredentials.apps.",
        hint: "Add \"webcredentials\": {\"apps\": [\"TEAMID.bundle\"]} to the apple-app-site-association, and webcredentials:DOMAIN to the app's entitlements.",
        reference: .appleWebAuthenticationCallback)

    public init() {}

    public func check(_ document: AppSiteAssociationDocument, context: LintContext) -> [Diagnosis] {
        guard let callback = context.claimsForAssociationHost.first(where: \.isSignInCallback) else { return [] }
        // The app's ID when known, else every app the applinks details name.
        let apps = context.appID.map { [$0] } ?? document.details.flatMap { $0.appIDs.map(\.value) }
        guard !apps.isEmpty else { return [] }
        let listed = Set((document.webCredentialsApps ?? []).map(\.value))
        let missing = apps.filter { !listed.contains($0) }
        guard !missing.isEmpty else { return [] }
        let position = document.root.member("webcredentials")?.value.position ?? document.root.position
        return [
            descriptor.finding(
                "https sign-in callback \(callback.text) (\(callback.origin)) needs \(missing.joined(separator: ", ")) in webcredentials.apps (iOS 17.4+)",
                at: position)
        ]
    }
}
