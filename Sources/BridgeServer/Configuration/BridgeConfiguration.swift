import Foundation
import SignInProtocol

/// The whole configuration of one server, as `samples/bridge.yaml` documents it. Built by `ConfigurationLoader`
/// after the schema (schemas/bridge-config.schema.json) and `ConfigurationChecks` have passed, so every value here is
/// valid. A key the schema gives a `default` is never nil here (`SchemaDefaults`): its fallback lives in the schema.
public struct BridgeConfiguration: Sendable, Codable, Hashable {
    /// The public origin of this server (RFC 8414 `issuer`); endpoint URLs are built from it.
    public var issuer: String
    public var listen: Listen
    public var store: StoreSettings
    public var signingKeys: SigningKeys
    public var log: LogSettings
    public var limits: Limits
    public var tokens: Tokens
    public var authorize: Authorize
    public var exchange: Exchange
    public var appToApp: AppToApp
    public var signIn: SignIn
    public var office: Office
    public var wopi: Wopi
    public var clients: [Client]
    public var users: [User]
    public var upstreams: [Upstream]
    public var broker: Broker
    public var dpop: DPoP
    public var firstPartyApps: FirstPartyApps
    /// The attesters whose Client Attestation JWTs authenticate clients (`attest_jwt_client_auth`).
    public var clientAttestation: ClientAttestation
    /// Apps receiving sign-in at https redirects on this host (`PartnerApp`); nil or empty: no association files.
    public var partnerApps: [PartnerApp]?
    /// The host's own OpenID provider (`IdentityProviderSettings`); nil: the embedded provider signs users in.
    public var identityProvider: IdentityProviderSettings?

    public struct Listen: Sendable, Codable, Hashable {
        public var host: String
        public var port: Int
        /// Addresses or CIDR blocks of reverse proxies whose `X-Forwarded-For` names the client (`ClientAddress`);
        /// the sign-in throttle counts failures per client address. Empty: the peer is the client.
        public var trustedProxies: [String]
    }

    public struct StoreSettings: Sendable, Codable, Hashable {
        public var sqlite: SQLite
        /// When present, the store is PostgreSQL and `sqlite` is not used.
        public var postgres: Postgres?
        /// How often expired tokens, codes and sessions are deleted (`ExpiredRecordsPurge`); 0 never.
        public var purgeIntervalSeconds: Int

        public struct SQLite: Sendable, Codable, Hashable {
            /// Relative paths are resolved against the working directory (`make run` puts it under `./data/`).
            public var path: String
            /// `normal` or `full`, see `StoreDurability`.
            public var durability: String
        }

        public struct Postgres: Sendable, Codable, Hashable {
            /// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=…]` (`SIGNIN_BRIDGE_STORE_URL` replaces it).
            public var url: String
            /// The pool's upper bound.
            public var maxConnections: Int
            /// How long connecting or waiting for a pooled connection may take.
            public var connectTimeoutMilliseconds: Int
            /// `normal` or `full`, see `StoreDurability` (set as `synchronous_commit`).
            public var durability: String
        }
    }

    public struct SigningKeys: Sendable, Codable, Hashable {
        /// A JSON file of ES256 and RS256 keys; created with fresh keys (mode 0600) on first start when absent.
        public var file: String
        /// How long `keys rotate` publishes a next key in the JWKS before it may sign (docs/keys-and-secrets.md): at
        /// least as long as relying parties cache the JWKS. A day by default.
        public var publishBeforeSigningSeconds: Int
    }

    public struct LogSettings: Sendable, Codable, Hashable {
        /// swift-log level name: trace, debug, info, notice, warning, error, critical.
        public var level: String
        /// `logfmt` or `json`.
        public var format: String
        /// One line per request (method, path, status, duration, request id) at info level.
        public var requests: Bool
    }

    public struct Limits: Sendable, Codable, Hashable {
        /// Largest request body accepted before answering 413.
        public var maxBodyBytes: Int
        /// Largest value of any single request header that SignInBridge parses (Authorization, X-WOPI-*).
        public var maxHeaderValueBytes: Int
        /// A connection idle for longer is closed.
        public var idleTimeoutSeconds: Int
    }

