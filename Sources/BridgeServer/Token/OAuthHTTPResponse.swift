import BridgeStore
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import SignInProtocol

/// The bytes of OAuth endpoint answers.
enum OAuthHTTPResponse {
    static let pragma = HTTPField.Name("Pragma")!

    static func json(_ body: [UInt8], status: HTTPResponse.Status = .ok) -> Response {
        let headers: HTTPFields = [
            .contentType: "application/json", .cacheControl: "no-store", pragma: "no-cache",
        ]
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// RFC 7009 §2.2: 200 with nothing to say.
    static func empty() -> Response {
        Response(status: .ok, headers: [.cacheControl: "no-store", pragma: "no-cache"])
    }

    /// RFC 6749 §5.2: 400, or 401 with a Basic challenge for `invalid_client` (the client may retry with HTTP Basic).
    static func error(_ error: OAuthError, realm: String) -> Response {
        let status: HTTPResponse.Status =
            switch error.httpStatus {
            case 401: .unauthorized
            case 403: .forbidden
            case 503: .serviceUnavailable
            case 500: .internalServerError
            default: .badRequest
            }
        var response = json(Array(error.json.utf8), status: status)
        addChallenge(for: error, realm: realm, to: &response)
        return response
    }

    /// The headers an error answer carries beside its body: a challenge with a 401, `Retry-After` with a 503.
    static func addChallenge(for error: OAuthError, realm: String, to response: inout Response) {
        if error.code == .invalidToken {
            // RFC 6750 §3: a refused bearer token (the exchange endpoint's) is answered with a Bearer challenge.
            response.headers[.wwwAuthenticate] = #"Bearer realm="\#(realm)", error="invalid_token""#
        }
        if [.invalidClient, .invalidClientAttestation, .useFreshAttestation].contains(error.code) {
            // RFC 9110 §15.5.2: a 401 carries a challenge; the attestation draft defines no scheme of its own.
            response.headers[.wwwAuthenticate] = #"Basic realm="\#(realm)", charset="UTF-8""#
        }
        if error.code == .temporarilyUnavailable { response.headers[.retryAfter] = StoreOutage.retryAfterSeconds }
    }
}
