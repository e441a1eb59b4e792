import SignInProtocolCore

/// The partner app returns to Office through the calling app's Back-URL scheme (`ms-word-tp`, …); checking first
/// with `canOpenURL` needs the scheme in `LSApplicationQueriesSchemes`, or iOS answers "no" and the app never returns.
public struct QueriesOfficeSchemeMissing: InfoPlistRule {
    public let descriptor = RuleDescriptor(
        id: "ios-queries-office-scheme-missing",
        severity: .warning,
        summary: "LSApplicationQueriesSchemes lacks an Office scheme the app returns to (ms-word-tp, …).",
        hint: "Add ms-word-tp, ms-excel-tp, ms-powerpoint-tp and ms-officemobile-tp to LSApplicationQueriesSchemes.",
        reference: .officeAppToApp)

    public init() {}

    public func check(_ plist: InfoPlist, context: LintContext) -> [Diagnosis] {
        // Only an app Office opens (UrlSchemes lists iOS schemes for it) returns to Office.
        guard context.urlSchemes?.iOS?.isEmpty == false else { return [] }
        let entry = plist.entry(InfoPlist.Keys.queriesSchemes)
        let listed = Set((entry?.value?.array ?? []).compactMap { $0.string?.lowercased() })
        let missing = OfficeApp.allCases.map(\.scheme).filter { !listed.contains($0) }
        guard !missing.isEmpty else { return [] }
        let names = missing.joined(separator: ", ")
        let message =
            entry == nil
            ? "Info.plist has no LSApplicationQueriesSchemes: canOpenURL answers no for \(names)"
            : "LSApplicationQueriesSchemes lacks \(names): canOpenURL answers no for them"
        return [descriptor.finding(message, at: entry?.keyPosition ?? plist.headPosition)]
    }
}
