import Foundation
import SignInProtocol

/// Office's identity service redeems the code at `tokenIssuance_uri` from Microsoft's cloud, not from the device
/// (Microsoft 365 for mobile, "Operational flows" and "Token Issuance URL requirements"): a name that resolves only to
/// addresses the internet cannot reach is a host that works in a lab and fails for every user.
struct TokenEndpointPublicCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "challenge.token-endpoint-public", group: .challenge, level: .should, source: .mobile("Operational flows and Token Issuance URL requirements"),
        summary: "tokenIssuance_uri's host resolves to a public address Microsoft's cloud can reach (loopback passes only with --insecure-http-loopback)")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        // The challenge's own value, judged even when challenge.endpoints refused it for the flow.
        let token: String
        if session.options.bootstrapURL != nil {
            let bearer = try await session.bearerChallenge().orSkip()
            guard let named = bearer[parameter: BootstrapChallenge.ParameterName.tokenIssuanceURI] else {
                throw CheckSkipped("the challenge names no tokenIssuance_uri (challenge.endpoints)")
            }
            token = named
        } else {
            token = try await session.endpoints().orSkip().token
        }
        guard let host = URLComponents(string: token)?.host, !host.isEmpty else {
            throw CheckSkipped("tokenIssuance_uri is not absolute (challenge.endpoints)")
        }
        let addresses = await TokenEndpointReachability.resolve(host)
        switch TokenEndpointReachability.verdict(addresses: addresses, allowLoopback: session.options.allowLoopbackHTTP) {
        case .publicAddress: return .pass("\(host) resolves to a public address")
        case .developmentLoopback: return .pass("\(host) is loopback, allowed for development by --insecure-http-loopback")
        case .privateOnly(let found):
            return .warn("\(host) resolves only to \(found.joined(separator: ", ")), which Microsoft's cloud cannot reach to redeem the code")
        case .unresolved: return .warn("\(host) does not resolve here; Microsoft's cloud must be able to resolve and reach it")
        }
    }
}
