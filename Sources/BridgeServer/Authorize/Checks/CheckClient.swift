import SignInProtocol

/// `client_id` is present once and names a configured client (RFC 6749 §4.1.2.1). Fails before the redirect URI is
/// known, so its errors are shown on a page, never redirected.
struct CheckClient: Sendable {
    let clients: [BridgeConfiguration.Client]

    func client(in parameters: FormParameters) throws(OAuthError) -> BridgeConfiguration.Client {
        let values = parameters.values(for: "client_id")
        guard values.count <= 1 else { throw .invalidRequest("parameter 'client_id' appears more than once") }
        guard let id = values.first, !id.isEmpty else { throw .invalidRequest("required parameter 'client_id' is missing") }
        guard let client = clients.first(where: { $0.id == id }) else {
            throw OAuthError(.invalidClient, description: "client_id is not a registered client")
        }
        return client
    }
}