    public struct Tokens: Sendable, Codable, Hashable {
        /// Lifetime of the signed access tokens this server issues.
        public var accessTokenLifetimeSeconds: Int
        /// Lifetime of each refresh token from its issue (90 days by default, like the sliding windows of common
        /// providers); each refresh issues a new token with a new lifetime. 0: until rotated or revoked.
        public var refreshTokenLifetimeSeconds: Int
        /// A rotated refresh token presented again within this time is rotated again rather than treated as a replay
        /// (`Store.refresh`), for clients that refresh from several threads at once. 0: strict.
        public var refreshReuseGraceSeconds: Int
        /// Lifetime of a Native SSO device secret (OpenID Connect Native SSO for Mobile Apps 1.0 draft 07 §3.2); never
        /// rotated, ended earlier by logout, revocation or a password change.
        public var deviceSecretLifetimeSeconds: Int
        /// How long introspection may reuse an access token's status once read from the store (`RecentAnswers`).
        /// Changes made through this server take effect at once; changes made by another process on the same
        /// database take effect within this time. 0 reads the store on every request. The bootstrapper does not
        /// use it: it reads the status in the store call that records its WOPI tokens.
        public var statusCacheMilliseconds: Int
    }

    /// The authorization endpoint (RFC 6749 §3.1).
    public struct Authorize: Sendable, Codable, Hashable {
        /// Lifetime of an authorization code (RFC 6749 §4.1.2: short; node-oidc-provider and Keycloak use 60 s).
        public var codeLifetimeSeconds: Int
        /// How long a started request waits for the user to sign in and consent.
        public var requestLifetimeSeconds: Int
        /// Accept PKCE `plain` challenges; off by default (RFC 9700 §2.1.1 recommends S256 only).
        public var allowPlainPKCE: Bool
        /// Lifetime of a pushed request's `request_uri` (RFC 9126 §2.2: short; node-oidc-provider uses 60 s).
        public var pushedRequestLifetimeSeconds: Int
        /// Every client must use pushed authorization requests (RFC 9126 §5).
        public var requirePushedAuthorizationRequests: Bool
    }

    /// One-time exchange codes (`POST /oauth/exchange`, the Schibsted SPiD login docs' 30 s and 60 s by default).
    public struct Exchange: Sendable, Codable, Hashable {
        /// `type=code`: redeemed by the target client at the token endpoint.
        public var codeLifetimeSeconds: Int
        /// `type=session`: opened by a browser at `/auth/session/{code}`.
        public var sessionLifetimeSeconds: Int
    }

    /// `requested_flow=app_to_app` (Vipps/MobilePay-style login with the host's own app as the provider's app).
    public struct AppToApp: Sendable, Codable, Hashable {
        /// The link the parked page offers ("continue in the app"), with `reference` added to its query: a
        /// universal link / App Link or a scheme the host's app handles. Nil: `<issuer>/app-to-app`.
        public var deepLink: String?
        /// How long the reference, the app's decision and the browser's resume stay usable.
        public var referenceLifetimeSeconds: Int
    }

    /// The sign-in and consent pages and the browser sessions behind them.
    public struct SignIn: Sendable, Codable, Hashable {
        /// The host's name shown above every page ("Contoso Files"); nil: the issuer's host name.
        public var serviceName: String?
        /// Linked from every page (Office requires a privacy statement); nil: the built-in `/privacy` page.
        public var privacyStatementUrl: String?
        /// Lifetime of the browser session after a successful sign-in.
        public var sessionLifetimeSeconds: Int
        /// bcrypt cost of newly set passwords (`signin-bridge user add|passwd`); 2^cost rounds.
        public var bcryptCost: Int
        public var throttle: Throttle
    }

    /// Failed sign-ins counted per account and per client address; over the limit the page answers 429.
    public struct Throttle: Sendable, Codable, Hashable {
        public var maxFailures: Int
        public var windowSeconds: Int
    }

