import Foundation
import HTTPTypes
import NIOCore

/// Which client address the sign-in throttle counts failures against. Behind a reverse proxy every connection comes
/// from the proxy, so one attacker would lock everyone out: for connections from `listen.trustedProxies` the
/// address is taken from `X-Forwarded-For`, read from the right and skipping further trusted proxies (an entry a
/// client wrote itself sits to the left of what our proxies appended, so it cannot be chosen).
package struct ClientAddress: Sendable {
    package let trustedProxies: [IPAddressRange]

    package init(trustedProxies: [IPAddressRange]) { self.trustedProxies = trustedProxies }

    package static let forwardedForField = HTTPField.Name("X-Forwarded-For")!

    /// X-Forwarded-For is read up to this many entries from the right; a longer chain is someone's invention.
    package static let maxHops = 20

    package func resolve(peer: String?, forwardedFor: [String]) -> String {
        guard let peer else { return "unknown" }
        guard isTrusted(peer) else { return peer }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        var candidate = peer
        for hop in hops.reversed().prefix(Self.maxHops) {
            guard IPAddressRange.addressBytes(hop) != nil else { return candidate }  // garbage: stop at what we know
            candidate = hop
            if !isTrusted(hop) { return hop }
        }
        return candidate
    }

    package func isTrusted(_ address: String) -> Bool {
        guard !trustedProxies.isEmpty, let bytes = IPAddressRange.addressBytes(address) else { return false }
        return trustedProxies.contains { $0.contains(bytes) }
    }
}
