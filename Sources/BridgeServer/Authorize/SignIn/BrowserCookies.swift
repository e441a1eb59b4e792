import Foundation
import Hummingbird
import SignInProtocol

/// The two cookies of the sign-in pages: a browser binding (ties a pending request to the browser that started it)
/// and the session. Both `HttpOnly` and `SameSite=Lax` (a cross-site form post carries neither, RFC 6265bis §8.8);
/// `Secure` with the `__Host-` prefix (no Domain, Path=/) unless the issuer is plain http on loopback (development).
struct BrowserCookies: Sendable {
    let secure: Bool
    let sessionLifetimeSeconds: Int

    init(issuer: String, sessionLifetimeSeconds: Int) {
        let url = URL(string: issuer)
        let isLoopbackHTTP = url?.scheme?.lowercased() == "http" && LoopbackHost.isLoopback(url?.host)
        self.secure = !isLoopbackHTTP
        self.sessionLifetimeSeconds = sessionLifetimeSeconds
    }

    var browserName: String { secure ? "__Host-sib_browser" : "sib_browser" }
    var sessionName: String { secure ? "__Host-sib_session" : "sib_session" }

    /// Lives as long as the browser does (no Max-Age): only binds requests started in it.
    func browser(_ value: String) -> Cookie {
        Cookie(name: browserName, value: value, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }

    func session(_ value: String) -> Cookie {
        Cookie(
            name: sessionName, value: value, maxAge: sessionLifetimeSeconds, path: "/", secure: secure, httpOnly: true,
            sameSite: .lax)
    }

    /// Removes the session cookie (RFC 6265 §3.1: a Max-Age of zero expires it at once).
    func endedSession() -> Cookie {
        Cookie(name: sessionName, value: "", maxAge: 0, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }

    func browserSecret(in request: Request) -> String? { Self.secret(request.cookies[browserName]?.value) }
    func sessionSecret(in request: Request) -> String? { Self.secret(request.cookies[sessionName]?.value) }

    /// Only values shaped like our own `SecretToken`s (43 base64url characters) are looked up.
    static func secret(_ value: String?) -> String? {
        guard let value, value.utf8.count == 43,
            value.utf8.allSatisfy({ byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
            })
        else { return nil }
        return value
    }
}
