/// The Android side of app-to-app sign-in (Microsoft's app-to-app docs, "Client-side Changes"): Office starts the partner's auth
/// activity with string extras and reads string extras plus an activity result code back.
///
/// Plain data on purpose (a `[String: String]` of extras and an `Int` result code), so an Android bridge, a test
/// harness or the conformance suite can use it without Android types.
public enum AndroidSignInIntent {
    public enum Extra {
        /// The To URL's query without `action`.
        public static let authorizeQuery = "AuthorizeUrlQueryParams"
        public static let userId = "UserId"
        /// The Back URL's query without `action`.
        public static let responseQuery = "ResponseUrlQueryParams"
        /// How Office's own sample and at least one shipping app spell it; read as well, written only on request.
        public static let misspelledResponseQuery = "ResonponseUrlQueryParams"
    }

    /// `Activity.RESULT_OK` (-1), `RESULT_CANCELED` (0), or anything else, which Office treats like a cancel.
    public enum ResultCode: Sendable, Hashable {
        case ok
        case canceled
        case other(Int)

        public init(_ value: Int) {
            switch value {
            case -1: self = .ok
            case 0: self = .canceled
            default: self = .other(value)
            }
        }

        public var value: Int {
            switch self {
            case .ok: -1
            case .canceled: 0
            case .other(let value): value
            }
        }
    }

    /// What Office puts in the intent that starts the partner's auth activity.
    public struct Request: Sendable, Hashable {
        public var query: OfficeAuthorizeQuery
        /// The user Office expects; the partner should sign in this user (or report who it signed in).
        public var userId: String?

        public init(query: OfficeAuthorizeQuery, userId: String? = nil) {
            self.query = query
            self.userId = userId
        }

        public var extras: [String: String] {
            var extras = [Extra.authorizeQuery: query.encoded]
            extras[Extra.userId] = userId
            return extras
        }

        public init(extras: [String: String], limit: InputLimit = .default) throws(AndroidSignInIntentError) {
            guard let text = extras[Extra.authorizeQuery] else { throw .missingExtra(Extra.authorizeQuery) }
            do {
                query = try OfficeAuthorizeQuery(query: text, limit: limit)
            } catch {
                throw .badExtra(Extra.authorizeQuery, error)
            }
            userId = extras[Extra.userId]
        }
    }

    /// What the partner's activity returns: a result code and, normally, the result query and the signed-in user.
    public struct Response: Sendable, Hashable {
        public var resultCode: ResultCode
        /// Nil when the activity finished without a result (the user pressed Back: `RESULT_CANCELED`, no extras).
        public var result: OfficeSignInResult?
        public var userId: String?

        public init(resultCode: ResultCode, result: OfficeSignInResult?, userId: String?) {
            self.resultCode = resultCode
            self.result = result
            self.userId = userId
        }

        /// The documented pairing: `RESULT_OK` with a success, `RESULT_CANCELED` with a failure.
        public init(result: OfficeSignInResult, userId: String?) {
            self.init(resultCode: result.isSuccess ? .ok : .canceled, result: result, userId: userId)
        }

        /// The extras to set on the result intent. `misspelledKey` writes `ResonponseUrlQueryParams` for an Office
        /// build that only reads that spelling.
        public func extras(misspelledKey: Bool = false) -> [String: String] {
            var extras = [String: String]()
            extras[misspelledKey ? Extra.misspelledResponseQuery : Extra.responseQuery] = result?.encoded
            extras[Extra.userId] = userId
            return extras
        }

        /// Reads a result, under either spelling of the key. A success needs `RESULT_OK`, and `RESULT_OK` needs a
        /// success, because Office reads the code only with `RESULT_OK`.
        public init(
            extras: [String: String], resultCode: Int, limit: InputLimit = .default
        ) throws(AndroidSignInIntentError) {
            let code = ResultCode(resultCode)
            let key = extras[Extra.responseQuery] != nil ? Extra.responseQuery : Extra.misspelledResponseQuery
            var result: OfficeSignInResult?
            if let text = extras[key] {
                do { result = try OfficeSignInResult(query: text, limit: limit) } catch { throw .badExtra(key, error) }
            }
            switch (code, result) {
            case (.ok, .success?), (.canceled, .failure?), (.other, .failure?), (.canceled, nil), (.other, nil):
                break
            case (.ok, _):
                throw .resultCodeMismatch(resultCode: resultCode, hasCode: false)
            case (_, .success?):
                throw .resultCodeMismatch(resultCode: resultCode, hasCode: true)
            }
            self.init(resultCode: code, result: result, userId: extras[Extra.userId])
        }

        /// Nil when the users agree (or the request named none); otherwise what Office would report as an error.
        public func userIdMismatch(with request: Request) -> UserIdMismatch? {
            guard let requested = request.userId, requested != userId else { return nil }
            return UserIdMismatch(requested: requested, returned: userId)
        }
    }

    /// The partner signed in someone other than the user Office asked for (or did not say whom).
    public struct UserIdMismatch: Sendable, Hashable, CustomStringConvertible {
        public var requested: String
        public var returned: String?

        public var description: String {
            "Office asked for UserId \"\(requested)\" but the app returned "
                + (returned.map { "\"\($0)\"" } ?? "no UserId")
        }
    }
}

/// Android extras could not be read.
public enum AndroidSignInIntentError: Error, Sendable, Hashable, CustomStringConvertible {
    case missingExtra(String)
    /// The named extra holds a query that does not decode.
    case badExtra(String, OfficeURLError)
    /// `RESULT_OK` without a code, or a code with another result code.
    case resultCodeMismatch(resultCode: Int, hasCode: Bool)

    public var description: String {
        switch self {
        case .missingExtra(let name): "missing extra \(name)"
        case .badExtra(let name, let error): "extra \(name): \(error)"
        case .resultCodeMismatch(let resultCode, let hasCode):
            hasCode
                ? "result code \(resultCode) with a code: Office reads the code only with RESULT_OK (-1)"
                : "RESULT_OK (-1) without a code"
        }
    }
}
