import BridgeStore
import CoreMetrics
import Hummingbird
import NIOConcurrencyHelpers
import Prometheus

/// Counts requests by method, route and status, and times them (`http_requests_total`,
/// `http_request_duration_seconds`).
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: BridgeMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            record(request, context: context, status: response.status.code, since: start)
            return response
        } catch {
            // The router's 404 and 405, and any other error answered further out, count under the status it gets.
            record(request, context: context, status: (error as? any HTTPResponseError)?.status.code ?? 500, since: start)
            throw error
        }
    }

    func record(_ request: Request, context: Context, status: Int, since start: ContinuousClock.Instant) {
        let route = context.endpointPath ?? "NotFound"  // what Hummingbird's router names a request no route matched
        metrics.countRequest(
            method: request.method.rawValue, route: route, status: status,
            nanoseconds: Int64((ContinuousClock.now - start) / .nanoseconds(1)))
    }
}
