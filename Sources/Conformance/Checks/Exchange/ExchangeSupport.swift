/// `POST /oauth/exchange` on the token endpoint's origin (Schibsted SPiD one-time exchange codes): `clientId` the
/// target, `type=code`, the caller's access token as a Bearer credential.
enum ExchangeEndpoint {
    static let path = "/oauth/exchange"

    static func request(
        target: String, authorization: String?, in session: ConformanceSession, as party: Party
    ) async throws(CheckSkipped) -> ObservedResponse {
        let endpoints = try await session.endpoints().orSkip()
        guard let origin = URLParts.origin(endpoints.token) else { throw CheckSkipped("no token endpoint origin") }
        let headers = authorization.map { [(name: "Authorization", value: $0)] } ?? []
        do {
            let response = try await session.http.send(
                .form(origin + path, [("clientId", target), ("type", "code")], headers: headers), as: party)
            if response.status == 404 { throw CheckSkipped("the host has no \(path) (404)") }
            return response
        } catch let skipped as CheckSkipped {
            throw skipped
        } catch {
            throw CheckSkipped("\(path) did not answer: \(error)")
        }
    }
}
