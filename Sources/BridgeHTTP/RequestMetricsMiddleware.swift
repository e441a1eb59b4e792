import Hummingbird

/// Counts requests by method, route and status, and times them (`http_requests_total`,
/// `http_request_duration_seconds`).
package struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    package let metrics: HTTPMetrics

    package init(metrics: HTTPMetrics) { self.metrics = metrics }

    // @inlinable: generic over the server's context, and in another module than the one that picks it, so only a body
    // in the module's interface lets the server's build specialize it for that context as it did when both were one
    // module (docs.swift.org, The Swift Programming Language, "Attributes", inlinable).
    @inlinable
    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
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

    @inlinable
    package func record(_ request: Request, context: Context, status: Int, since start: ContinuousClock.Instant) {
        let route = context.endpointPath ?? "NotFound"  // what Hummingbird's router names a request no route matched
        metrics.countRequest(
            method: request.method.rawValue, route: route, status: status,
            nanoseconds: Int64((ContinuousClock.now - start) / .nanoseconds(1)))
    }
}
