import Foundation

/// Validates a `ConfigNode` against the subset of JSON Schema (2020-12) that `schemas/bridge-config.schema.json`
/// uses. A schema that uses any other keyword is refused when the validator is made, so the published schema can
/// never promise a check this code does not make.
struct SchemaValidator: Sendable {
    static let supportedKeywords: Set<String> = [
        "$schema", "$id", "$defs", "$ref", "title", "description", "default", "examples",
        "type", "properties", "required", "additionalProperties", "items", "enum",
        "pattern", "minLength", "maxLength", "minimum", "maximum", "minItems", "maxItems", "uniqueItems",
    ]

    let root: ConfigNode

    init(schema: ConfigNode) throws(ConfigurationError) {
        self.root = schema
        try Self.checkKeywords(schema, path: "#")
    }

    /// Every problem in `instance`, in document order.
    func validate(_ instance: ConfigNode) -> [ConfigurationProblem] { validate(instance, against: root) }

    /// Every problem in `instance` against one subschema of the root (whose `$ref`s resolve in the root).
    func validate(_ instance: ConfigNode, against schema: ConfigNode) -> [ConfigurationProblem] {
        var problems: [ConfigurationProblem] = []
        validate(instance, against: schema, path: "", into: &problems)
        return problems
    }

    private func validate(
        _ instance: ConfigNode, against schema: ConfigNode, path: String, into problems: inout [ConfigurationProblem]
    ) {
        func fail(_ message: String) {
            problems.append(
                ConfigurationProblem(keyPath: path, message: message, line: instance.line, source: instance.source))
        }
        if case .string(let reference)? = schema["$ref"]?.value {
            guard let target = resolve(reference) else { return fail("schema reference \(reference) is unknown") }
            return validate(instance, against: target, path: path, into: &problems)
        }
        if let types = schema["type"].map(Self.strings), !types.contains(where: { Self.matches(instance, type: $0) }) {
            return fail("expected \(types.joined(separator: " or ")), got \(Self.describe(instance))")
        }
        if case .array(let allowed)? = schema["enum"]?.value,
            !allowed.contains(where: { Self.sameValue($0, instance) })
        {
            return fail("expected one of \(allowed.map(Self.describe).joined(separator: ", ")), got \(Self.describe(instance))")
        }
        switch instance.value {
        case .string(let string):
            let length = string.count
            if case .integer(let min)? = schema["minLength"]?.value, length < min {
                fail(min == 1 ? "must not be empty" : "must be at least \(min) characters long")
            }
            if case .integer(let max)? = schema["maxLength"]?.value, length > max {
                fail("must be at most \(max) characters long, got \(length)")
            }
            if case .string(let pattern)? = schema["pattern"]?.value, !Self.matches(string, pattern: pattern) {
                let hint = schema["description"].flatMap { if case .string(let d) = $0.value { d } else { nil } }
                fail("\(Self.describe(instance)) does not match \(pattern)" + (hint.map { " (\($0))" } ?? ""))
            }
        case .integer(let int):
            checkRange(Double(int), schema, fail)
        case .number(let number):
            checkRange(number, schema, fail)
        case .array(let items):
            if case .integer(let min)? = schema["minItems"]?.value, items.count < min {
                fail(min == 1 ? "must not be empty" : "must have at least \(min) items")
            }
            if case .integer(let max)? = schema["maxItems"]?.value, items.count > max {
                fail("must have at most \(max) items, got \(items.count)")
            }
            if case .bool(true)? = schema["uniqueItems"]?.value {
                for (index, item) in items.enumerated() where items[..<index].contains(where: { Self.sameValue($0, item) }) {
                    problems.append(
                        ConfigurationProblem(
                            keyPath: "\(path)[\(index)]", message: "repeats an earlier item", line: item.line))
                }
            }
            if let itemSchema = schema["items"] {
                for (index, item) in items.enumerated() {
                    validate(item, against: itemSchema, path: "\(path)[\(index)]", into: &problems)
                }
            }
        case .object(let members):
            let properties: [ConfigNode.Member]
            if case .object(let declared)? = schema["properties"]?.value { properties = declared } else { properties = [] }
            if case .array(let required)? = schema["required"]?.value {
                for case .string(let key) in required.map(\.value) where !members.contains(where: { $0.key == key }) {
                    problems.append(
                        ConfigurationProblem(
                            keyPath: Self.join(path, key), message: "is required but missing", line: instance.line))
                }
            }
            for member in members {
                let childPath = Self.join(path, member.key)
                if let propertySchema = properties.first(where: { $0.key == member.key })?.node {
                    validate(member.node, against: propertySchema, path: childPath, into: &problems)
                } else if let additional = schema["additionalProperties"] {
                    if case .bool(false) = additional.value {
                        let known = properties.map(\.key).joined(separator: ", ")
                        problems.append(
                            ConfigurationProblem(
                                keyPath: childPath, message: "is not a known key (known here: \(known))",
                                line: member.node.line, source: member.node.source))
                    } else if case .object = additional.value {
                        validate(member.node, against: additional, path: childPath, into: &problems)
                    }
                }
            }
        case .bool, .null:
            break
        }
    }