    /// Office app-to-app settings (Microsoft's Office app-to-app docs): what goes into the bootstrap challenge.
    public struct Office: Sendable, Codable, Hashable {
        /// Overrides `<issuer>/oauth2/authorize` in the challenge (a host behind a different front door).
        public var authorizationUri: String?
        /// Overrides `<issuer>/oauth2/token` in the challenge.
        public var tokenIssuanceUri: String?
        public var providerId: String?
        public var urlSchemes: UrlSchemeSettings?
        /// Adds `resource_metadata` (RFC 9728 §5.1) pointing at `/.well-known/oauth-protected-resource`.
        public var resourceMetadata: Bool
        /// Further `WWW-Authenticate` challenges sent beside the Bearer one, e.g. `Basic realm="files"`.
        public var additionalChallenges: [String]?
    }

    /// Per-platform lists in the order Office tries them; a platform left out is not offered.
    public struct UrlSchemeSettings: Sendable, Codable, Hashable {
        public var iOS: [String]?
        public var Android: [AndroidApp]?
        public var UWP: [String]?
    }

    /// One Android app Office may start by explicit component (the app-to-app page's triple).
    public struct AndroidApp: Sendable, Codable, Hashable {
        /// This version code and later support app to app.
        public var minimumVersionCode: Int
        public var packageName: String
        public var authActivity: String
    }

    /// The WOPI side of the host.
    public struct Wopi: Sendable, Codable, Hashable {
        /// `EcosystemUrl` of the bootstrap answer; `{access_token}` is replaced by a fresh WOPI access token.
        public var ecosystemUrlTemplate: String
        public var rootContainer: RootContainer
        /// The `X-WOPI-WopiSrc` values this host serves start with one of these (compared as URLs, whole segments).
        public var wopiSrcPrefixes: [String]
        /// Lifetime of the WOPI access tokens handed out (WOPI suggests about 10 hours).
        public var accessTokenLifetimeSeconds: Int
        /// What CheckEcosystem answers when this server is the ecosystem host (`EcosystemHost`).
        public var ecosystem: Ecosystem
    }

    /// CheckEcosystem's properties (Microsoft's CheckEcosystem page).
    public struct Ecosystem: Sendable, Codable, Hashable {
        /// Must match the WOPI server's CheckFileInfo `SupportsContainers`; false: no root container pointer (501).
        public var supportsContainers: Bool
    }

    public struct RootContainer: Sendable, Codable, Hashable {
        public var name: String
        /// `{access_token}` is replaced by a fresh WOPI access token.
        public var urlTemplate: String
    }

