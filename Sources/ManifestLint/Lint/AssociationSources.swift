import Foundation
import SignInProtocolCore

/// Where the association files of `--assetlinks` and `--aasa` come from: `HOST=FILE`, or a folder holding one
/// folder per host with `HOST/.well-known/NAME` or `HOST/NAME` in it (a mirror of what the hosts serve).
enum AssociationSources {
    /// (lower-case host, path) pairs, sorted by host. Throws for a missing file or folder, or a folder without any.
    static func resolve(_ argument: String, fileName: String, option: String) throws(LintUsageError) -> [(host: String, path: String)] {
        if let equals = argument.firstIndex(of: "="), !argument[..<equals].contains("/") {
            let host = String(argument[..<equals]).asciiLowercased()
            let path = String(argument[argument.index(after: equals)...])
            guard !host.isEmpty, FileManager.default.fileExists(atPath: path) else {
                throw LintUsageError("\(option) \(argument): wants HOST=FILE with an existing file")
            }
            return [(host, path)]
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw LintUsageError("\(option) \(argument): neither HOST=FILE nor a folder")
        }
        let hosts = (try? FileManager.default.contentsOfDirectory(atPath: argument)) ?? []
        let found = hosts.sorted().compactMap { host -> (String, String)? in
            let candidates = ["\(argument)/\(host)/.well-known/\(fileName)", "\(argument)/\(host)/\(fileName)"]
            return candidates.first { FileManager.default.fileExists(atPath: $0) }.map { (host.asciiLowercased(), $0) }
        }
        guard !found.isEmpty else {
            throw LintUsageError("\(option) \(argument): no HOST/.well-known/\(fileName) or HOST/\(fileName) in the folder")
        }
        return found
    }
}
