import Foundation

/// Who the client says it is at the token endpoint, and how it said it (RFC 6749 §2.3.1).
///
/// A public client (a native app) sends only `client_id`; a confidential client adds its secret, in an
/// HTTP Basic header (which servers must support) or in the form body.
public struct ClientAuthentication: Sendable, Hashable, CustomStringConvertible {
    public enum Method: String, Sendable, Hashable, Codable {
        /// `Authorization: Basic base64(urlencode(id) ":" urlencode(secret))`.
        case httpBasic = "client_secret_basic"
        /// `client_id` (and `client_secret`) in the form body.
        case requestBody = "client_secret_post"
    }

    public var clientID: String
    public var clientSecret: String?
    public var method: Method

    public init(clientID: String, clientSecret: String? = nil, method: Method = .requestBody) {
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.method = method
    }

    /// Never prints the secret.
    public var description: String {
        "ClientAuthentication(\(clientID), secret: \(clientSecret == nil ? "none" : "set"), \(method.rawValue))"
    }

    /// The `Authorization` header value for `httpBasic`: id and secret are form-url-encoded first, then joined by
    /// `:` and base64-encoded (RFC 6749 §2.3.1), so ids and secrets may contain `:`.
    public var basicAuthorizationHeader: String {
        let pair = PercentEncoding.encode(clientID) + ":" + PercentEncoding.encode(clientSecret ?? "")
        return "Basic " + Data(pair.utf8).base64EncodedString()
    }

    /// Parses an `Authorization: Basic …` header value.
    public static func decode(basicAuthorization header: String, limit: InputLimit = .default) throws(OAuthDecodingError) -> ClientAuthentication {
        do { try limit.check(header, what: "Authorization header") } catch { throw .tooLarge(error) }
        let trimmed = header.drop(while: { $0 == " " })
        guard let space = trimmed.firstIndex(of: " "), trimmed[..<space].asciiLowercased() == "basic" else {
            throw .invalidClientAuthentication(reason: "the Authorization header must use the Basic scheme")
        }
        let token = String(HTTPWhitespace.trimmed(trimmed[trimmed.index(after: space)...]))
        guard let data = Data(base64Encoded: token), let decoded = String(data: data, encoding: .utf8) else {
            throw .invalidClientAuthentication(reason: "the Basic credentials are not base64 of UTF-8 text")
        }
        guard let colon = decoded.firstIndex(of: ":") else {
            throw .invalidClientAuthentication(reason: "the Basic credentials have no ':' between id and secret")
        }
        let id: String
        let secret: String
        do {
            id = try PercentEncoding.decode(decoded[..<colon], plusAsSpace: true)
            secret = try PercentEncoding.decode(decoded[decoded.index(after: colon)...], plusAsSpace: true)
        } catch {
            throw .invalidClientAuthentication(reason: "the Basic credentials are not form-url-encoded: \(error)")
        }
        guard !id.isEmpty else { throw .invalidClientAuthentication(reason: "the Basic credentials have an empty client id") }
        return ClientAuthentication(clientID: id, clientSecret: secret.isEmpty ? nil : secret, method: .httpBasic)
    }

    /// Combines the Basic header (if any) with `client_id`/`client_secret` from the form, refusing two
    /// authentication methods in one request (RFC 6749 §2.3) and ids that disagree.
    public static func decode(form: FormParameters, authorization: String?, limit: InputLimit = .default) throws(OAuthDecodingError) -> ClientAuthentication? {
        try form.rejectDuplicates(of: ["client_id", "client_secret"])
        let formID = form["client_id"].nonEmpty
        let formSecret = form["client_secret"].nonEmpty
        if let authorization, !authorization.isEmpty {
            let basic = try decode(basicAuthorization: authorization, limit: limit)
            if formSecret != nil {
                throw .invalidClientAuthentication(reason: "client credentials sent both in the Authorization header and in the body")
            }
            if let formID, formID != basic.clientID {
                throw .invalidClientAuthentication(reason: "client_id in the body differs from the Authorization header")
            }
            return basic
        }
        if let formID { return ClientAuthentication(clientID: formID, clientSecret: formSecret, method: .requestBody) }
        if formSecret != nil { throw .missingParameter("client_id") }
        return nil
    }
}