    /// An OAuth client (RFC 6749 §2), as the authorize, token and exchange endpoints know it.
    public struct Client: Sendable, Codable, Hashable {
        public var id: String
        /// Public clients (native apps, RFC 8252) have no secret and must use PKCE.
        public var `public`: Bool
        /// `sha256:<hex>` of the client secret (random, so a fast hash is enough); required unless `public` or `secrets`.
        public var secretHash: String?
        /// More secrets, each with an optional expiry, so a partner can switch secrets without an outage (`Secret`).
        public var secrets: [Secret]?
        public var redirectUris: [String]
        public var grants: [GrantKind]
        /// Alternative token endpoint sent as `tk` in the final redirect (Microsoft's Office app-to-app docs).
        public var tokenEndpointOverride: String?
        /// The merchant (tenant): exchange codes and token exchange only move a user between clients of one merchant.
        public var merchant: String?
        /// Native SSO (draft 07): the apps of one vendor that share a sign-in on a device; only a client with a group
        /// may ask for `device_sso` or exchange a device secret, and only a secret of its own group.
        public var ssoGroup: String?
        /// Send a session context (`sc`) in the final redirect, echoed by Office in `X-WOPI-SessionContext`.
        public var sessionContext: Bool
        /// Shown on the consent page ("Contoso Files wants to …"); defaults to the id.
        public var name: String?
        /// The host's own app: the consent page is skipped (the user signed in to the host itself).
        public var firstParty: Bool
        /// Scopes the client may request. `wopi` unless configured: the one scope the bootstrapper knows.
        public var scopes: [String]
        /// What an authorize request without `scope` gets (RFC 6749 §3.3: the server's documented default); never
        /// `openid`. Absent: `scopes` without `openid` (`defaultScope`).
        public var defaultScopes: [String]?
        /// `office` allows exactly Office's documented deviations (`ClientProfile`); `strict`: none.
        public var profile: ClientProfile
        /// OpenID Connect: refuse authorize requests without `nonce` (OpenID Connect Core §3.1.2.1 lets the OP decide).
        public var requireNonce: Bool
        /// This client must use pushed authorization requests (RFC 9126 §5); the server-wide switch is
        /// `authorize.requirePushedAuthorizationRequests`.
        public var requirePushedAuthorizationRequests: Bool
        /// Where RP-initiated logout may send the browser afterwards, matched exactly (OpenID Connect RP-Initiated
        /// Logout 1.0 §2).
        public var postLogoutRedirectUris: [String]?
        /// `app_callback_uri` values this client may send with `requested_flow=app_to_app`, matched exactly.
        public var appCallbackUris: [String]?
        /// First-party clients whose access tokens may approve this client's app-to-app requests.
        public var appToAppApprovers: [String]?
        /// This client may ask for Vipps/MobilePay Simple Login (`requested_flow=app_to_app_v2`): approved in the
        /// host's app, which opens the client's https `redirect_uri` with the code directly.
        public var appToAppV2: Bool
        /// `RS256` (the default, OpenID Connect Dynamic Client Registration §2) or `ES256`.
        public var idTokenSignedResponseAlg: IDTokenAlgorithm
        /// Token requests without a DPoP proof are refused (RFC 9449 §5), so every token the client gets is bound.
        public var requireDPoP: Bool
        /// Attestation-based client authentication for this client; nil: allowed, not required.
        public var attestation: Attestation?
        /// The server of a WOPI host (in any language): it may introspect the WOPI access tokens the bootstrapper
        /// hands out (RFC 7662, `docs/wopi-hosts.md`). A permission beside the client's other settings, not a kind
        /// of client, so that the host's web back end can be both a token-exchange client and a WOPI server.
        public var wopiServer: Bool

        /// A client with `required` must authenticate with `attest_jwt_client_auth` and needs no secret.
        public struct Attestation: Sendable, Codable, Hashable {
            public var required: Bool
        }

        /// True when the client may authenticate only with an attestation.
        public var requiresAttestation: Bool { attestation?.required ?? false }

        /// Not a schema default: it follows from another key.
        public var displayName: String { name ?? id }

        /// The scope of a request that names none: `defaultScopes`, else `scopes` without `openid` (OpenID Connect
        /// Core §3.1.2.1: only a request that contains openid is an OpenID request, so the default never makes one).
        public var defaultScope: [String] { defaultScopes ?? scopes.filter { $0 != OpenIDScope.openid } }
    }

    /// A local account of the embedded default, loaded into the store at start.
    public struct User: Sendable, Codable, Hashable {
        public var id: String
        public var signInName: String
        public var friendlyName: String?
        /// bcrypt (`$2b$…`); generate one with `htpasswd -bnBC 12 "" PASSWORD | tr -d ':'`.
        public var passwordHash: String
        /// OpenID Connect `email` and `phone_number` claims (OpenID Connect Core §5.1).
        public var email: String?
        public var phoneNumber: String?
    }

