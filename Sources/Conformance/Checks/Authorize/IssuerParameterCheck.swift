import Foundation
import SignInProtocol

/// RFC 9207 §2: a host that advertises `authorization_response_iss_parameter_supported` puts its issuer in every
/// authorization response, success and error, so a client talking to two servers detects the mix-up attack
/// (RFC 9700 §4.4). Without the flag the check only says so.
struct IssuerParameterCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "authorize.iss-parameter", group: .authorize, level: .must, source: .rfc(9207, "§2", "Response Parameter iss"),
        summary: "When the metadata advertises authorization_response_iss_parameter_supported, the success and the error redirect carry iss equal to the issuer")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let office = try session.options.required(.office)
        guard await session.advertisedFlag("authorization_response_iss_parameter_supported") else {
            return .pass("info: the host does not advertise authorization_response_iss_parameter_supported (RFC 9207); clients cannot detect a mix-up by iss")
        }
        var issuer = await session.discovery().value?["issuer"]?.stringValue
        if issuer == nil { issuer = await session.metadata().value?["issuer"]?.stringValue }
        guard let issuer else { return .fail("the metadata advertises iss but names no issuer") }
        let success = try await session.officeSignIn().orSkip()
        // An error response the host must send back to the client: a response_type it does not support (§4.1.2.1).
        let endpoints = try await session.endpoints().orSkip()
        var request = AuthorizeRequestBuilder.office(
            authorizationURI: endpoints.authorization, clientID: office.id, redirectURI: office.redirectURI)
        request.url = request.url.replacingOccurrences(of: "response_type=code", with: "response_type=conform_unsupported")
        let error = try await SignInDriver(session: session, party: .browser).signIn(request, redirectURI: office.redirectURI).orSkip()
        var problems = [String]()
        for (what, outcome) in [("success", success), ("error", error)] where outcome.parameters["iss"] != issuer {
            problems.append("the \(what) redirect has iss \(outcome.parameters["iss"] ?? "missing"), not \(issuer)")
        }
        return problems.isEmpty ? .pass("iss on the success and the error redirect") : .fail(problems.joined(separator: "; "))
    }
}
