// Office To and Back URL codec speed: SignInProtocol's types against Foundation's URLComponents, same process,
// same strings. Run through scripts/bench/protocol.sh (release build). Not a test: it prints figures only.
//
// Ours:     OfficeToURL(url:) / OfficeBackURL(url:) — decode with every check — then `.url` to encode again.
// Baseline: URLComponents parses the same string and reads the same items (`queryItems`, percent-decoded).
//           `scheme:query` has no `?`, so its path is handed to URLComponents as the query, as an app would do.
import Foundation
import SignInProtocol

// Seed 004, verbatim.
let toURL = "Contoso:client_id=abcdefg&response_type=code&scope=wopi&rs=enUS&build=16.1.1234&platform=iOS&app=word&action=76d173ad-a43f-4e3c-a5e7-0e7276b4c624"
let backURL = "ms-word-tp:code=abcdefg&tk=https%3A%2F%2Fcontoso.com%2Fapi%2Ftoken%2F%3Fextra%3Dstuff&sc=xyz&action=76d173ad-a43f-4e3c-a5e7-0e7276b4c624"

let toItems = ["client_id", "response_type", "scope", "rs", "build", "platform", "app", "action"]
let backItems = ["code", "tk", "sc", "action"]

// MARK: Workloads. Each returns a number derived from what it read, so nothing can be optimised away.

@inline(never) func oursTo(_ url: String) -> Int {
    let to = try! OfficeToURL(url: url)
    let q = to.query
    let read = q.clientID.utf8.count + q.responseType.utf8.count + (q.scope?.utf8.count ?? 0)
        + (q.culture?.utf8.count ?? 0) + (q.build?.utf8.count ?? 0) + (q.platform?.utf8.count ?? 0)
        + (q.app?.utf8.count ?? 0) + to.action.utf8.count
    return read + to.url.utf8.count
}

@inline(never) func oursBack(_ url: String) -> Int {
    let back = try! OfficeBackURL(url: url)
    guard case .success(let success) = back.result else { fatalError("expected a success") }
    let read = back.app.scheme.utf8.count + success.code.utf8.count + (success.tokenEndpoint?.utf8.count ?? 0)
        + (success.sessionContext?.utf8.count ?? 0) + back.action.utf8.count
    return read + back.url.utf8.count
}

@inline(never) func oursDecodeOnly(_ to: String, _ back: String) -> Int {
    let a = try! OfficeToURL(url: to)
    let b = try! OfficeBackURL(url: back)
    return a.action.utf8.count + a.query.clientID.utf8.count + b.action.utf8.count
}

@inline(never) func foundationRead(_ url: String, _ names: [String]) -> Int {
    let parsed = URLComponents(string: url)!
    var query = URLComponents()
    query.percentEncodedQuery = parsed.percentEncodedQuery ?? parsed.percentEncodedPath
    let items = query.queryItems ?? []
    var read = parsed.scheme?.utf8.count ?? 0
    for name in names {
        read += items.first(where: { $0.name == name })?.value?.utf8.count ?? 0
    }
    return read
}

// MARK: Measurement

/// Runs `body` in batches until `seconds` have passed; returns operations per second.
func opsPerSecond(seconds: Double, _ body: () -> Int) -> (rate: Double, checksum: Int) {
    let clock = ContinuousClock()
    var checksum = 0
    var operations = 0
    let start = clock.now
    let limit = Duration.milliseconds(Int(seconds * 1000))
    while clock.now - start < limit {
        for _ in 0..<500 { checksum &+= body() }
        operations += 500
    }
    let elapsed = clock.now - start
    let secondsElapsed = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return (Double(operations) / secondsElapsed, checksum)
}

struct Row {
    var name: String
    var ours: () -> Int
    var baseline: () -> Int
    var best = (ours: 0.0, baseline: 0.0)
}

