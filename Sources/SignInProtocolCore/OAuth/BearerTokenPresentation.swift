/// How a request to a protected resource presents its access token (RFC 6750 §2): in the `Authorization` header
/// (§2.1) or, where the resource accepts it, in a form field (SPiD's `oauth_token`, like §2.2's `access_token`).
///
/// A resource judges this before anything else in the request (RFC 6750 §3): `none` is answered with the bare
/// challenge, `twoMethods` with `invalid_request`, and only a `token` goes on to be verified.
public enum BearerTokenPresentation: Sendable, Hashable {
    /// No token: no header, a blank or malformed one, another scheme such as `Basic` (§3.1 treats an unsupported
    /// scheme as no authentication), and no non-empty form field.
    case none
    case token(String, in: ExchangeRequest.TokenPlacement)
    /// A bearer token in the header and one in the form: §2 says a client MUST NOT use more than one method.
    case twoMethods

    /// `formToken` is the form field's value, nil where the resource reads no form field; `acceptsDPoP`: a token of
    /// the `DPoP` scheme (RFC 9449 §7.1) counts as presented too.
    public init(authorization: String?, formToken: String?, maxHeaderBytes: Int, acceptsDPoP: Bool = false) {
        let header: (BearerCredential, ExchangeRequest.TokenPlacement)? =
            if let bearer = BearerCredential(authorization: authorization, maxBytes: maxHeaderBytes) {
                (bearer, .bearerHeader)
            } else if acceptsDPoP, let dpop = BearerCredential(authorization: authorization, maxBytes: maxHeaderBytes, scheme: .dpop) {
                (dpop, .dpopHeader)
            } else {
                nil
            }
        switch (header, formToken.nonEmpty) {
        case (let (header, placement)?, nil): self = .token(header.token, in: placement)
        case (nil, let form?): self = .token(form, in: .formField)
        case (.some, .some): self = .twoMethods
        case (nil, nil): self = .none
        }
    }
}
