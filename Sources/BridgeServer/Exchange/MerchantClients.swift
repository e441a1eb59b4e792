import Foundation
import SignInProtocol

/// The one rule of exchange codes and token exchange: a user's sign-in moves only between clients of the same
/// merchant (tenant), as SPiD's `/oauth/exchange` requires ("the client must belong to the same merchant", Schibsted
/// SPiD login docs). A client without a `merchant` belongs to none and can neither give nor take.
struct MerchantClients: Sendable {
    let clients: [String: BridgeConfiguration.Client]

    init(_ clients: [BridgeConfiguration.Client]) {
        self.clients = Dictionary(clients.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The target client when it exists and shares `callerID`'s merchant; nil otherwise (one answer for both, so
    /// that a caller cannot probe which client ids exist).
    func sibling(_ targetID: String, of callerID: String) -> BridgeConfiguration.Client? {
        guard let caller = clients[callerID], let target = clients[targetID],
            let merchant = caller.merchant, target.merchant == merchant
        else { return nil }
        return target
    }

    /// The scope the target may hold of `scope`: the values it is registered for (RFC 6749 §3.3 lets the server
    /// narrow a requested scope).
    static func narrowed(_ scope: String, for target: BridgeConfiguration.Client) -> String {
        let allowed = Set(target.scopes)
        return scope.split(separator: " ").map(String.init).filter(allowed.contains).joined(separator: " ")
    }
}
