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

    @Test func aFullMemoryStartsOver() {
        let answers = RecentAnswers<Int, Int>(maxAge: 60, capacity: 3)
        for key in 0..<3 { answers.keep(key, for: key, changeCounter: 0, at: t0) }
        #expect(answers.value(for: 2, changeCounter: 0, at: t0) == 2)
        answers.keep(3, for: 3, changeCounter: 0, at: t0)
        #expect(answers.value(for: 0, changeCounter: 0, at: t0) == nil)
        #expect(answers.value(for: 3, changeCounter: 0, at: t0) == 3)
    }
}
