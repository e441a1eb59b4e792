import Foundation
import SignInProtocol

extension ConformanceSession {
    /// `Bearer <Office's access token>`, or why there is none.
    func officeAuthorization() async -> Result<String, StepFailure> {
        await officeTokens().flatMap { exchange in
            guard exchange.response.status == 200, let token = exchange.accessToken else {
                return .failure(StepFailure("no access token (the code redemption answered \(exchange.summary))"))
            }
            return .success("Bearer " + token)
        }
    }
}

/// A bootstrap answer read as the docs define it: `200`, `application/json`, the Bootstrap object.
enum BootstrapAnswer {
    static func decode(_ result: Result<ObservedResponse, StepFailure>) -> Result<BootstrapResponse, StepFailure> {
        result.flatMap { response in
            guard response.status == 200 else { return .failure(StepFailure("expected 200, got \(response.status)")) }
            let type = response.value("Content-Type")?.lowercased() ?? ""
            guard type.hasPrefix("application/json") else {
                return .failure(StepFailure("Content-Type is \"\(type)\", not application/json"))
            }
            do {
                return .success(try JSONDecoder().decode(BootstrapResponse.self, from: Data(response.body)))
            } catch {
                return .failure(StepFailure("the JSON is not a bootstrap response: \(error)"))
            }
        }
    }
}
