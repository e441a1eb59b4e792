import BridgeHTTP
import Foundation
import HTTPTypes
import Hummingbird
import SignInProtocol

/// `/wopi/auth`: the forward-auth check a reverse proxy in front of a WOPI host asks before it passes a request on
/// (`WopiForwardAuthEndpoint`, docs/wopi-hosts.md). GET and POST, since nginx's sub-request keeps the original
/// method and Envoy's `ext_authz` sends it; below the path, the original path for Envoy's `path_prefix`.
extension BridgeRoutes {
    func registerWopiForwardAuth(on router: Router<BridgeRequestContext>) {
        let challenge = BearerChallenge(realm: configuration.issuer)
        let handler: @Sendable (Request, BridgeRequestContext) async -> Response = { request, context in
            let forwarded = ForwardedWopiRequest(
                headers: request.headers, path: request.head.path ?? "", method: request.method.rawValue)
            do throws(BearerRefusal) {
                // Only a check of exactly /wopi/auth is answered from a remembered pass (`WopiForwardAuthPipeline`).
                let remember = request.head.path == WopiForwardAuthEndpoint.path
                return Self.response(try await self.services.wopiForwardAuth.check(forwarded, remember: remember))
            } catch {
                if error == .storeUnavailable {
                    context.logger.error("WOPI forward auth: store unavailable")
                } else {
                    context.logger.debug("WOPI forward auth refused", metadata: ["refusal": "\(error)"])
                }
                return challenge.response(error)
            }
        }
        for path in [WopiForwardAuthEndpoint.path, WopiForwardAuthEndpoint.path + "/**"] {
            router.get(RouterPath(path), use: handler)
            router.post(RouterPath(path), use: handler)
        }
    }

    /// 200 with the fields the proxy copies onto the request it passes on; no body, and never cached.
    static func response(_ answer: WopiForwardAuthAnswer) -> Response {
        Response(status: .ok, headers: answer.headerFields)
    }

    /// Printable ASCII as it is; `%` and any other byte percent-encoded (RFC 3986 §2.1), so a name in any script
    /// crosses the proxy intact and any URL decoder that leaves `+` alone gives it back.
    /// On UTF-8 bytes: Foundation's `addingPercentEncoding` was 4.9% of a forward-auth check's CPU (`perf record`,
    /// scripts/bench/wopi-forward-auth.sh), for values that are nearly always plain ASCII and returned as they are.
    static func fieldValue(_ value: String) -> String {
        func kept(_ byte: UInt8) -> Bool { byte >= 0x20 && byte <= 0x7E && byte != UInt8(ascii: "%") }
        guard !value.utf8.allSatisfy(kept) else { return value }
        let hex = Array("0123456789ABCDEF".utf8)
        var encoded: [UInt8] = []
        encoded.reserveCapacity(value.utf8.count * 3)
        for byte in value.utf8 {
            if kept(byte) {
                encoded.append(byte)
            } else {
                encoded += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }
}

extension WopiForwardAuthAnswer {
    /// The route's and the pipeline's (`WopiForwardAuthPipeline`) fields of the 200.
    var headerFields: HTTPFields {
        [
            .wopiUserID: BridgeRoutes.fieldValue(userID), .wopiSignInName: BridgeRoutes.fieldValue(signInName),
            .wopiTokenExpiry: String(tokenExpiry), .wopiClientID: BridgeRoutes.fieldValue(clientID),
            .wopiSrc: BridgeRoutes.fieldValue(wopiSource), .cacheControl: "no-store",
        ]
    }
}

/// The fields the forward-auth check's 200 carries for the proxy to copy onto the request (docs/wopi-hosts.md).
extension HTTPField.Name {
    static let wopiUserID = Self("X-WOPI-User-Id")!
    static let wopiSignInName = Self("X-WOPI-Sign-In-Name")!
    static let wopiTokenExpiry = Self("X-WOPI-Token-Expiry")!
    static let wopiClientID = Self("X-WOPI-Client-Id")!
}
