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
                return Self.response(try await self.services.wopiForwardAuth.check(forwarded))
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
        let headers: HTTPFields = [
            .wopiUserID: fieldValue(answer.userID), .wopiSignInName: fieldValue(answer.signInName),
            .wopiTokenExpiry: String(answer.tokenExpiry), .wopiClientID: fieldValue(answer.clientID),
            .wopiSrc: fieldValue(answer.wopiSource), .cacheControl: "no-store",
        ]
        return Response(status: .ok, headers: headers)
    }

    /// Printable ASCII as it is; `%` and any other byte percent-encoded (RFC 3986 §2.1), so a name in any script
    /// crosses the proxy intact and any URL decoder that leaves `+` alone gives it back.
    static func fieldValue(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: printableASCII) ?? ""
    }

    private static let printableASCII = CharacterSet(charactersIn: Unicode.Scalar(0x20)...Unicode.Scalar(0x7E))
        .subtracting(CharacterSet(charactersIn: "%"))
}

/// The fields the forward-auth check's 200 carries for the proxy to copy onto the request (docs/wopi-hosts.md).
extension HTTPField.Name {
    static let wopiUserID = Self("X-WOPI-User-Id")!
    static let wopiSignInName = Self("X-WOPI-Sign-In-Name")!
    static let wopiTokenExpiry = Self("X-WOPI-Token-Expiry")!
    static let wopiClientID = Self("X-WOPI-Client-Id")!
}
