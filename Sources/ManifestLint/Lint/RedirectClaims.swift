/// An https URL the run says an app receives, with where it says so: a sign-in callback (`--redirect-uri`, the
/// config's `redirect-uris`) or a path an Android App Link filter claims. Association files in the same run are
/// checked against every claim for their host, and a finding names both ends.
public struct RedirectClaim: Sendable {
    var uri: RedirectURI
    /// Where the claim was read: `AndroidManifest.xml:12:17`, `--redirect-uri`, `signin-bridge-lint.yaml`.
    public var origin: String
    /// A sign-in callback (told as one) rather than a link an app's filter claims.
    public var isSignInCallback: Bool
    /// The Android package whose filter claims it, when it comes from a manifest.
    public var package: String?
    /// The file that claims it; nil for an option.
    public var file: String?

    public var text: String { uri.text }

    /// `uri` as said by `origin`, when it is an https URL with a host.
    public init?(_ text: String, origin: String, isSignInCallback: Bool, package: String? = nil, file: String? = nil) {
        guard let uri = RedirectURI(text), uri.scheme == "https", uri.host?.isEmpty == false else { return nil }
        self.uri = uri
        self.origin = origin
        self.isSignInCallback = isSignInCallback
        self.package = package
        self.file = file
    }

    /// The https paths of the manifest's `autoVerify` filters a browser reaches: one claim per host and literal
    /// `android:path` or `android:pathPrefix` (a pattern or a build-time value says no single URL).
    /// https://developer.android.com/training/app-links/verify-android-applinks
    static func appLinks(of manifest: AndroidManifest, file: String) -> [RedirectClaim] {
        var claims = [RedirectClaim]()
        for component in manifest.components {
            for filter in component.intentFilters where filter.autoVerify?.value == "true" {
                guard SignInReceivers.browserReaches(filter, of: component),
                    filter.schemes.contains(where: { $0.value == "https" })
                else { continue }
                let hosts = filter.dataAttributes("host").filter { !$0.value.containsASCII("*") && !BuildTimeValue.isPlaceholder($0.value) }
                let paths = ["path", "pathPrefix"].flatMap { filter.dataAttributes($0) }
                    .filter { $0.value.hasPrefix("/") && !BuildTimeValue.isPlaceholder($0.value) }
                for host in hosts {
                    for path in paths {
                        let origin = "\(file):\(path.valuePosition.line):\(path.valuePosition.column)"
                        if let claim = RedirectClaim(
                            "https://\(host.value)\(path.value)", origin: origin, isSignInCallback: false, package: manifest.packageName,
                            file: file)
                        {
                            claims.append(claim)
                        }
                    }
                }
            }
        }
        return claims
    }
}

extension LintContext {
    /// The claims an association file served by `associationHost` answers for (every claim when its host is unknown).
    var claimsForAssociationHost: [RedirectClaim] {
        guard let host = associationHost else { return redirectClaims }
        return redirectClaims.filter { $0.uri.host == host }
    }
}
