/// A place in a text file: 1-based line and 1-based column counted in Unicode code points (what editors show,
/// and SARIF's `unicodeCodePoints` column kind). A tab counts as one column.
public struct SourcePosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// The start of a file, for problems that belong to the whole file (too large, unreadable encoding).
    public static let startOfFile = SourcePosition(line: 1, column: 1)

    public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    public var description: String { "\(line):\(column)" }
}
