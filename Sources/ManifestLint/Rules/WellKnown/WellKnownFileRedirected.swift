/// Neither verifier follows redirects: Android's App Links check fails on any (even http→https or to `www.`), and
/// Apple requires the file "with no redirects" (Android: troubleshoot App Links; Apple: supporting associated domains).
public struct WellKnownFileRedirected: WellKnownResponseRule {
    public let descriptor = RuleDescriptor(
        id: "well-known-redirected",
        severity: .error,
        summary: "The host answers the association file with a redirect, which the platforms do not follow.",
        hint: "Serve the file itself at https://HOST/.well-known/… on every host the app claims, without a redirect.",
        reference: .androidAppLinksTroubleshoot)

    public init() {}

    public func check(_ response: WellKnownResponse, context: LintContext) -> [Diagnosis] {
        guard case .answered(let status, _, let location, _, _) = response.outcome, (300..<400).contains(status) else { return [] }
        let target = location.map { " to \($0)" } ?? ""
        return [descriptor.finding("GET \(response.url) answered \(status)\(target); the platform stops there", at: .startOfFile)]
    }
}
