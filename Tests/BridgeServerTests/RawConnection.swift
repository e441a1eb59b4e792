import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP connection to the test server, for what an HTTP client library hides: pipelined requests in one
/// write, exact bytes, connection closing.
/// Its blocking calls run on a thread of their own (`receive`, `isClosedByPeer` are async): blocking a thread of
/// Swift's small cooperative pool would starve the server under test, which runs its handlers there.
final class RawConnection: @unchecked Sendable {
    private let socketFD: Int32

    init(port: Int) throws {
        socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var timeout = timeval(tv_sec: 0, tv_usec: 300_000)
        setsockopt(socketFD, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else { throw POSIXError(.ECONNREFUSED) }
    }

    deinit { close(socketFD) }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(socketFD, $0.baseAddress, $0.count, 0) }
    }

    /// Reads until `count` status lines have arrived and the peer has been quiet for 300 ms (or closed, or 10 s).
    func receive(responses count: Int) async -> String {
        await Self.offThePool { self.blockingReceive(responses: count) }
    }

    func isClosedByPeer() async -> Bool {
        await Self.offThePool {
            var byte: UInt8 = 0
            return recv(self.socketFD, &byte, 1, 0) == 0
        }
    }

    private static func offThePool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: body()) }
        }
    }

    private func blockingReceive(responses count: Int) -> String {
        var received = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        let deadline = Date().addingTimeInterval(10)
        func statusLines() -> Int { String(decoding: received, as: UTF8.self).components(separatedBy: "HTTP/1.1 ").count - 1 }
        while Date() < deadline {
            let n = buffer.withUnsafeMutableBytes { recv(socketFD, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                received += buffer[0..<n]
            } else if n == 0 || statusLines() >= count {
                break
            }
        }
        return String(decoding: received, as: UTF8.self)
    }

}
