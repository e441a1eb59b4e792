import SignInProtocol

/// The errors a run saw: those earlier checks provoked, plus two token requests made here so `--only errors` has
/// something to judge (an unknown code: `invalid_grant`; an unknown grant type: `unsupported_grant_type`).
enum ErrorSample {
    static func collect(in session: ConformanceSession) async throws(CheckSkipped) -> [ObservedError] {
        _ = await session.remembered("error-sample") { () -> Bool in
            let probes = [[("grant_type", "authorization_code"), ("code", "conform-not-a-code")], [("grant_type", "conform_unknown")]]
            for fields in probes {
                if session.options.office != nil {
                    _ = await session.officeTokenRequest(fields, as: .attacker)
                } else if session.options.publicClient != nil {
                    _ = await PartnerApp.tokenRequest(fields, in: session, as: .attacker)
                }
            }
            return true
        }
        let errors = await session.http.errors
        guard !errors.isEmpty else { throw CheckSkipped("no OAuth error response was seen") }
        return errors
    }

    /// `error` at `url` (from check), for details.
    static func describe(_ error: ObservedError) -> String {
        "\(error.error) (\(error.status) at \(error.url)\(error.checkID.map { ", during " + $0 } ?? ""))"
    }
}
