import BridgeHTTP
import Foundation
import Hummingbird
import SignInProtocol

/// The route of a browser-facing step: reads the request into a `BrowserRequest` (a `POST`'s form through the one
/// body reader), asks the step, and draws its `BrowserAnswer` with `InteractionRenderer`; a store outage is the
/// outage page.
struct BrowserRoute: Sendable {
    let guarded: StoreOutagePage
    let renderer: InteractionRenderer
    let bodies: RequestBodyReader

    func answer(
        _ request: Request, _ context: BridgeRequestContext, clientAddress: ClientAddress? = nil,
        _ step: (BrowserRequest) async throws -> BrowserAnswer
    ) async throws -> Response {
        try await guarded.answer(request, context) {
            let input = await read(request, context, clientAddress: clientAddress)
            return renderer.response(try await step(input), method: request.method, logger: context.logger)
        }
    }

    func read(_ request: Request, _ context: BridgeRequestContext, clientAddress: ClientAddress?) async -> BrowserRequest {
        let cookies = renderer.pages.cookies
        var input = BrowserRequest(
            method: request.method, query: request.uri.query, acceptLanguage: request.headers[.acceptLanguage],
            browserSecret: cookies.browserSecret(in: request), sessionSecret: cookies.sessionSecret(in: request),
            interactionID: context.parameters.get("id"), upstream: context.parameters.get("upstream"))
        if request.method == .post {
            do throws(RequestBodyError) {
                input.form = .success(try await bodies.form(request))
            } catch {
                input.form = .failure(error)
            }
        }
        if let clientAddress {
            input.clientAddress = clientAddress.resolve(
                peer: context.remoteAddress?.ipAddress, forwardedFor: request.headers[values: ClientAddress.forwardedForField])
        }
        return input
    }
}
