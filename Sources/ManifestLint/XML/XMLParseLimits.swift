/// How much XML ManifestLint agrees to read from one file before it refuses it.
///
/// Real manifests and Info.plist files are a few KiB and about 10 levels deep; the defaults leave a wide margin and
/// keep a hostile file from costing more than a few MiB of memory.
public struct XMLParseLimits: Sendable, Hashable {
    /// The largest file accepted, in bytes (default 4 MiB).
    public var maxBytes: Int
    /// The deepest element nesting accepted (default 64). libxml2 refuses more than 256 levels on its own.
    public var maxDepth: Int

    public init(maxBytes: Int = 4 * 1024 * 1024, maxDepth: Int = 64) {
        precondition(maxBytes > 0 && maxDepth > 0, "XML limits must be positive")
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
    }

    public static let `default` = XMLParseLimits()
}
