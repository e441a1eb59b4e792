/// An app's request for a one-time code that a sibling client of the same merchant can redeem for the same
/// user (SPiD `POST /oauth/exchange`, Schibsted SPiD login docs): `clientId` (the target), `type`, and the user's access token,
/// in the `oauth_token` form field as SPiD's SDKs send it or in an `Authorization: Bearer` header.
///
/// The standard form of the same idea is RFC 8693 token exchange (`TokenRequest.Grant.tokenExchange`).
public struct ExchangeRequest: Sendable, Hashable, CustomStringConvertible {
    /// Where the user's token travels.
    public enum TokenPlacement: String, Sendable, Hashable, Codable {
        /// `oauth_token=…` in the form body (SPiD).
        case formField
        /// `Authorization: Bearer …` (RFC 6750 §2.1), which keeps the token out of bodies that get logged.
        case bearerHeader
        /// `Authorization: DPoP …` with a proof in the `DPoP` header (RFC 9449 §7.1).
        case dpopHeader
    }

    /// `clientId`: the client that will redeem the code.
    public var targetClientID: String
    public var type: ExchangeCodeType
    /// The user's access token, issued to the calling app.
    public var userToken: String
    public var tokenPlacement: TokenPlacement
    public var additionalParameters: FormParameters

    public init(
        targetClientID: String, type: ExchangeCodeType, userToken: String, tokenPlacement: TokenPlacement = .bearerHeader,
        additionalParameters: FormParameters = FormParameters()
    ) {
        self.targetClientID = targetClientID
        self.type = type
        self.userToken = userToken
        self.tokenPlacement = tokenPlacement
        self.additionalParameters = additionalParameters
    }

    /// Never prints the token.
    public var description: String {
        "ExchangeRequest(clientId: \(targetClientID), type: \(type.rawValue), token in \(tokenPlacement.rawValue))"
    }

    static let known = ["clientId", "type", "oauth_token"]

    // MARK: Decoding

    /// Decodes the form body and the `Authorization` header value, if the request had one.
    public static func decode(
        form body: some StringProtocol, authorization: String? = nil, limit: InputLimit = .default
    ) throws(OAuthDecodingError) -> ExchangeRequest {
        let form = try FormParameters.decodeForOAuth(body, limit: limit, what: "exchange request")
        return try decode(form, authorization: authorization, limit: limit)
    }

    public static func decode(
        _ form: FormParameters, authorization: String? = nil, limit: InputLimit = .default
    ) throws(OAuthDecodingError) -> ExchangeRequest {
        try form.rejectDuplicates(of: known)
        let target = try form.required("clientId")
        let rawType = try form.required("type")
        guard let type = ExchangeCodeType(rawValue: rawType) else {
            throw .invalidParameter("type", reason: "must be 'code' or 'session'")
        }
        let token: String
        let placement: TokenPlacement
        switch BearerTokenPresentation(
            authorization: authorization, formToken: form["oauth_token"], maxHeaderBytes: limit.maxBytes, acceptsDPoP: true)
        {
        case .token(let value, let place): (token, placement) = (value, place)
        case .twoMethods:
            throw .invalidParameter("oauth_token", reason: "the token was also sent in the Authorization header (RFC 6750 section 2)")
        case .none:
            throw .missingParameter("oauth_token")
        }
        return ExchangeRequest(
            targetClientID: target, type: type, userToken: token, tokenPlacement: placement,
            additionalParameters: form.excluding(Set(known)))
    }

    // MARK: Encoding

    /// The form body's parameters; `oauth_token` only when the token travels in the body.
    public var form: FormParameters {
        var form = FormParameters()
        form.append("clientId", targetClientID)
        form.append("type", type.rawValue)
        if tokenPlacement == .formField { form.append("oauth_token", userToken) }
        form.append(contentsOf: additionalParameters)
        return form
    }

    public var formBody: String { form.encoded }

    /// `Bearer <token>` or `DPoP <token>` when the token travels in the header, else nil.
    public var authorizationHeader: String? {
        switch tokenPlacement {
        case .bearerHeader: "Bearer " + userToken
        case .dpopHeader: "DPoP " + userToken
        case .formField: nil
        }
    }
}
