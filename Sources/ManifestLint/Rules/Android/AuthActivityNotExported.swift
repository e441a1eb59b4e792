/// An activity another app starts must be exported; without `android:exported` and without an intent filter an
/// activity is private, and `android:exported="false"` is private on every Android version. This holds for the
/// auth activity Office starts and for every other sign-in receiver (a browser delivers the redirect to it).
public struct AuthActivityNotExported: AndroidManifestRule {
    public let descriptor = RuleDescriptor(
        id: "android-auth-activity-not-exported",
        severity: .error,
        summary: "The auth activity Office starts, or another sign-in receiver, is not exported, so it cannot be started.",
        hint: "Set android:exported=\"true\" on the auth activity.",
        reference: .androidActivityExported)

    public init() {}

    public func check(_ manifest: AndroidManifest, context: LintContext) -> [Diagnosis] {
        let receivers = SignInReceivers.of(manifest, context: context)
        return manifest.components.compactMap { component in
            guard let reason = receivers.reason(for: component) else { return nil }
            let what = reason == .urlSchemesEntry ? "auth activity" : "sign-in receiver"
            let who = reason == .urlSchemesEntry ? "Office" : "the browser"
            if let exported = component.exported, exported.value == "false" {
                return descriptor.finding(
                    "\(what) \(component.label) is android:exported=\"false\": \(who) cannot start it",
                    at: exported.valuePosition)
            }
            if component.exported == nil && component.intentFilters.isEmpty {
                return descriptor.finding(
                    "\(what) \(component.label) has neither android:exported nor an intent filter, so it is not exported",
                    at: component.element.position)
            }
            return nil
        }
    }
}
