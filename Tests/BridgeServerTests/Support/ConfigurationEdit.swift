import Yams

/// One edit of a parsed configuration document, made along a `ConfigurationPath`.
enum ConfigurationEdit: Sendable {
    case set(String, ConfigurationValue)
    case remove(String)
    case append(String, ConfigurationValue)
    case merge(String, String)
    case addSections(String)

    func apply(to document: inout Node) throws {
        switch self {
        case .set(let path, let value):
            let (parent, last) = try ConfigurationPath(path).parentAndLast()
            let node = try value.node(at: path)
            try parent.modify(&document) { try last.set(node, in: &$0, path: path) }
        case .remove(let path):
            let (parent, last) = try ConfigurationPath(path).parentAndLast()
            try parent.modify(&document) { try last.remove(from: &$0, path: path) }
        case .append(let path, let value):
            let item = try value.node(at: path)
            try ConfigurationPath(path).modify(&document) { node in
                guard case .sequence(var list) = node else { throw ConfigurationEditError(path: path, problem: "is not a list") }
                list.append(item)
                node = .sequence(list)
            }
        case .merge(let path, let yaml):
            let members = try Self.mapping(yaml, path: path)
            try ConfigurationPath(path).modify(&document) { node in
                guard case .mapping(var mapping) = node else { throw ConfigurationEditError(path: path, problem: "is not a mapping") }
                for (key, value) in members { mapping[key] = value }
                node = .mapping(mapping)
            }
        case .addSections(let yaml):
            let sections = try Self.mapping(yaml, path: "")
            guard case .mapping(var root) = document else { throw ConfigurationEditError(path: "", problem: "is not a mapping") }
            for (key, value) in sections {
                guard root[key] == nil else {
                    throw ConfigurationEditError(path: key.string ?? "", problem: "the fixture already has this section; edit its keys by path")
                }
                root[key] = value
            }
            document = .mapping(root)
        }
    }

    private static func mapping(_ yaml: String, path: String) throws -> Node.Mapping {
        guard case .mapping(let mapping) = try ConfigurationValue.yaml(yaml).node(at: path) else {
            throw ConfigurationEditError(path: path, problem: "the value to merge is not a YAML mapping: \(yaml)")
        }
        return mapping
    }
}

/// A path into the document, in the loader's own key-path notation (`signIn.throttle.maxFailures`,
/// `clients[0].redirectUris`), where a list item may also be named by its `id` (`clients[office]`).
struct ConfigurationPath: Sendable {
    enum Step: Sendable {
        case key(String)
        case index(Int)
        case id(String)
    }

    let text: String
    let steps: [Step]

    init(_ text: String) throws {
        self.text = text
        var steps: [Step] = []
        for segment in text.split(separator: ".", omittingEmptySubsequences: false) where !text.isEmpty {
            let parts = segment.split(separator: "[", omittingEmptySubsequences: false)
            guard let key = parts.first, !key.isEmpty else {
                throw ConfigurationEditError(path: text, problem: "\"\(segment)\" does not start with a key")
            }
            steps.append(.key(String(key)))
            for selector in parts.dropFirst() {
                guard selector.hasSuffix("]"), selector.count > 1 else {
                    throw ConfigurationEditError(path: text, problem: "\"\(segment)\" has an unclosed [")
                }
                let inside = String(selector.dropLast())
                steps.append(Int(inside).map(Step.index) ?? .id(inside))
            }
        }
        self.steps = steps
    }

    private init(text: String, steps: [Step]) {
        self.text = text
        self.steps = steps
    }

    func parentAndLast() throws -> (ConfigurationPath, Step) {
        guard let last = steps.last else { throw ConfigurationEditError(path: text, problem: "names the whole document") }
        return (ConfigurationPath(text: text, steps: Array(steps.dropLast())), last)
    }

    /// Runs `body` on the node this path names, writing the change back; a missing step throws.
    func modify(_ document: inout Node, _ body: (inout Node) throws -> Void) throws {
        try Self.modify(&document, along: steps[...], path: text, body)
    }

    private static func modify(
        _ node: inout Node, along steps: ArraySlice<Step>, path: String, _ body: (inout Node) throws -> Void
    ) throws {
        guard let step = steps.first else { return try body(&node) }
        try step.modifyChild(of: &node, path: path) { try modify(&$0, along: steps.dropFirst(), path: path, body) }
    }
}

extension ConfigurationPath.Step {
    var name: String {
        switch self {
        case .key(let key): key
        case .index(let index): "[\(index)]"
        case .id(let id): "[\(id)]"
        }
    }

    func modifyChild(of node: inout Node, path: String, _ body: (inout Node) throws -> Void) throws {
        switch (self, node) {
        case (.key(let key), .mapping(var mapping)):
            guard var child = mapping[key] else { throw missing(path) }
            try body(&child)
            mapping[key] = child
            node = .mapping(mapping)
        case (.index, .sequence(var list)), (.id, .sequence(var list)):
            let index = try position(in: list, path: path)
            try body(&list[index])
            node = .sequence(list)
        default:
            throw wrongKind(path)
        }
    }

    func set(_ value: Node, in node: inout Node, path: String) throws {
        switch (self, node) {
        case (.key(let key), .mapping(var mapping)):
            mapping[key] = value
            node = .mapping(mapping)
        case (.index, .sequence(var list)), (.id, .sequence(var list)):
            list[try position(in: list, path: path)] = value
            node = .sequence(list)
        default:
            throw wrongKind(path)
        }
    }

    func remove(from node: inout Node, path: String) throws {
        switch (self, node) {
        case (.key(let key), .mapping(var mapping)):
            guard mapping[key] != nil else { throw missing(path) }
            mapping[key] = nil
            node = .mapping(mapping)
        case (.index, .sequence(var list)), (.id, .sequence(var list)):
            list.remove(at: try position(in: list, path: path))
            node = .sequence(list)
        default:
            throw wrongKind(path)
        }
    }

    private func position(in list: Node.Sequence, path: String) throws -> Int {
        let found: Int? =
            switch self {
            case .index(let index): list.indices.contains(index) ? index : nil
            case .id(let id): list.firstIndex { $0.mapping?["id"]?.string == id }
            case .key: nil
            }
        guard let found else { throw missing(path) }
        return found
    }

    private func missing(_ path: String) -> ConfigurationEditError {
        ConfigurationEditError(path: path, problem: "the document has no \(name) there")
    }

    private func wrongKind(_ path: String) -> ConfigurationEditError {
        ConfigurationEditError(path: path, problem: "\(name) does not fit the node there (a key needs a mapping, [..] a list)")
    }
}
