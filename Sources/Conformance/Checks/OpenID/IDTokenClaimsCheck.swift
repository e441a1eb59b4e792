import Foundation
import SignInProtocol

/// OpenID Connect Core 1.0 §3.1.3.7: what a relying party validates in the ID token: `iss` is the issuer, `aud`
/// contains its client id (with `azp` when there are several), `exp` is in the future, `iat` is present, `nonce` is
/// the one sent; §3.1.3.8: `at_hash`, when present, matches the access token.
struct IDTokenClaimsCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "openid.id-token", group: .openid, level: .must, source: .openID("core", "§3.1.3.7 (ID Token Validation)", anchor: "IDTokenValidation"),
        summary: "The public client's openid sign-in returns an id_token with the right iss, aud, azp, exp, iat, nonce, sub and at_hash")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let metadata = try await OpenIDSignIn.discovery(in: session)
        let client = try session.options.required(.publicClient)
        let signIn = try await OpenIDSignIn.pair(in: session).orSkip()[0]
        guard signIn.idToken != nil else { return .fail("the token response to scope=openid has no id_token (Core §3.1.3.3)") }
        guard let claims = signIn.claims, let header = signIn.header else { return .fail("the id_token is not a JWS") }
        var problems = [String]()
        if claims["iss"]?.stringValue != metadata["issuer"]?.stringValue {
            problems.append("iss \(claims["iss"]?.stringValue ?? "missing") is not discovery's issuer")
        }
        let audiences: [String] = switch claims["aud"] {
        case .string(let one): [one]
        case .array(let many): many.compactMap(\.stringValue)
        default: []
        }
        if !audiences.contains(client.id) { problems.append("aud \(audiences) lacks \(client.id)") }
        if audiences.count > 1 || claims["azp"] != nil, claims["azp"]?.stringValue != client.id {
            problems.append("azp \(claims["azp"]?.stringValue ?? "missing") is not \(client.id)")
        }
        let now = Int64(Date().timeIntervalSince1970)
        if case .integer(let exp) = claims["exp"] {
            if exp <= now { problems.append("exp is in the past") }
        } else {
            problems.append("exp is not a number")
        }
        if case .integer = claims["iat"] {} else { problems.append("iat is not a number") }
        if claims["sub"]?.stringValue?.isEmpty != false { problems.append("no sub") }
        if claims["nonce"]?.stringValue != signIn.nonce { problems.append("nonce is not the one sent") }
        if let atHash = claims["at_hash"]?.stringValue, let token = signIn.exchange.accessToken,
            let alg = header["alg"]?.stringValue, let expected = OpenIDSignIn.atHash(of: token, alg: alg), atHash != expected
        {
            problems.append("at_hash does not match the access token")
        }
        return problems.isEmpty ? .pass("iss, aud, exp, iat, nonce, sub valid") : .fail(problems.joined(separator: "; "))
    }
}
