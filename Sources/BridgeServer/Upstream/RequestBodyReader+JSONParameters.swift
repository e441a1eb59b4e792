import BridgeHTTP
import Foundation
import Hummingbird
import SignInProtocol

extension RequestBodyReader {
    /// A form, or a JSON object whose string members are the parameters (the Vipps iOS login guide's sample sends
    /// JSON); an empty body is no parameters.
    func parameters(_ request: Request) async throws(RequestBodyError) -> FormParameters {
        let type = Self.mediaType(of: request)
        if type == Self.formType { return try await form(request) }
        let body = try await text(request)
        if body.isEmpty { return FormParameters() }
        guard type == "application/json" else {
            throw .unsupportedContentType(allowed: "application/json or \(Self.formType)")
        }
        guard let object = try? JSONDecoder().decode([String: ClaimValue].self, from: Data(body.utf8)) else {
            throw .notAJSONObject
        }
        var form = FormParameters()
        for (name, value) in object.sorted(by: { $0.key < $1.key }) { if let string = value.string { form.append(name, string) } }
        return form
    }
}
