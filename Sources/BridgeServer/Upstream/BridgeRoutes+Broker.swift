import BridgeHTTP
import Foundation
import Hummingbird
import Logging
import SignInProtocol

extension BridgeRoutes {
    /// The session broker's JSON API (`BrokerEndpoints`), when `broker.clientId` names its app client.
    func registerBroker(on router: Router<BridgeRequestContext>) {
        guard configuration.broker.clientId != nil else { return }
        let broker = services.broker
        let bodies = services.bodies
        for method in [HTTPRequest.Method.get, .post] {
            router.on("/auth/:provider/login", method: method) { request, context in
                let input = await BrokerRequest(request, context, bodies: bodies)
                do throws(BrokerRefusal) {
                    return OAuthHTTPResponse.json(JSONBody.bytes(try await broker.login(input, logger: context.logger)))
                } catch {
                    return error.response(logger: context.logger)
                }
            }
        }
        router.post("/auth/:provider/session") { request, context in
            let input = await BrokerRequest(request, context, bodies: bodies)
            do throws(BrokerRefusal) {
                return OAuthHTTPResponse.json(JSONBody.bytes(try await broker.session(input, logger: context.logger)))
            } catch {
                return error.response(logger: context.logger)
            }
        }
    }
}

extension BrokerRequest {
    /// The provider from the path, and the parameters: the query, and for a POST the body (`RequestBodyReader`).
    init(_ request: Request, _ context: BridgeRequestContext, bodies: RequestBodyReader) async {
        provider = context.parameters.get("provider")
        do throws(OAuthError) {
            parameters = .success(try await BrokerParameters.read(request, bodies: bodies))
        } catch {
            parameters = .failure(error)
        }
    }
}

extension BrokerRefusal {
    /// The one renderer of the broker's refusals: RFC 6749 §5.2 JSON; a store outage is 503 `temporarily_unavailable`
    /// with `Retry-After` (`OAuthHTTPResponse.error`), never a 500.
    func response(logger: Logger) -> Response {
        switch self {
        case .unknownProvider:
            return Self.render(OAuthError(.invalidRequest, description: "no such provider"), status: .notFound)
        case .request(let error):
            if error == .storeUnavailable { logger.error("broker step failed in the store") }
            return Self.render(error)
        case .signInFailed(let failure):
            return Self.render(failure.sessionError, status: .badRequest)
        }
    }

    private static func render(_ error: OAuthError, status: HTTPResponse.Status? = nil) -> Response {
        var response = OAuthHTTPResponse.error(error, realm: "broker")
        if let status { response.status = status }
        return response
    }
}

extension BrokerFinish {
    /// A broker login's end in the browser: 302 to the app's deep link (RFC 6749 §4.1.2 shows 302), or the page.
    func response(pages: PageRenderer) -> Response {
        switch self {
        case .backToApp(let location): Response(status: .found, headers: [.location: location])
        case .sessionGone: pages.error(.fallback, status: .badRequest, message: \.expired)
        }
    }
}
