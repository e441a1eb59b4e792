import BridgeHTTP
import Foundation
import Hummingbird
import Logging
import SignInProtocol

/// The broker's request parameters: the query, and for a POST a form or a JSON object of strings (the iOS guide's
/// sample sends JSON), read by `RequestBodyReader` within `limits.maxBodyBytes`. A parameter sent twice is refused.
enum BrokerParameters {
    static func read(_ request: Request, bodies: RequestBodyReader) async throws(OAuthError) -> [String: String] {
        var parameters = [String: String]()
        func add(_ name: String, _ value: String) throws(OAuthError) {
            guard parameters.updateValue(value, forKey: name) == nil else {
                throw OAuthError(.invalidRequest, description: "\(name) is sent twice")
            }
        }
        for (name, value) in request.uri.queryParameters { try add(String(name), String(value)) }
        guard request.method == .post else { return parameters }
        let posted: FormParameters
        do {
            posted = try await bodies.parameters(request)
        } catch {
            throw error.oauthError
        }
        for pair in posted { try add(pair.name, pair.value) }
        return parameters
    }
}
