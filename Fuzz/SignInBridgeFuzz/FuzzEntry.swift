import Foundation

#if FUZZING
import CFuzzerDriver
#endif

// Built by scripts/fuzz.sh with -sanitize=fuzzer,address and -D FUZZING: the entry point hands over to libFuzzer's
// driver, which calls fuzzOneInput with each input; FUZZ_TARGET names the decoder. Built normally (swift build), the same executable replays files:
// `signin-bridge-fuzz TARGET FILE…` runs each file through the target once, to reproduce a finding.

nonisolated(unsafe) private var selected: (([UInt8]) -> Void)?

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    if selected == nil {
        let name = ProcessInfo.processInfo.environment["FUZZ_TARGET"] ?? ""
        guard let target = FuzzTargets.all[name] else {
            fatalError("FUZZ_TARGET must be one of \(FuzzTargets.all.keys.sorted().joined(separator: ", ")), not \"\(name)\"")
        }
        selected = target
    }
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    selected?(bytes)
    return 0
}

#if FUZZING
@main
struct RunFuzzer {
    static func main() {
        // Answered before libFuzzer starts: it reports a target that exits as a crash.
        if ProcessInfo.processInfo.environment["FUZZ_TARGET"] == "list" {
            print(FuzzTargets.all.keys.sorted().joined(separator: "\n"))
            exit(0)
        }
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOneInput(data, size) })
    }
}
#else
@main
struct ReplayFuzzInputs {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        guard let name = arguments.first, let target = FuzzTargets.all[name] else {
            print("usage: signin-bridge-fuzz TARGET FILE…   targets: \(FuzzTargets.all.keys.sorted().joined(separator: " "))")
            exit(2)
        }
        for path in arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                print("cannot read \(path)")
                exit(2)
            }
            target([UInt8](data))
        }
        print("\(arguments.count - 1) inputs replayed through \(name) without a finding")
    }
}
#endif
