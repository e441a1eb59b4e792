import Foundation

/// Whether Microsoft's cloud can reach a token endpoint by its name: Office's identity service redeems the code at
/// `tokenIssuance_uri` from the internet (Microsoft 365 for mobile, "Operational flows"), so a name that resolves only
/// to loopback, private (RFC 1918, RFC 4193), shared (RFC 6598) or link-local (RFC 3927, RFC 4291 §2.5.6) addresses
/// works in a lab and fails for every user. Pure: the addresses are resolved by the caller.
struct TokenEndpointReachability: Sendable, Equatable {
    enum Verdict: Sendable, Equatable {
        /// At least one public address.
        case publicAddress
        /// Loopback only, and the run allows loopback http (development).
        case developmentLoopback
        /// Only addresses the internet cannot reach (listed).
        case privateOnly([String])
        /// The name did not resolve at all.
        case unresolved
    }

    static func verdict(addresses: [String], allowLoopback: Bool) -> Verdict {
        guard !addresses.isEmpty else { return .unresolved }
        let kinds = addresses.map(kind(of:))
        if kinds.contains(.public) { return .publicAddress }
        if allowLoopback, kinds.allSatisfy({ $0 == .loopback }) { return .developmentLoopback }
        return .privateOnly(addresses)
    }

    enum Kind: Sendable, Equatable {
        case loopback, nonPublic, `public`
    }

    /// The kind of one textual IPv4 or IPv6 address; text that is neither counts as public (nothing to judge).
    static func kind(of address: String) -> Kind {
        if let v4 = ipv4(address) { return kind(ofIPv4: v4) }
        guard let v6 = ipv6(address) else { return .public }
        if v6 == [UInt8](repeating: 0, count: 15) + [1] { return .loopback }  // ::1
        if v6.prefix(10).allSatisfy({ $0 == 0 }), v6[10] == 0xff, v6[11] == 0xff {  // ::ffff:a.b.c.d (RFC 4291 §2.5.5.2)
            return kind(ofIPv4: Array(v6.suffix(4)))
        }
        if v6[0] & 0xfe == 0xfc { return .nonPublic }  // fc00::/7, unique local (RFC 4193)
        if v6[0] == 0xfe, v6[1] & 0xc0 == 0x80 { return .nonPublic }  // fe80::/10, link-local
        if v6.allSatisfy({ $0 == 0 }) { return .nonPublic }  // ::
        return .public
    }

    private static func kind(ofIPv4 b: [UInt8]) -> Kind {
        switch (b[0], b[1]) {
        case (127, _): return .loopback
        case (10, _), (0, _): return .nonPublic
        case (172, 16...31), (192, 168), (169, 254): return .nonPublic
        case (100, 64...127): return .nonPublic  // shared address space, RFC 6598
        default: return .public
        }
    }

    private static func ipv4(_ text: String) -> [UInt8]? {
        var address = in_addr()
        guard inet_pton(AF_INET, text, &address) == 1 else { return nil }
        return withUnsafeBytes(of: &address) { Array($0) }
    }

    private static func ipv6(_ text: String) -> [UInt8]? {
        var address = in6_addr()
        let bare = text.hasPrefix("[") && text.hasSuffix("]") ? String(text.dropFirst().dropLast()) : text
        guard inet_pton(AF_INET6, bare, &address) == 1 else { return nil }
        return withUnsafeBytes(of: &address) { Array($0) }
    }

    /// The addresses `host` resolves to (an address literal is itself), through the system resolver.
    static func resolve(_ host: String) async -> [String] {
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        if ipv4(bare) != nil || ipv6(bare) != nil { return [bare] }
        return await withCheckedContinuation { continuation in
            // getaddrinfo blocks: it runs on its own thread, never on the cooperative pool.
            Thread.detachNewThread { continuation.resume(returning: lookup(bare)) }
        }
    }

    private static func lookup(_ host: String) -> [String] {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return [] }
        defer { freeaddrinfo(first) }
        var found = [String]()
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            if current.pointee.ai_family == AF_INET {
                current.pointee.ai_addr.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { sin in
                    var address = sin.pointee.sin_addr
                    _ = inet_ntop(AF_INET, &address, &text, socklen_t(text.count))
                }
            } else if current.pointee.ai_family == AF_INET6 {
                current.pointee.ai_addr.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { sin6 in
                    var address = sin6.pointee.sin6_addr
                    _ = inet_ntop(AF_INET6, &address, &text, socklen_t(text.count))
                }
            }
            let address = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if !address.isEmpty, !found.contains(address) { found.append(address) }
            entry = current.pointee.ai_next
        }
        return found
    }
}
