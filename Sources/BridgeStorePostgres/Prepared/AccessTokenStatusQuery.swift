import PostgresNIO

/// `accessTokenStatus`'s one statement: the token with its grant. Introspection, `/userinfo` and the exchanges send it
/// for every token whose status is not kept.
struct AccessTokenStatusQuery: PreparedQuery {
    var tokenID: String

    typealias P = Parameter
    enum Parameter: Int, QueryParameter {
        case tokenID = 1
    }

    func bind(_ parameter: Parameter, to bindings: inout PostgresBindings) throws {
        switch parameter {
        case .tokenID: bindings.append(tokenID)
        }
    }

    static let sql = """
        SELECT t.issued_at, t.expires_at, t.revoked_at AS token_revoked_at, \(grantColumns(of: "g"))
        FROM access_tokens t JOIN grants g ON g.id = t.grant_id WHERE t.token_id = \(P.tokenID)
        """
}
