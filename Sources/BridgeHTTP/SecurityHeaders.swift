import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// Headers every response carries (OWASP secure headers): no MIME sniffing, no framing, no referrer, a CSP that
/// allows nothing (the sign-in and consent pages set their own, stricter-than-default one), and `no-store` unless a
/// route chose its own caching (tokens must never be cached, RFC 6749 §5.1).
package enum SecurityHeaders {
    package static let contentSecurityPolicy = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

    package static func fields(https: Bool) -> [HTTPField] {
        var fields: [HTTPField] = [
            HTTPField(name: .cacheControl, value: "no-store"),
            HTTPField(name: .xContentTypeOptions, value: "nosniff"),
            HTTPField(name: .contentSecurityPolicy, value: contentSecurityPolicy),
            HTTPField(name: .referrerPolicy, value: "no-referrer"),
            HTTPField(name: .xFrameOptions, value: "DENY"),
        ]
        if https {
            fields.append(HTTPField(name: .strictTransportSecurity, value: "max-age=31536000"))
        }
        return fields
    }

    /// Adds each field the response does not set itself. Inlinable: it runs on every response, from the server's module.
    @inlinable
    package static func apply(_ fields: [HTTPField], to headers: inout HTTPFields) {
        for field in fields where headers[field.name] == nil { headers.append(field) }
    }
}

extension HTTPField.Name {
    package static let xContentTypeOptions = Self("X-Content-Type-Options")!
    package static let referrerPolicy = Self("Referrer-Policy")!
    package static let xFrameOptions = Self("X-Frame-Options")!
    package static let xRequestID = Self("X-Request-Id")!
}

/// Refuses oversized input before any route sees it: a header value over the configured limit gets 431
/// (RFC 6585 §5), a declared body over the limit 413 (RFC 9110 §15.5.14). Bodies without a length are limited by
/// the routes that read them (`collect(upTo:)`).
package struct RequestLimitsMiddleware<Context: RequestContext>: RouterMiddleware {
    package let maxHeaderValueBytes: Int
    package let maxBodyBytes: Int

    package init(maxHeaderValueBytes: Int, maxBodyBytes: Int) {
        self.maxHeaderValueBytes = maxHeaderValueBytes
        self.maxBodyBytes = maxBodyBytes
    }

    @inlinable  // generic over the context: see ResponseHardeningMiddleware.handle
    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        for field in request.headers where field.value.utf8.count > maxHeaderValueBytes {
            throw HTTPError(
                .init(code: 431, reasonPhrase: "Request Header Fields Too Large"),
                message: "header \(field.name.canonicalName) is over \(maxHeaderValueBytes) bytes")
        }
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > maxBodyBytes {
            throw HTTPError(.contentTooLarge, message: "the request body is over \(maxBodyBytes) bytes")
        }
        return try await next(request, context)
    }
}

/// One log line per request at info: method, path without query (WOPI URLs carry tokens in the query), status and
/// duration. Never headers, never bodies.
package struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    package init() {}

    @inlinable  // generic over the context: see ResponseHardeningMiddleware.handle
    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        Self.log(request, status: response.status, since: start, logger: context.logger)
        return response
    }

    /// Outside `handle`, so that its temporaries are not part of the async frame (see ResponseHardeningMiddleware).
    @inline(never)
    package static func log(_ request: Request, status: HTTPResponse.Status, since start: ContinuousClock.Instant, logger: Logger) {
        RequestLogLine.write(
            method: request.method.rawValue, path: request.uri.path, status: status.code,
            duration: LogDuration(ContinuousClock.now - start), requestID: nil, logger: logger)
    }
}

/// The request log line: the router's (`RequestLogMiddleware`) and that of an answer written before the router
/// (by a pipeline handler), so both read alike.
package enum RequestLogLine {
    /// `requestID` is for a logger that does not carry one (the pipeline's); the router's loggers do.
    /// Values stay unformatted (the status, the duration, the request id) until LogLineWriter's thread prints them.
    package static func write(
        method: String, path: String, status: Int, duration: LogDuration, requestID: (any CustomStringConvertible & Sendable)?,
        logger: Logger
    ) {
        var metadata: Logger.Metadata = [
            "method": .string(method), "path": .string(path), "status": .stringConvertible(status),
            "duration_ms": .stringConvertible(duration),
        ]
        if let requestID { metadata["hb.request.id"] = .stringConvertible(requestID) }
        logger.info("request", metadata: metadata)
    }
}