// BENCH_PROFILE=to|back|decode|foundation-to|foundation-back runs one workload a fixed number of times and exits, for
// `valgrind --tool=callgrind` (instruction counts do not depend on machine load).
if let profile = ProcessInfo.processInfo.environment["BENCH_PROFILE"] {
    var sum = 0
    for _ in 0..<(Int(ProcessInfo.processInfo.environment["BENCH_ITERATIONS"] ?? "") ?? 2_000) {
        switch profile {
        case "to": sum &+= oursTo(toURL)
        case "back": sum &+= oursBack(backURL)
        case "decode": sum &+= oursDecodeOnly(toURL, backURL)
        case "foundation-to": sum &+= foundationRead(toURL, toItems)
        case "foundation-back": sum &+= foundationRead(backURL, backItems)
        default: sum &+= foundationRead(toURL, toItems) &+ foundationRead(backURL, backItems)
        }
    }
    print("checksum \(sum)")
    exit(0)
}

let seconds = Double(ProcessInfo.processInfo.environment["BENCH_SECONDS"] ?? "") ?? 1.0
let rounds = 3
var rows = [
    Row(name: "To URL decode+encode", ours: { oursTo(toURL) }, baseline: { foundationRead(toURL, toItems) }),
    Row(name: "Back URL decode+encode", ours: { oursBack(backURL) }, baseline: { foundationRead(backURL, backItems) }),
    Row(name: "To+Back decode only", ours: { oursDecodeOnly(toURL, backURL) },
        baseline: { foundationRead(toURL, toItems) &+ foundationRead(backURL, backItems) }),
]

// Same answers first: both sides must read the same values, or the comparison means nothing.
let ourTo = try! OfficeToURL(url: toURL)
var check = URLComponents()
check.percentEncodedQuery = URLComponents(string: toURL)!.percentEncodedPath
precondition(check.queryItems?.first(where: { $0.name == "action" })?.value == ourTo.action)
let ourBack = try! OfficeBackURL(url: backURL)
check.percentEncodedQuery = URLComponents(string: backURL)!.percentEncodedPath
guard case .success(let success) = ourBack.result,
    check.queryItems?.first(where: { $0.name == "tk" })?.value == success.tokenEndpoint
else { fatalError("the two codecs disagree on tk") }
precondition(ourTo.url == toURL && ourBack.url == backURL, "encoding must give back the documented bytes")

var checksum = 0
// Warm up both, then interleave rounds so that machine noise hits both sides alike; keep each side's best round.
for index in rows.indices {
    checksum &+= opsPerSecond(seconds: 0.2, rows[index].ours).checksum
    checksum &+= opsPerSecond(seconds: 0.2, rows[index].baseline).checksum
}
for _ in 0..<rounds {
    for index in rows.indices {
        let ours = opsPerSecond(seconds: seconds, rows[index].ours)
        let baseline = opsPerSecond(seconds: seconds, rows[index].baseline)
        checksum &+= ours.checksum &+ baseline.checksum
        rows[index].best.ours = max(rows[index].best.ours, ours.rate)
        rows[index].best.baseline = max(rows[index].best.baseline, baseline.rate)
    }
}

func format(_ rate: Double) -> String {
    let text = String(Int(rate.rounded()))
    var grouped = ""
    for (offset, character) in text.reversed().enumerated() {
        if offset > 0 && offset % 3 == 0 { grouped.append(",") }
        grouped.append(character)
    }
    return String(grouped.reversed())
}

func pad(_ text: String, _ width: Int) -> String { text + String(repeating: " ", count: max(0, width - text.count)) }
func padLeft(_ text: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - text.count)) + text }

print("Office To/Back URL codec, best of \(rounds) rounds of \(seconds) s each (checksum \(checksum & 0xFFFF))")
print(pad("workload", 24) + padLeft("SignInProtocol ops/s", 22) + padLeft("URLComponents ops/s", 22) + padLeft("ratio", 8))
for row in rows {
    let ratio = row.best.ours / row.best.baseline
    print(
        pad(row.name, 24) + padLeft(format(row.best.ours), 22) + padLeft(format(row.best.baseline), 22)
            + padLeft(String(format: "%.2fx", ratio), 8))
}
