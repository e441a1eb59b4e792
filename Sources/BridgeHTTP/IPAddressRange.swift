import Foundation
import HTTPTypes
import NIOCore

/// An IPv4 or IPv6 address, or a CIDR block of them (`10.0.0.0/8`, `fd00::/8`, `203.0.113.7`).
package struct IPAddressRange: Sendable, Hashable, CustomStringConvertible {
    package let bytes: [UInt8]  // 4 or 16
    package let prefixLength: Int

    package init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = parts.first, let bytes = Self.addressBytes(address) else { return nil }
        let maxLength = bytes.count * 8
        var prefixLength = maxLength
        if parts.count == 2 {
            guard let length = Int(parts[1]), (0...maxLength).contains(length), parts[1].allSatisfy(\.isASCII) else {
                return nil
            }
            prefixLength = length
        }
        self.bytes = bytes
        self.prefixLength = prefixLength
    }

    package func contains(_ address: [UInt8]) -> Bool {
        guard address.count == bytes.count else { return false }
        var remaining = prefixLength
        for (mine, theirs) in zip(bytes, address) where remaining > 0 {
            let bits = min(8, remaining)
            let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
            if mine & mask != theirs & mask { return false }
            remaining -= bits
        }
        return true
    }

    package var description: String { "\(bytes.map(String.init).joined(separator: bytes.count == 4 ? "." : ":"))/\(prefixLength)" }

    /// The 4 or 16 bytes of a textual IP address (NIO's parser, so the same rules as the listener's), with IPv4
    /// addresses mapped into IPv6 (`::ffff:10.0.0.1`) read as IPv4.
    package static func addressBytes(_ text: some StringProtocol) -> [UInt8]? {
        let trimmed = String(text)
        guard !trimmed.isEmpty, trimmed.utf8.count <= 64, let address = try? SocketAddress(ipAddress: trimmed, port: 0)
        else { return nil }
        switch address {
        case .v4(let v4):
            return withUnsafeBytes(of: v4.address.sin_addr) { Array($0) }
        case .v6(let v6):
            let bytes = withUnsafeBytes(of: v6.address.sin6_addr) { Array($0) }
            if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
                return Array(bytes[12...])
            }
            return bytes
        case .unixDomainSocket:
            return nil
        }
    }
}
