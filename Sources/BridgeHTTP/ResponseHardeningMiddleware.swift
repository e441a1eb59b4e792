import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// The outermost middleware: turns thrown HTTP errors into responses (so every answer, 404s included, gets the
/// headers), maps anything unexpected to a bare 500 without details, adds the security headers and the request id.
package struct ResponseHardeningMiddleware<Context: RequestContext>: RouterMiddleware {
    package let fields: [HTTPField]

    package init(fields: [HTTPField]) { self.fields = fields }

    // @inlinable: generic over the server's context, and in another module than the one that picks it, so only a body
    // in the module's interface lets the server's build specialize it for that context as it did when both were one
    // module (docs.swift.org, The Swift Programming Language, "Attributes", inlinable).
    @inlinable
    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let response: Response
        do {
            response = try await next(request, context)
        } catch {
            response = try Self.response(for: error, to: request, context: context)
        }
        return Self.hardened(response, fields: fields, context: context)
    }

    // The work around the `await` lives in functions of its own: an async function's frame holds every temporary
    // of its body for the whole request, and a connection keeps its deepest frames allocated while it is open.
    // Inlined here they made this frame 1,968 bytes (the async function pointer's context size).

    @inlinable @inline(never)
    package static func response(for error: any Error, to request: Request, context: Context) throws -> Response {
        switch error {
        case let error as HTTPError:
            // A one-line text answer, as documented (schemas/openapi.yaml "Text"): the router's bare 404 and 405
            // included, rather than an empty body without a type or Hummingbird's `{"error":{"message"}}`.
            var headers = error.headers
            headers[.contentType] = "text/plain; charset=utf-8"
            return Response(
                status: error.status, headers: headers,
                body: .init(byteBuffer: ByteBuffer(string: (error.body ?? error.status.reasonPhrase.lowercased()) + "\n")))
        case let error as any HTTPResponseError:
            return try error.response(from: request, context: context)
        default:
            context.logger.error("unexpected error", metadata: ["error.type": "\(String(reflecting: type(of: error)))"])
            return Response(status: .internalServerError)
        }
    }

    @inlinable @inline(never)
    package static func hardened(_ response: Response, fields: [HTTPField], context: Context) -> Response {
        var response = response
        SecurityHeaders.apply(fields, to: &response.headers)
        if case .string(let id)? = context.logger[metadataKey: "hb.request.id"] {
            response.headers[.xRequestID] = id
        } else if let id = context.logger[metadataKey: "hb.request.id"] {
            response.headers[.xRequestID] = "\(id)"
        }
        return response
    }
}
