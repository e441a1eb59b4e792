import Foundation

/// Reading input files with a cap, so that an oversized file is reported as such instead of loaded whole.
enum LintInput {
    /// One byte more than the largest input limit, so that "over the limit" can still be told.
    static let readCap = max(XMLParseLimits.default.maxBytes, UrlSchemesDocument.maxBytes) + 1

    static func read(_ path: String, cap: Int = readCap) throws(LintUsageError) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw LintUsageError("\(path): cannot be read")
        }
        defer { try? handle.close() }
        do {
            return [UInt8](try handle.read(upToCount: cap) ?? Data())
        } catch {
            throw LintUsageError("\(path): cannot be read (\(error.localizedDescription))")
        }
    }
}
