extension WopiAccessTokenVerifier.Rejection {
    /// The RFC 6750 §3.1 refusal of a rejected WOPI token, with the reason a host engineer reads in
    /// `error_description` (never the token itself): the one definition for the ecosystem and forward auth. nil for
    /// `wrongResource`, which each answers its own way (the ecosystem 404, forward auth 403 `insufficient_scope`).
    var bearerRefusal: BearerRefusal? {
        switch self {
        case .malformed(.tooLong(let bytes, let limit)):
            .request(.invalidRequest("the WOPI access token is \(bytes) bytes, over the limit of \(limit)"))
        case .malformed(.malformed(let part)): .invalidToken("the WOPI access token's \(part) is malformed")
        case .malformed(.unknownKey), .malformed(.badSeal): .invalidToken("the WOPI access token was not sealed by this server")
        case .expired: .invalidToken("the WOPI access token has expired")
        case .revoked: .invalidToken("the WOPI access token's grant was revoked")
        case .unknownGrant: .invalidToken("the WOPI access token's grant is unknown")
        case .unknownUser: .invalidToken("the WOPI access token's user no longer exists")
        case .wrongResource: nil
        case .storeUnavailable: .storeUnavailable
        case .storeFault: .request(.serverFault)
        }
    }
}
