import Foundation
import SignInProtocol

/// `AccessTokenExpiry` of `GET_NEW_ACCESS_TOKEN` is milliseconds since the epoch, as WOPI's `access_token_ttl`
/// is: a value in seconds reads as a moment in January 1970, so Office treats the token as long expired. The WOPI
/// validator accepts a timestamp within ten years of now, in milliseconds; one that fits only as seconds is named so.
struct AccessTokenExpiryCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "bootstrap.access-token-expiry-ms", group: .bootstrap, level: .must, source: .bootstrapper("GET_NEW_ACCESS_TOKEN: AccessTokenExpiry"),
        summary: "AccessTokenExpiry of GET_NEW_ACCESS_TOKEN is in milliseconds since the epoch (0: no expiry), not seconds")

    /// The WOPI validator's bound for a timestamp (`isUnixTimestampReasonable`: now ± 10 years).
    static let reasonable: TimeInterval = 10 * 365.25 * 24 * 3600

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let wopiSrc = try session.options.required(.wopiSrc)
        let authorization = try await session.officeAuthorization().orSkip()
        let result = await session.bootstrap(authorization: authorization, operation: "GET_NEW_ACCESS_TOKEN", wopiSrc: wopiSrc)
        guard case .success(let answer) = BootstrapAnswer.decode(result), let info = answer.accessTokenInfo else {
            throw CheckSkipped("no AccessTokenInfo to read (bootstrap.new-access-token says why)")
        }
        return Self.judge(info.accessTokenExpiry, now: Date())
    }

    static func judge(_ expiry: Int64, now: Date) -> CheckOutcome {
        if expiry == 0 { return .pass("0: the token does not expire") }
        let nowMilliseconds = now.timeIntervalSince1970 * 1000
        let window = reasonable * 1000
        let value = Double(expiry)
        if abs(value - nowMilliseconds) <= window {
            return value > nowMilliseconds
                ? .pass("milliseconds, \(Int((value - nowMilliseconds) / 1000)) s from now")
                : .fail("\(expiry) ms is in the past: the token is handed out already expired")
        }
        if abs(value * 1000 - nowMilliseconds) <= window {
            return .fail("\(expiry) reads as seconds since the epoch; AccessTokenExpiry is in milliseconds (\(expiry)000)")
        }
        return .fail("\(expiry) is not within ten years of now in milliseconds")
    }
}
