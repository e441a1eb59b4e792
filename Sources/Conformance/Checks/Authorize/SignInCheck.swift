/// Office opens `authorization_uri` with `rs`, `build` and `platform`, the user signs in, and the host redirects to
/// the registered redirect URI with a code (RFC 6749 §4.1.2).
struct SignInCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "authorize.sign-in", group: .authorize, level: .must, source: .appToApp("the authorize request: rs, build, platform"),
        summary: "Office's authorize request (with rs, build, platform) leads through sign-in and consent to the redirect URI with a code")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        _ = try session.options.required(.office)
        // The endpoints are challenge.endpoints' to fail; here they are a prerequisite.
        _ = try await session.endpoints().orSkip()
        switch await session.officeSignIn() {
        case .failure(let failure): return .fail(failure.reason)
        case .success(let outcome):
            if let error = outcome.parameters["error"] { return .fail("redirected with error=\(error)") }
            guard outcome.code?.isEmpty == false else { return .fail("redirected without a code") }
            return .pass("redirected to the redirect URI with a code")
        }
    }
}
