import Foundation

/// Finds the files `FileKind` names: AndroidManifest.xml, Info.plist, url_schemes.json and association files.
enum FileDiscovery {
    /// Folders never searched: build output (merged manifests would be reported twice), dependencies, VCS data.
    static let skippedFolders: Set<String> = ["build", ".build", "node_modules", "Pods", "DerivedData", "Carthage"]

    /// The one hidden folder entered: where association files are served from.
    static let wellKnown = ".well-known"

    /// Every matching file under `root`, sorted by path; hidden (but `.well-known`) and skipped folders are not entered, and symbolic
    /// links to folders are not followed (no cycles).
    static func files(under root: String) -> [LintedFile] {
        let base = URL(fileURLWithPath: root)
        guard
            let walker = FileManager.default.enumerator(
                at: base, includingPropertiesForKeys: [.isDirectoryKey, .isSymbolicLinkKey], options: [])
        else { return [] }
        var found = [LintedFile]()
        for case let url as URL in walker {
            let name = url.lastPathComponent
            let values = try? url.resourceValues(forKeys: [.isDirectoryKey, .isSymbolicLinkKey])
            if values?.isDirectory == true {
                if (name.hasPrefix(".") && name != wellKnown) || skippedFolders.contains(name) || values?.isSymbolicLink == true {
                    walker.skipDescendants()
                }
                continue
            }
            guard let kind = FileKind(fileName: name) else { continue }
            found.append(LintedFile(path: display(url, under: root, base: base), kind: kind))
        }
        return found.sorted { $0.path < $1.path }
    }

    /// The path as the user would write it: the given root joined with the part below it.
    private static func display(_ url: URL, under root: String, base: URL) -> String {
        let basePath = base.standardizedFileURL.path
        let full = url.standardizedFileURL.path
        guard full.hasPrefix(basePath) else { return full }
        let rest = full.dropFirst(basePath.count).drop { $0 == "/" }
        return root.hasSuffix("/") ? root + rest : root + "/" + rest
    }

    /// The url_schemes.json in the file's folder or the nearest folder above it, stopping at the repository root
    /// (the folder that holds `.git`) or the file system root.
    static func nearestUrlSchemes(for path: String) -> String? {
        var folder = URL(fileURLWithPath: path).deletingLastPathComponent().standardizedFileURL
        // Report the found file relative to the way `path` was written when that is possible.
        let written = (path as NSString).deletingLastPathComponent.split(separator: "/").map(String.init)
        let relative = path.hasPrefix("/") || written.contains("..") ? nil : written.filter { $0 != "." }
        var levelsUp = 0
        while true {
            let candidate = folder.appendingPathComponent(FileKind.urlSchemes.rawValue)
            if FileManager.default.fileExists(atPath: candidate.path) {
                guard let relative, levelsUp <= relative.count else { return candidate.path }
                return (relative.dropLast(levelsUp) + [FileKind.urlSchemes.rawValue]).joined(separator: "/")
            }
            let isRepositoryRoot = FileManager.default.fileExists(atPath: folder.appendingPathComponent(".git").path)
            let parent = folder.deletingLastPathComponent()
            if isRepositoryRoot || parent.path == folder.path { return nil }
            folder = parent
            levelsUp += 1
        }
    }
}
