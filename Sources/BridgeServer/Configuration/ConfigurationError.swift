/// One thing wrong with a configuration, named by its key path (`clients[0].redirectUris[1]`) so that the person
/// fixing it does not have to guess. `line` points into the YAML file when the value came from it; `source` names the
/// environment variable when the value came from one.
public struct ConfigurationProblem: Sendable, Hashable, CustomStringConvertible {
    public var keyPath: String
    public var message: String
    public var line: Int?
    public var source: String?

    public init(keyPath: String, message: String, line: Int? = nil, source: String? = nil) {
        self.keyPath = keyPath
        self.message = message
        self.line = line
        self.source = source
    }

    public var description: String {
        var where_ = keyPath.isEmpty ? "(top level)" : keyPath
        if let source { where_ += " (from \(source))" }
        if let line { return "line \(line): \(where_): \(message)" }
        return "\(where_): \(message)"
    }
}

/// Every problem found in one configuration; the server refuses to start on any of them (the CLI exits 2).
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file the configuration came from, if any.
    public var file: String?
    public var problems: [ConfigurationProblem]

    public init(file: String?, problems: [ConfigurationProblem]) {
        self.file = file
        self.problems = problems
    }

    public var description: String {
        let prefix = file.map { "\($0): " } ?? ""
        return problems.map { prefix + $0.description }.joined(separator: "\n")
    }

    /// The key paths in the order found, handy in tests.
    public var keyPaths: [String] { problems.map(\.keyPath) }
}
