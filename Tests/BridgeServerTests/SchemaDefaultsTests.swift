import Testing

@testable import BridgeServer

/// The schema's `default` annotations are the configuration's only static defaults (`SchemaDefaults`).
@Suite("Configuration: schema defaults")
struct SchemaDefaultsTests {
    static let schema = ConfigurationLoader.schema
    static let defaults = SchemaDefaults(schema: schema)

    /// Every subschema that carries a `default`, with its JSON Pointer (RFC 6901) in the schema.
    static func annotatedSubschemas(_ node: ConfigNode, at pointer: String = "#") -> [(String, ConfigNode)] {
        guard case .object(let members) = node.value else { return [] }
        var found: [(String, ConfigNode)] = node["default"] != nil ? [(pointer, node)] : []
        for member in members {
            switch member.key {
            case "properties", "$defs":
                guard case .object(let children) = member.node.value else { continue }
                for child in children {
                    found += annotatedSubschemas(child.node, at: "\(pointer)/\(member.key)/\(child.key)")
                }
            case "items", "additionalProperties":
                found += annotatedSubschemas(member.node, at: "\(pointer)/\(member.key)")
            default:
                continue
            }
        }
        return found
    }

    static func tree(_ yaml: String) throws -> ConfigNode {
        try ConfigurationLoader.parse(yaml, emptyMessage: "empty")
    }

    @Test func everyDefaultValidatesAgainstItsOwnSubschema() throws {
        let annotated = Self.annotatedSubschemas(Self.schema)
        // 51 annotations before the objects' `default: {}` were added; the walk must find them all.
        #expect(annotated.count >= 51)
        for (pointer, subschema) in annotated {
            let value = try #require(subschema["default"])
            let problems = ConfigurationLoader.schemaValidator.validate(value, against: subschema)
            #expect(problems.isEmpty, "\(pointer): \(problems)")
        }
    }

    @Test func theDefaultsOfAnEmptyConfigurationAreValid() throws {
        var tree = Self.defaults.apply(to: try Self.tree("{}"))
        DerivedURLs.apply(to: &tree)
        #expect(ConfigurationLoader.schemaValidator.validate(tree).isEmpty)
    }

    @Test func anAbsentObjectWithoutADefaultStaysAbsent() throws {
        let filled = Self.defaults.apply(to: try Self.tree("{}"))
        #expect(filled["store"]?["sqlite"]?["durability"]?.value == .string("normal"))
        #expect(filled["store"]?["postgres"] == nil)
        #expect(filled["office"]?["urlSchemes"] == nil)
        #expect(filled["partnerApps"] == nil)
    }

    @Test func aWrittenObjectGetsTheDefaultsOfItsMissingMembers() throws {
        let filled = Self.defaults.apply(to: try Self.tree("store: {postgres: {url: postgres://u@h/d}}"))
        #expect(filled["store"]?["postgres"]?["maxConnections"]?.value == .integer(10))
        #expect(filled["store"]?["postgres"]?["connectTimeoutMilliseconds"]?.value == .integer(5000))
        #expect(filled["store"]?["sqlite"]?["path"]?.value == .string("data/bridge.sqlite"))
    }

    @Test func eachArrayItemGetsTheItemDefaultsAndTheArrayIsNotExtended() throws {
        let filled = Self.defaults.apply(
            to: try Self.tree("upstreams: [{id: a, claims: {email: mail}}, {id: b, scopes: [openid]}]"))
        guard case .array(let items)? = filled["upstreams"]?.value else {
            Issue.record("upstreams is not an array")
            return
        }
        #expect(items.count == 2)
        #expect(items[0]["claims"]?["email"]?.value == .string("mail"))
        #expect(items[0]["claims"]?["name"]?.value == .string("name"))
        #expect(items[0]["timeoutSeconds"]?.value == .integer(10))
        #expect(items[1]["scopes"]?.foundationValue as? [String] == ["openid"])
        #expect(items[1]["claims"]?["phoneNumber"]?.value == .string("phone_number"))
    }

    @Test func aValueOfTheWrongTypeIsLeftForTheValidatorToName() throws {
        let filled = Self.defaults.apply(to: try Self.tree("listen: 5\nclients: [7]"))
        #expect(filled["listen"]?.value == .integer(5))
        #expect(filled["clients"]?.foundationValue as? [Int] == [7])
        let problems = Self.problems("listen: 5")
        #expect(problems.map(\.keyPath).contains("listen"), "\(problems)")
    }

    @Test func aFilledDefaultCarriesNoLineOfTheSchema() throws {
        let filled = Self.defaults.apply(to: try Self.tree("log: {level: debug}"))
        #expect(filled["log"]?["level"]?.line != nil)
        #expect(filled["log"]?["format"]?.value == .string("logfmt"))
        #expect(filled["log"]?["format"]?.line == nil)
        #expect(filled["listen"]?.line == nil && filled["listen"]?["port"]?.line == nil)
    }

    static func problems(_ yaml: String) -> [ConfigurationProblem] {
        do {
            _ = try ConfigurationLoader(environment: [:]).load(yaml: yaml)
            return []
        } catch {
            return error.problems
        }
    }
}
