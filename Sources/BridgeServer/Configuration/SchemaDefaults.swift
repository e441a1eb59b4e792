/// Fills the keys a configuration left out with the `default` annotations of its JSON Schema, the one place the
/// defaults are written. JSON Schema makes `default` an annotation only (JSON Schema Validation 2020-12 §9.2);
/// applying it is this loader's rule, before validation, so a default is checked like a written value.
///
/// The walk follows `properties`, `items` and `$ref`:
/// - an absent key whose subschema has a `default` gets that value, which is then walked too (so an object defaulted
///   to `{}`, such as `listen`, receives its own members' defaults);
/// - an absent key without a `default` stays absent (`store.postgres`: writing it is what selects PostgreSQL);
/// - every item of an array is walked with the `items` subschema, so each client and upstream gets its defaults;
///   an array is never extended, and a value of the wrong type is left for the validator to name.
/// Defaults that follow from other keys (the issuer from `listen`, the WOPI URLs from the issuer) cannot be one fixed
/// value in the schema; `DerivedURLs` computes them after this walk.
struct SchemaDefaults: Sendable {
    let root: ConfigNode

    init(schema: ConfigNode) {
        self.root = schema
    }

    func apply(to tree: ConfigNode) -> ConfigNode {
        fill(tree, schema: root)
    }

    private func fill(_ node: ConfigNode, schema: ConfigNode) -> ConfigNode {
        let schema = resolved(schema)
        var filled = node
        switch node.value {
        case .object(var members):
            guard case .object(let properties)? = schema["properties"]?.value else { return node }
            for property in properties {
                if let index = members.firstIndex(where: { $0.key == property.key }) {
                    members[index].node = fill(members[index].node, schema: property.node)
                } else if let value = property.node["default"] ?? resolved(property.node)["default"] {
                    members.append(.init(key: property.key, node: fill(value.unplaced, schema: property.node)))
                }
            }
            filled.value = .object(members)
        case .array(let items):
            guard let itemSchema = schema["items"] else { return node }
            filled.value = .array(items.map { fill($0, schema: itemSchema) })
        default:
            break
        }
        return filled
    }

    private func resolved(_ schema: ConfigNode) -> ConfigNode {
        guard case .string(let reference)? = schema["$ref"]?.value else { return schema }
        return SchemaValidator.resolve(reference, in: root) ?? schema
    }
}

extension ConfigNode {
    /// The same value without the schema file's line numbers, so that no problem is ever reported at a schema line.
    var unplaced: ConfigNode {
        switch value {
        case .array(let items): ConfigNode(.array(items.map(\.unplaced)))
        case .object(let members): ConfigNode(.object(members.map { Member(key: $0.key, node: $0.node.unplaced) }))
        default: ConfigNode(value)
        }
    }
}
