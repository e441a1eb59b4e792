/// The most bytes a decoder will look at before it refuses the input.
///
/// Every decoder in SignInProtocol takes one, so that a hostile peer cannot make a host or a partner app
/// spend unbounded memory or time on a header, URL or JSON body. The default (8 KiB) is far above anything
/// the Office or Vipps flows send and matches common HTTP header limits.
public struct InputLimit: Sendable, Hashable {
    public var maxBytes: Int

    public init(maxBytes: Int) {
        precondition(maxBytes > 0, "an input limit must be positive")
        self.maxBytes = maxBytes
    }

    public static let `default` = InputLimit(maxBytes: 8 * 1024)

    /// Throws `InputTooLarge` when `input` has more UTF-8 bytes than the limit.
    public func check(_ input: some StringProtocol, what: String) throws(InputTooLarge) {
        let size = input.utf8.count
        if size > maxBytes { throw InputTooLarge(what: what, limit: maxBytes, actual: size) }
    }

    /// Throws `InputTooLarge` when `byteCount` is over the limit.
    public func check(byteCount: Int, what: String) throws(InputTooLarge) {
        if byteCount > maxBytes { throw InputTooLarge(what: what, limit: maxBytes, actual: byteCount) }
    }
}

/// An input was refused before parsing because it was larger than its `InputLimit`.
public struct InputTooLarge: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was being decoded, e.g. "WWW-Authenticate header".
    public let what: String
    public let limit: Int
    public let actual: Int

    public var description: String {
        "\(what) is \(actual) bytes, over the limit of \(limit) bytes"
    }
}
