import BridgeStore
import Foundation
import Logging
import SignInProtocol

/// The parked request a page is drawn for: what every interaction page needs (its language, the client's name, the
/// form's action and CSRF token, and the redirect URI the page's CSP must allow).
struct ParkedInteraction: Sendable {
    /// The interaction id (the secret in `/oauth2/interaction/{id}`); "" where no browser takes part.
    let id: String
    let pending: PendingAuthorization
    let client: BridgeConfiguration.Client
    let browserSecret: String
    /// The parked request's store key (`PendingAuthorizationRecord.digest`): the id's digest, or the chain's for
    /// the authorization challenge endpoint, which keeps no id.
    let digest: TokenDigest

    init(
        id: String, pending: PendingAuthorization, client: BridgeConfiguration.Client, browserSecret: String,
        digest: TokenDigest? = nil
    ) {
        self.id = id
        self.pending = pending
        self.client = client
        self.browserSecret = browserSecret
        self.digest = digest ?? TokenDigest(of: id)
    }

    var csrfToken: String { CSRFToken.derive(browserSecret: browserSecret, interactionID: id) }
    var formTarget: String? { PageRenderer.formTarget(for: pending.redirectURI) }
    var actionPrefix: String { BrowserNavigation.interactionPath(id) }
}
