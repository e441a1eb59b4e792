/// An option some checks cannot run without, with the flags that give it, so that every check needing it skips with
/// the same words (`ConformanceOptions.required`).
public struct RequiredOption<Value>: Sendable {
    let read: @Sendable (ConformanceOptions) -> Value?
    /// The flags, as the skip names them: "needs <flags>".
    public let flags: String
}

extension ConformanceOptions {
    /// The option's value, or the skip naming the flags that give it.
    public func required<Value>(_ option: RequiredOption<Value>) throws(CheckSkipped) -> Value {
        guard let value = option.read(self) else { throw CheckSkipped("needs " + option.flags) }
        return value
    }
}

extension RequiredOption where Value == ConformanceOptions.ConfidentialClient {
    /// Office's confidential client at the host.
    public static let office = RequiredOption(read: { $0.office }, flags: "--client-id, --client-secret and --redirect-uri")
    /// The target of `/oauth/exchange`.
    public static let exchangeTarget = RequiredOption(
        read: { $0.exchangeTarget }, flags: "--exchange-client-id and --exchange-client-secret")
}

extension RequiredOption where Value == ConformanceOptions.PublicClient {
    /// A partner app's public client, for the PKCE, DPoP and ID token checks.
    public static let publicClient = RequiredOption(
        read: { $0.publicClient }, flags: "--public-client-id and --public-redirect-uri")
    /// A merchant app of Vipps's app_to_app v2 (Simple Login).
    public static let simpleLoginClient = RequiredOption(
        read: { $0.simpleLoginClient }, flags: "--app-to-app-v2-client-id and --app-to-app-v2-redirect-uri")
}

extension RequiredOption where Value == ConformanceOptions.User {
    public static let user = RequiredOption(read: { $0.user }, flags: "--username and --password")
}

extension RequiredOption where Value == String {
    /// A WopiSrc the host serves, for `GET_NEW_ACCESS_TOKEN`.
    public static let wopiSrc = RequiredOption(read: { $0.wopiSrc }, flags: "--wopi-src")
    /// Where the host's own app approves an app_to_app request (the API is the host's).
    public static let appToAppDecisionURI = RequiredOption(
        read: { $0.appToAppDecisionURI },
        flags: "--app-to-app-decision-uri (where the host's own app approves; the API is the host's)")
}

extension RequiredOption where Value == ConformanceOptions.AppToAppClient {
    public static let appToAppClient = RequiredOption(
        read: { $0.appToAppClient }, flags: "--app-to-app-client-id, --app-to-app-redirect-uri and --app-callback-uri")
}

extension RequiredOption where Value == ConformanceOptions.FirstPartyClient {
    public static let firstPartyClient = RequiredOption(read: { $0.firstPartyClient }, flags: "--first-party-client-id")
}

extension RequiredOption where Value == ConformanceOptions.Attestation {
    public static let attestation = RequiredOption(
        read: { $0.attestation }, flags: "--attester-key and --attested-client-id")
}

extension RequiredOption where Value == ConformanceOptions.NativeSSOApps {
    public static let nativeSSOApps = RequiredOption(
        read: { $0.nativeSSOApps },
        flags: "--native-sso-client-id, --native-sso-redirect-uri and --native-sso-second-client-id")
}
