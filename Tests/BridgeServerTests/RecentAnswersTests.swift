@testable import BridgeServer
import Foundation
import Testing

/// The short-lived memory of store answers the bootstrapper relies on for throughput.
@Suite("RecentAnswers")
struct RecentAnswersTests {
    let t0 = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func anAnswerIsKeptUntilMaxAgeAtTheSameCounter() {
        let answers = RecentAnswers<String, Int>(maxAge: 1)
        answers.keep(7, for: "jti", changeCounter: 3, at: t0)
        #expect(answers.value(for: "jti", changeCounter: 3, at: t0) == 7)
        #expect(answers.value(for: "jti", changeCounter: 3, at: t0.addingTimeInterval(0.999)) == 7)
        #expect(answers.value(for: "jti", changeCounter: 3, at: t0.addingTimeInterval(1)) == nil)
        // Dropped, not just hidden: it stays gone even if asked with an earlier time.
        #expect(answers.value(for: "jti", changeCounter: 3, at: t0) == nil)
    }

    @Test func aCountedChangeDropsTheAnswerAtOnce() {
        let answers = RecentAnswers<String, Int>(maxAge: 60)
        answers.keep(7, for: "jti", changeCounter: 3, at: t0)
        #expect(answers.value(for: "jti", changeCounter: 4, at: t0) == nil)
        #expect(answers.value(for: "jti", changeCounter: 3, at: t0) == nil)
    }

    @Test func aClockThatWentBackDoesNotExtendAnAnswer() {
        let answers = RecentAnswers<String, Int>(maxAge: 60)
        answers.keep(7, for: "jti", changeCounter: 0, at: t0)
        #expect(answers.value(for: "jti", changeCounter: 0, at: t0.addingTimeInterval(-1)) == nil)
    }

    @Test func zeroMaxAgeKeepsNothing() async {
        let answers = RecentAnswers<String, Int>(maxAge: 0)
        answers.keep(7, for: "jti", changeCounter: 0, at: t0)
        #expect(answers.value(for: "jti", changeCounter: 0, at: t0) == nil)
    }

    /// Answers nobody may use any more are swept as the memory grows, so it stays near the last `maxAge`'s worth
    /// instead of filling up to `capacity`.
    @Test func expiredAnswersAreSweptLongBeforeTheCapacity() {
        let answers = RecentAnswers<Int, Int>(maxAge: 1, capacity: 10_000)
        for key in 0..<5_000 {
            answers.keep(key, for: key, changeCounter: 0, at: t0.addingTimeInterval(Double(key) / 1000))
        }
        // 1,000 answers per second for 5 s with a 1 s lifetime: at most the last second's, twice over before a sweep.
        #expect(answers.count <= 2 * 1_001)
        #expect(answers.value(for: 4_999, changeCounter: 0, at: t0.addingTimeInterval(4.999)) == 4_999)
        #expect(answers.value(for: 3_000, changeCounter: 0, at: t0.addingTimeInterval(4.999)) == nil)
    }

    @Test func aFullMemoryStartsOver() {
        let answers = RecentAnswers<Int, Int>(maxAge: 60, capacity: 3)
        for key in 0..<3 { answers.keep(key, for: key, changeCounter: 0, at: t0) }
        #expect(answers.value(for: 2, changeCounter: 0, at: t0) == 2)
        answers.keep(3, for: 3, changeCounter: 0, at: t0)
        #expect(answers.value(for: 0, changeCounter: 0, at: t0) == nil)
        #expect(answers.value(for: 3, changeCounter: 0, at: t0) == 3)
    }
}