    /// An upstream OpenID provider users may sign in with (OpenID Connect Core 1.0, authorization code flow).
    public struct Upstream: Sendable, Codable, Hashable {
        public var id: String
        /// Shown as "Continue with <name>".
        public var name: String
        public var issuer: String
        public var clientId: String
        /// Sent with HTTP Basic (`client_secret_basic`, OpenID Connect Core §9); nil: a public client.
        public var clientSecret: String?
        public var scopes: [String]
        /// The provider supports `requested_flow=app_to_app` (Vipps Login API).
        public var appToApp: Bool
        /// `app_callback_uri` sent with `requested_flow=app_to_app`.
        public var appCallbackUri: String?
        public var claims: ClaimNames
        /// Link a first sign-in to the one local user with that email, only when the provider marks it verified.
        public var linkByVerifiedEmail: Bool
        /// Each call to the provider (discovery, JWKS, token, UserInfo).
        public var timeoutSeconds: Int

        /// Where the provider sends the browser back: `<issuer>/auth/upstream/<id>/callback`.
        public func callbackURL(in configuration: BridgeConfiguration) -> String {
            configuration.issuerURL(path: "/auth/upstream/\(id)/callback")
        }
    }

    /// Which claims fill the local user's name, email and phone number (OpenID Connect Core §5.1 names by default).
    public struct ClaimNames: Sendable, Codable, Hashable {
        public var name: String
        public var email: String
        public var emailVerified: String
        public var phoneNumber: String
    }

    /// Sender-constrained tokens (RFC 9449).
    public struct DPoP: Sendable, Codable, Hashable {
        /// Every proof must carry a nonce from `DPoP-Nonce` (§8, §9); off: freshness is the `iat` window alone.
        public var requireNonce: Bool
    }

    /// OAuth 2.0 for First-Party Applications (draft-ietf-oauth-first-party-apps-04): the authorization challenge
    /// endpoint, for clients with `firstParty: true` only.
    public struct FirstPartyApps: Sendable, Codable, Hashable {
        /// Off: no endpoint and no `authorization_challenge_endpoint` in the metadata.
        public var enabled: Bool
        /// How long the step-up `auth_session` of a token response (draft §6.1) may start a sign-in, at most; never
        /// longer than the refresh token issued with it, and never after its grant is revoked.
        public var stepUpSessionLifetimeSeconds: Int
    }

    /// Attestation-based client authentication (draft-ietf-oauth-attestation-based-client-auth-11).
    public struct ClientAttestation: Sendable, Codable, Hashable {
        public var attesters: [Attester]
        public var clockSkewSeconds: Int
        /// An attestation issued (`iat`) longer ago than this is refused with `use_fresh_attestation` (§7.1).
        public var maxAttestationAgeSeconds: Int
        /// How long after its `iat` a PoP is accepted, and how long its `jti` is remembered (§7.2, §11.1).
        public var proofLifetimeSeconds: Int

        /// A trusted Client Attester: its name and its public keys, inline or in a file.
        public struct Attester: Sendable, Codable, Hashable {
            public var issuer: String
            public var jwks: [[String: String]]?
            public var keyFile: String?
            /// The clients it may vouch for; nil: only clients without a secret (`ClientAttesters.mayVouch`).
            public var clients: [String]?
        }
    }

    /// The session broker for native apps (`/auth/{provider}/login`, `/auth/{provider}/session`).
    public struct Broker: Sendable, Codable, Hashable {
        /// The app's client; nil: the broker is off.
        public var clientId: String?
        public var sessionLifetimeSeconds: Int
        public var loginLifetimeSeconds: Int
    }
}

extension BridgeConfiguration {
    /// `authorization_uri` of the challenge.
    public var authorizationURI: String { office.authorizationUri ?? issuerURL(path: "/oauth2/authorize") }
    /// The deep link of the app-to-app parked page, before its `reference`.
    public var appToAppDeepLink: String { appToApp.deepLink ?? issuerURL(path: "/app-to-app") }
    /// `tokenIssuance_uri` of the challenge.
    public var tokenIssuanceURI: String { office.tokenIssuanceUri ?? issuerURL(path: "/oauth2/token") }

    /// The issuer with `path` appended, without a doubled slash.
    public func issuerURL(path: String) -> String {
        (issuer.hasSuffix("/") ? String(issuer.dropLast()) : issuer) + path
    }
}
