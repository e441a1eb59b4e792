#if canImport(Glibc)
import Glibc
#endif

/// The process's resident set size, from `/proc/self/statm` (its second field, in pages; proc(5)). Nil where
/// there is no `/proc` (macOS), so the gauge is simply not set there.
enum ResidentMemory {
    static func bytes() -> Int? {
        #if os(Linux)
        let descriptor = open("/proc/self/statm", O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return residentPages(statm: buffer[..<count]).map { $0 * Int(sysconf(Int32(_SC_PAGESIZE))) }
        #else
        return nil
        #endif
    }

    /// The second space-separated number of a `statm` line ("size resident shared text lib data dt").
    static func residentPages(statm: some Collection<UInt8>) -> Int? {
        let fields = statm.split(separator: UInt8(ascii: " "), maxSplits: 2)
        guard fields.count >= 2, !fields[1].isEmpty else { return nil }
        var pages = 0
        for byte in fields[1] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            pages = pages * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return pages
    }
}