    private func checkRange(_ value: Double, _ schema: ConfigNode, _ fail: (String) -> Void) {
        if let min = schema["minimum"].flatMap(Self.number), value < min { fail("must be at least \(Self.format(min))") }
        if let max = schema["maximum"].flatMap(Self.number), value > max { fail("must be at most \(Self.format(max))") }
    }

    private func resolve(_ reference: String) -> ConfigNode? { Self.resolve(reference, in: root) }

    /// The subschema a local reference (`#/$defs/httpUrl`, RFC 6901 pointer syntax) names in `root`; nil for others.
    static func resolve(_ reference: String, in root: ConfigNode) -> ConfigNode? {
        guard reference.hasPrefix("#/") else { return nil }
        var node: ConfigNode? = root
        for component in reference.dropFirst(2).split(separator: "/") { node = node?[String(component)] }
        return node
    }

    // MARK: helpers

    static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    static func strings(_ node: ConfigNode) -> [String] {
        switch node.value {
        case .string(let s): [s]
        case .array(let items): items.compactMap { if case .string(let s) = $0.value { s } else { nil } }
        default: []
        }
    }

    static func number(_ node: ConfigNode) -> Double? {
        switch node.value {
        case .integer(let i): Double(i)
        case .number(let d): d
        default: nil
        }
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    static func matches(_ node: ConfigNode, type: String) -> Bool {
        switch (type, node.value) {
        case ("string", .string), ("integer", .integer), ("boolean", .bool), ("null", .null), ("array", .array),
            ("object", .object), ("number", .integer), ("number", .number):
            true
        default:
            false
        }
    }

    static func sameValue(_ a: ConfigNode, _ b: ConfigNode) -> Bool {
        switch (a.value, b.value) {
        case (.array(let x), .array(let y)): x.count == y.count && zip(x, y).allSatisfy { sameValue($0, $1) }
        case (.object(let x), .object(let y)):
            x.count == y.count
                && x.allSatisfy { member in y.contains { $0.key == member.key && sameValue($0.node, member.node) } }
        default: a.value == b.value
        }
    }

    static func describe(_ node: ConfigNode) -> String {
        switch node.value {
        case .string(let s): "\"\(s.count > 60 ? s.prefix(60) + "…" : s)\""
        case .integer(let i): String(i)
        case .number(let d): String(d)
        case .bool(let b): String(b)
        case .null: "null"
        case .array: "an array"
        case .object: "an object"
        }
    }

    static func matches(_ string: String, pattern: String) -> Bool {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return false }
        let range = NSRange(string.startIndex..., in: string)
        return regex.firstMatch(in: string, range: range) != nil
    }

    private static func checkKeywords(_ schema: ConfigNode, path: String) throws(ConfigurationError) {
        guard case .object(let members) = schema.value else { return }
        for member in members {
            guard supportedKeywords.contains(member.key) else {
                throw .single(path, "schema keyword \(member.key) is not supported by SchemaValidator", member.node.line)
            }
            switch member.key {
            case "properties", "$defs":
                if case .object(let children) = member.node.value {
                    for child in children { try checkKeywords(child.node, path: "\(path)/\(member.key)/\(child.key)") }
                }
            case "items", "additionalProperties":
                try checkKeywords(member.node, path: "\(path)/\(member.key)")
            case "pattern":
                if case .string(let pattern) = member.node.value, (try? NSRegularExpression(pattern: pattern)) == nil {
                    throw .single(path, "pattern \(pattern) does not compile", member.node.line)
                }
            default:
                break
            }
        }
    }
}
