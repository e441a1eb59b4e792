import BridgeStore
import Foundation
import SignInProtocol

/// One thing a code redemption's token response may carry besides the access and refresh token (an ID token, a
/// Native SSO device secret, a first-party `auth_session`), as fosite's token endpoint handlers and
/// node-oidc-provider's token formats add theirs. A new member is a new conforming type added to
/// `TokenResponseContributors.contributorTypes`; `AuthorizationCodeGrant` runs whichever apply, in that order.
protocol TokenResponseContributor: Sendable {
    /// Nil when what it adds is off in this configuration.
    init?(_ dependencies: ContributorDependencies)
    /// What the store must write inside the redemption, drafted before it (the code's scope is not known yet).
    /// Most contributors draft nothing.
    func draft(_ drafts: inout RedemptionDrafts, for client: AuthenticatedClient, at now: Date)
    /// Whether it adds anything to the response for this redeemed code: its specification's condition.
    func applies(to redeemed: RedeemedCode) -> Bool
    /// Adds its members; only called when it `applies`.
    func contribute(to answer: inout ContributedResponse, from redeemed: RedeemedCode) throws(OAuthError)
}

extension TokenResponseContributor {
    func draft(_ drafts: inout RedemptionDrafts, for client: AuthenticatedClient, at now: Date) {}
}

/// What the contributors may use; built once per token endpoint.
struct ContributorDependencies: Sendable {
    /// Signs OpenID Connect ID tokens; nil where a test builds an endpoint without OpenID Connect (then no device
    /// secret either: Native SSO binds it to an ID token).
    var idTokens: IDTokenIssuer?
    /// `tokens.deviceSecretLifetimeSeconds`: how long a Native SSO device secret lives.
    var deviceSecretLifetime: TimeInterval = 2_592_000
    /// The first-party step-up `auth_session`; nil when the authorization challenge endpoint is off.
    var stepUp: StepUpIssuance? = nil
}

/// What contributors drafted before the redemption; `writes` is what the store does inside it.
struct RedemptionDrafts: Sendable {
    /// Set by `DeviceSecretContributor` for a client of an SSO group.
    var deviceSecret: DeviceSecretDraft?

    var writes: CodeRedemptionWrites { CodeRedemptionWrites(deviceSession: deviceSecret?.stored) }
}

/// What a contributor reads: the redeemed code after its checks, its grant, the client, the request's DPoP proof,
/// the signed access token and the drafts made before the redemption.
struct RedeemedCode: Sendable {
    let code: AuthorizationCodeRecord
    let grant: GrantRecord
    let client: AuthenticatedClient
    let proof: VerifiedDPoPProof?
    /// The compact JWS of the access token in this response (`at_hash`, OpenID Connect Core §3.1.3.6).
    let accessToken: String
    let drafts: RedemptionDrafts
    let now: Date
}

/// The response being built, and what an earlier contributor leaves for a later one.
struct ContributedResponse: Sendable {
    var response: TokenResponse
    /// The device session whose secret this response carries: the ID token's `sid` and `ds_hash` (Native SSO
    /// draft 07 §3.4.1).
    var deviceSession: DeviceSessionBinding? = nil
}

/// The contributors in the order they apply: the device secret before the ID token that names its session.
struct TokenResponseContributors: Sendable {
    static let contributorTypes: [any TokenResponseContributor.Type] = [
        DeviceSecretContributor.self, IDTokenContributor.self, StepUpSessionContributor.self,
    ]

    /// The ones this configuration turns on, in `contributorTypes`' order.
    let contributors: [any TokenResponseContributor]

    init(_ dependencies: ContributorDependencies) {
        contributors = Self.contributorTypes.compactMap { $0.init(dependencies) }
    }

    /// Every contributor's draft for a redemption by `client`.
    func drafts(for client: AuthenticatedClient, at now: Date) -> RedemptionDrafts {
        var drafts = RedemptionDrafts()
        for contributor in contributors { contributor.draft(&drafts, for: client, at: now) }
        return drafts
    }

    /// `response` with the members of every contributor that applies to `redeemed`.
    func response(_ response: TokenResponse, for redeemed: RedeemedCode) throws(OAuthError) -> TokenResponse {
        var answer = ContributedResponse(response: response)
        for contributor in contributors where contributor.applies(to: redeemed) {
            try contributor.contribute(to: &answer, from: redeemed)
        }
        return answer.response
    }
}
