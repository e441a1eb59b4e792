/// Android Lint issue ids that teams already write in `tools:ignore`, and the rules of ours that check the same
/// thing, so that one suppression silences both tools. docs/lint-suppressions.md lists the map for users.
/// https://googlesamples.github.io/android-custom-lint-rules/checks/index.md.html
public enum AndroidLintIDs {
    public static let map: [String: [String]] = [
        // AppLinksValidDetector: malformed URLs in VIEW intent filters (GoogleAppIndexingUrlError before AGP 3.x).
        "AppLinkUrlError": urlErrors,
        "GoogleAppIndexingUrlError": urlErrors,
        // AppLinksValidDetector: App Link filters that are not BROWSABLE or mix web and custom schemes.
        "AppLinkWarning": ["android-view-filter-not-browsable"],
        "AppLinkSplitToWebAndCustom": ["android-autoverify-custom-scheme"],
        // AppLinksAutoVerifyDetector: autoVerify filters whose hosts do not verify (AppLinksAutoVerifyError and
        // AppLinksAutoVerifyWarning before AGP 7.0).
        "AppLinksAutoVerify": ["android-autoverify-custom-scheme", "android-applinks-host-unverified"],
        "AppLinksAutoVerifyError": ["android-applinks-host-unverified"],
        "AppLinksAutoVerifyWarning": ["android-applinks-host-unverified"],
        // ExportedFlagDetector: a component with an intent filter and no android:exported (Android 12).
        "IntentFilterExportedReceiver": ["android-exported-missing"],
    ]

    static let urlErrors = [
        "android-scheme-syntax", "android-host-wildcard", "android-path-without-slash", "android-autoverify-custom-scheme",
    ]

    /// The one Android Lint id under which Android Lint reports what our rule reports, for SARIF and JSON output;
    /// rules Android Lint has no issue for have none (docs/lint-android-lint-ids.md says why, rule by rule).
    public static let reportedAs: [String: String] = [
        "android-scheme-syntax": "AppLinkUrlError",
        "android-host-wildcard": "AppLinkUrlError",
        "android-path-without-slash": "AppLinkUrlError",
        "android-view-filter-not-browsable": "AppLinkWarning",
        "android-autoverify-custom-scheme": "AppLinkSplitToWebAndCustom",
        "android-applinks-host-unverified": "AppLinksAutoVerify",
        "android-exported-missing": "IntentFilterExportedReceiver",
    ]

    /// `tools:ignore="all"` silences every check on the element, as it does for Android Lint.
    public static let all = "all"

    /// Whether a `tools:ignore` list silences our rule `ruleID`.
    static func ignores(_ ids: Set<String>, ruleID: String) -> Bool {
        ids.contains(all) || ids.contains(ruleID) || ids.contains { map[$0]?.contains(ruleID) == true }
    }
}
