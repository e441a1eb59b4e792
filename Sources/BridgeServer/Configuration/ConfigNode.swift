import Foundation
import Yams

/// A configuration document as a plain tree that remembers where each value came from, so that schema and code
/// checks can name the YAML line (or environment variable) of a bad value. Objects keep their key order.
struct ConfigNode: Sendable, Hashable {
    indirect enum Value: Sendable, Hashable {
        case string(String)
        case integer(Int)
        case number(Double)
        case bool(Bool)
        case null
        case array([ConfigNode])
        case object([Member])
    }

    struct Member: Sendable, Hashable {
        var key: String
        var node: ConfigNode
    }

    var value: Value
    var line: Int?
    /// The environment variable this value came from, if it replaced the file's value.
    var source: String?

    init(_ value: Value, line: Int? = nil, source: String? = nil) {
        self.value = value
        self.line = line
        self.source = source
    }

    subscript(key: String) -> ConfigNode? {
        guard case .object(let members) = value else { return nil }
        return members.first { $0.key == key }?.node
    }

    /// The JSON type name a schema would use, for error messages.
    var typeName: String {
        switch value {
        case .string: "string"
        case .integer: "integer"
        case .number: "number"
        case .bool: "boolean"
        case .null: "null"
        case .array: "array"
        case .object: "object"
        }
    }

    /// Sets the value at `path` (object keys only), creating objects on the way.
    mutating func set(_ node: ConfigNode, at path: ArraySlice<String>) {
        guard let key = path.first else {
            self = node
            return
        }
        var members: [Member]
        if case .object(let existing) = value { members = existing } else { members = [] }
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].node.set(node, at: path.dropFirst())
        } else {
            var child = ConfigNode(.object([]))
            child.set(node, at: path.dropFirst())
            members.append(Member(key: key, node: child))
        }
        value = .object(members)
    }

    /// Plain Foundation values, for `JSONSerialization` and then `JSONDecoder`.
    var foundationValue: Any {
        switch value {
        case .string(let s): s
        case .integer(let i): i
        case .number(let d): d
        case .bool(let b): b
        case .null: NSNull()
        case .array(let items): items.map(\.foundationValue)
        case .object(let members):
            Dictionary(members.map { ($0.key, $0.node.foundationValue) }, uniquingKeysWith: { first, _ in first })
        }
    }
}

extension ConfigNode {
    /// Converts a composed YAML document, refusing one that expands to more than `maxValues` values.
    init(yaml node: Node) throws(ConfigurationError) {
        var budget = Self.maxValues
        try self.init(yaml: node, budget: &budget)
    }

    /// Yams expands aliases while composing; counting values bounds the work a "billion laughs" file can cause.
    static let maxValues = 100_000

    private init(yaml node: Node, budget: inout Int) throws(ConfigurationError) {
        budget -= 1
        guard budget >= 0 else {
            throw .single("", "the configuration has more than \(Self.maxValues) values (expanded YAML aliases?)")
        }
        let line = node.mark?.line
        switch node {
        case .scalar(let scalar):
            switch node.tag.rawValue {
            case Tag.Name.int.rawValue:
                guard let int = node.int else { throw .single("", "integer \(scalar.string) is out of range", line) }
                self.init(.integer(int), line: line)
            case Tag.Name.float.rawValue: self.init(.number(node.float ?? .nan), line: line)
            case Tag.Name.bool.rawValue: self.init(.bool(node.bool ?? false), line: line)
            case Tag.Name.null.rawValue: self.init(.null, line: line)
            default: self.init(.string(scalar.string), line: line)
            }
        case .sequence(let sequence):
            var items: [ConfigNode] = []
            for item in sequence { items.append(try ConfigNode(yaml: item, budget: &budget)) }
            self.init(.array(items), line: line)
        case .mapping(let mapping):
            var members: [Member] = []
            for (key, value) in mapping {
                guard case .scalar(let keyScalar) = key else {
                    throw .single("", "mapping keys must be plain strings", key.mark?.line)
                }
                if members.contains(where: { $0.key == keyScalar.string }) {
                    throw .single(keyScalar.string, "key appears twice", key.mark?.line)
                }
                members.append(Member(key: keyScalar.string, node: try ConfigNode(yaml: value, budget: &budget)))
            }
            self.init(.object(members), line: line)
        case .alias:
            throw .single("", "unresolved YAML alias", line)
        }
    }
}

extension ConfigurationError {
    static func single(_ keyPath: String, _ message: String, _ line: Int? = nil) -> ConfigurationError {
        ConfigurationError(file: nil, problems: [ConfigurationProblem(keyPath: keyPath, message: message, line: line)])
    }
}
