import BridgeHTTP
import Foundation
import Hummingbird
import SignInProtocol

/// The page for a step whose store call failed (the database is down or timed out): 503 with `Retry-After`
/// (RFC 9110 §15.6.4), never a 500. HTTP errors the framework raises (a body over its limit) pass through unchanged.
struct StoreOutagePage: Sendable {
    let pages: PageRenderer

    func answer(
        _ request: Request, _ context: BridgeRequestContext, _ body: () async throws -> Response
    ) async throws -> Response {
        do {
            return try await body()
        } catch let error as any HTTPResponseError {
            throw error
        } catch {
            context.logger.error("sign-in step failed in the store", metadata: ["error": "\(String(reflecting: type(of: error)))"])
            return outage(request)
        }
    }

    /// The one page answer to a store outage, also for the endpoints that report one as a typed error.
    func outage(_ request: Request) -> Response {
        var response = pages.error(
            PageLanguage.negotiate(culture: nil, acceptLanguage: request.headers[.acceptLanguage]),
            status: .serviceUnavailable, message: \.unavailable)
        response.headers[.retryAfter] = StoreOutage.retryAfterSeconds
        return response
    }
}
