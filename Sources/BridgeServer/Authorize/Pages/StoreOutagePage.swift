import BridgeHTTP
import Foundation
import Hummingbird
import SignInProtocol

/// The page for a step whose store call failed with an outage (`StoreUnavailable`: the database down, busy or timed
/// out): 503 with `Retry-After` (RFC 9110 §15.6.4). Any other error is the server's own fault: logged with its type
/// and thrown on, so the framework answers 500 without a body (RFC 9110 §15.6.1); never the outage page. HTTP errors
/// the framework raises (a body over its limit) pass through unchanged.
struct StoreOutagePage: Sendable {
    let pages: PageRenderer

    func answer(
        _ request: Request, _ context: BridgeRequestContext, _ body: () async throws -> Response
    ) async throws -> Response {
        do {
            return try await body()
        } catch let error as any HTTPResponseError {
            throw error
        } catch let outage as StoreUnavailable {
            context.logger.error("sign-in step failed in the store", metadata: ["reason": "\(outage.reason)"])
            return self.outage(request)
        } catch {
            context.logger.error(
                "sign-in step failed", metadata: ["error": "\(String(reflecting: type(of: error)))", "path": "\(request.uri.path)"])
            throw error
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
