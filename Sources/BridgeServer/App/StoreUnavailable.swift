import BridgeStore
import Logging
import SignInProtocol

/// A store call that could not be answered now: the database down, busy, closed or lost mid-call. Every answer kind
/// renders it as 503 with `Retry-After` (RFC 9110 §15.6.4); `reason` is for the log and never goes on the wire.
struct StoreUnavailable: Error, Sendable, CustomStringConvertible {
    let reason: String

    var description: String { "the store is unavailable: \(reason)" }

    init(reason: String) { self.reason = reason }

    /// The one rule: `StoreError.unavailable` and `.closed`, and a driver error the store left unclassified (a busy
    /// SQLite database, a PostgreSQL error on a leased connection), are outages; `duplicate` and `missingReference`
    /// are the server's own fault, a `StoreColumnError` a database changed outside the server (trying again cannot
    /// help), and a cancelled call is nobody's, so those stay what they are (a 500, or nothing).
    init?(classifying error: any Error) {
        switch error {
        case is StoreUnavailable: return nil
        case is CancellationError: return nil
        case is StoreColumnError: return nil
        case StoreError.duplicate, StoreError.missingReference: return nil
        case let error as StoreError: reason = error.description
        default: reason = String(reflecting: type(of: error))
        }
    }
}

/// Runs one store call. An outage (`StoreUnavailable(classifying:)`) is thrown as `StoreUnavailable`; any other error
/// is thrown unchanged, so a fault of the server's own stays a 500. Wrap the store call alone, never signing or
/// encoding: what the closure throws is taken for the store's.
@discardableResult
func callStore<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch {
        if let outage = StoreUnavailable(classifying: error) { throw outage }
        throw error
    }
}

/// A typed error a store call's failure becomes: the outage as the caller's 503 case, any other fault as its 500.
protocol StoreCallFailure: Error {
    init(_ outage: StoreUnavailable)
    init(storeFault: any Error)
}

/// `callStore` for a service with a typed error; a fault that is not an outage is logged with its type.
@discardableResult
func callStore<T, Failure: StoreCallFailure>(
    failingAs failure: Failure.Type, _ body: () async throws -> T
) async throws(Failure) -> T {
    try await classified(failingAs: failure) { try await callStore(body) }
}

/// For work that wraps its own store calls in `callStore` and does more (a password check: a read, bcrypt, a
/// write): only the `StoreUnavailable` it throws is an outage; anything else is a fault, logged with its type.
func classified<T, Failure: StoreCallFailure>(
    failingAs _: Failure.Type, _ body: () async throws -> T
) async throws(Failure) -> T {
    do {
        return try await body()
    } catch let outage as StoreUnavailable {
        throw Failure(outage)
    } catch {
        StoreFaultLog.record(error)
        throw Failure(storeFault: error)
    }
}

/// The log line of a store fault that is not an outage, for services without a request's logger.
enum StoreFaultLog {
    static let logger = Logger(label: "signin-bridge.store")

    static func record(_ error: any Error) {
        logger.error("failed, and not a store outage", metadata: ["error": "\(String(reflecting: type(of: error)))"])
    }
}

extension OAuthError: StoreCallFailure {
    /// RFC 6749 §5.2 `temporarily_unavailable` (503, `Retry-After` from `OAuthHTTPResponse.error`).
    init(_ outage: StoreUnavailable) { self = .storeUnavailable }

    /// `server_error` (RFC 6749 §4.1.2.1's name for it), 500: the server failed, not the store's availability.
    init(storeFault: any Error) { self = .serverFault }

    static var storeUnavailable: OAuthError {
        OAuthError(.temporarilyUnavailable, description: "the store is unavailable, try again")
    }

    static var serverFault: OAuthError { OAuthError(.serverError, description: "the server could not answer") }
}

extension BearerRefusal: StoreCallFailure {
    /// 503 `temporarily_unavailable` with `Retry-After` (`BearerChallenge.response`).
    init(_ outage: StoreUnavailable) { self = .storeUnavailable }

    /// 500 `server_error`, never a refusal of the token.
    init(storeFault: any Error) { self = .request(.serverFault) }
}
