import Foundation
import Testing
@testable import SignInProtocolCore

/// The one header and time rule of every JWS the server accepts.
@Suite struct JOSEHeaderRulesTests {
    let rules = JOSEHeaderRules(type: "dpop+jwt", section: "RFC 9449 section 4.2")

    func member(_ header: [String: JSONValue]) -> String? {
        do throws(JWTProblem) {
            try rules.check(header)
            return nil
        } catch {
            if case .invalid(let member, _) = error { return member }
            if case .missing(let member) = error { return member }
            return "?"
        }
    }

    @Test func typMustBeExactAndAlgAsymmetric() {
        #expect(member(["typ": .string("dpop+jwt"), "alg": .string("ES256")]) == nil)
        #expect(member(["typ": .string("JWT"), "alg": .string("ES256")]) == "typ")
        #expect(member(["alg": .string("ES256")]) == "typ")
        for alg in ["none", "HS256", "HS512", "ES512"] {
            #expect(member(["typ": .string("dpop+jwt"), "alg": .string(alg)]) == "alg")
        }
        // RFC 8725 §3.1: even a caller listing a MAC algorithm does not get it.
        let careless = JOSEHeaderRules(type: nil, section: "", algorithms: ["HS256", "none"])
        #expect(throws: JWTProblem.self) { try careless.check(["alg": .string("HS256")]) }
        #expect(throws: JWTProblem.self) { try careless.check(["alg": .string("none")]) }
    }

    /// RFC 7515 §4.1.11, with its own example header member `"crit":["exp"]`.
    @Test func anyCritIsRefused() {
        let base: [String: JSONValue] = ["typ": .string("dpop+jwt"), "alg": .string("ES256")]
        for crit: JSONValue in [.array([.string("exp")]), .array([]), .string("exp"), .array([.integer(1)]), .array([.string("")])] {
            #expect(member(base.merging(["crit": crit, "exp": .integer(1_363_284_000)]) { $1 }) == "crit")
        }
    }

    /// RFC 7519 §4.1.4 and §4.1.5 with one leeway; `iat` bounded ahead by the leeway and behind by the maximum age.
    @Test func timesAreJudgedWithOneLeeway() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let rules = JWTTimeRules(leeway: 60, maximumAge: 300)
        func problem(_ times: JWTTimes) -> JWTTimeProblem? {
            do throws(JWTTimeProblem) { try rules.check(times, at: now); return nil } catch { return error }
        }
        let t: Int64 = 1_800_000_000
        #expect(problem(JWTTimes(expiresAt: t - 61)) == .expired)
        #expect(problem(JWTTimes(expiresAt: t - 59)) == nil)
        #expect(problem(JWTTimes(notBefore: t + 3600)) == .notYetValid)
        #expect(problem(JWTTimes(notBefore: t + 60)) == nil)
        #expect(problem(JWTTimes(issuedAt: t + 61)) == .issuedInTheFuture)
        #expect(problem(JWTTimes(issuedAt: t - 301)) == .issuedTooLongAgo)
        #expect(problem(JWTTimes(issuedAt: t - 300)) == nil)
        #expect(rules.acceptedUntil(issuedAt: t) == now.addingTimeInterval(300))
    }
}
