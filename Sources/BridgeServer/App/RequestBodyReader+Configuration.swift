import BridgeHTTP
import SignInProtocol

extension RequestBodyReader {
    /// The server's reader: at most `limits.maxBodyBytes`.
    init(_ configuration: BridgeConfiguration) { self.init(maxBytes: configuration.limits.maxBodyBytes) }
}

extension RequestBodyError {
    /// RFC 6749 §5.2 / RFC 6750 §3.1: a request the server cannot read is `invalid_request`.
    var oauthError: OAuthError { .invalidRequest(description) }
}
