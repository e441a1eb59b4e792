import BridgeServer
import Foundation
import Yams

/// A test configuration: a fixture's YAML and named edits of it, applied to the parsed document rather than its
/// text, so an edit of a key the fixture no longer has throws (naming the path) instead of quietly testing the
/// fixture unchanged. The result goes through the real `ConfigurationLoader`, so the schema and checks still run.
struct ConfigurationBuilder: Sendable {
    let fixture: String
    private(set) var edits: [ConfigurationEdit] = []

    init(_ fixture: String) { self.fixture = fixture }

    /// Sets the value at `path` (`log.requests`, `clients[office].profile`, `clients[0].grants`); everything but
    /// the last key must exist. A misspelt last key is left to the schema, which refuses unknown keys.
    func setting(_ path: String, to value: ConfigurationValue) -> Self { adding(.set(path, value)) }

    /// Removes the key or list item at `path`, which must exist.
    func removing(_ path: String) -> Self { adding(.remove(path)) }

    /// Appends a list item to the list at `path`, which must exist.
    func appending(_ value: ConfigurationValue, to path: String) -> Self { adding(.append(path, value)) }

    /// Adds the top-level sections of a YAML mapping (`dpop: {requireNonce: true}`); a section the fixture
    /// already has is an error, so its keys are edited by path instead.
    func addingSections(_ yaml: String) -> Self { adding(.addSections(yaml)) }

    /// Sets every key of a YAML mapping into the mapping at `path`, which must exist.
    func merging(_ yaml: String, into path: String) -> Self { adding(.merge(path, yaml)) }

    private func adding(_ edit: ConfigurationEdit) -> Self {
        var copy = self
        copy.edits.append(edit)
        return copy
    }

    /// The fixture with every edit applied, as YAML text.
    func yaml() throws -> String {
        guard var document = try Yams.compose(yaml: fixture) else {
            throw ConfigurationEditError(path: "", problem: "the fixture is an empty document")
        }
        for edit in edits { try edit.apply(to: &document) }
        return try Yams.serialize(node: document, width: -1)
    }

    /// The edited configuration as the server loads it (schema, defaults and checks included).
    func load(environment: [String: String] = [:]) throws -> LoadedConfiguration {
        try ConfigurationLoader(environment: environment).load(yaml: yaml())
    }

    var configuration: BridgeConfiguration { get throws { try load().configuration } }
}

/// The named edits tests make most often.
extension ConfigurationBuilder {
    func issuer(_ url: String) -> Self { setting("issuer", to: .string(url)) }
    func requestLogs(_ on: Bool) -> Self { setting("log.requests", to: .bool(on)) }
    /// One more entry of `clients:`, written as YAML (`{id: app, public: true, ...}` or block style).
    func addingClient(_ yaml: String) -> Self { appending(.yaml(yaml), to: "clients") }
    /// Sets `key` of the client whose `id` is `id`.
    func client(_ id: String, setting key: String, to value: ConfigurationValue) -> Self {
        setting("clients[\(id)].\(key)", to: value)
    }
}

/// A value an edit writes. Strings are written quoted, so `"3600"` stays a string and `true` a bool.
enum ConfigurationValue: Sendable, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByStringInterpolation, ExpressibleByArrayLiteral
{
    case bool(Bool)
    case integer(Int)
    case string(String)
    case strings([String])
    /// Any YAML value, parsed as written (a mapping, a list of mappings, or a raw scalar the schema should refuse).
    case yaml(String)

    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(integerLiteral value: Int) { self = .integer(value) }
    init(stringLiteral value: String) { self = .string(value) }
    init(arrayLiteral elements: String...) { self = .strings(elements) }

    func node(at path: String) throws -> Node {
        switch self {
        case .bool(let value): return Node(value ? "true" : "false", Tag(.bool))
        case .integer(let value): return Node(String(value), Tag(.int))
        case .string(let value): return Node(value, Tag(.str), .doubleQuoted)
        case .strings(let values):
            return Node(values.map { Node($0, Tag(.str), .doubleQuoted) }, Tag(.seq), .flow)
        case .yaml(let text):
            guard let node = try? Yams.compose(yaml: text) else {
                throw ConfigurationEditError(path: path, problem: "the value is not one YAML document: \(text)")
            }
            return node
        }
    }
}

/// An edit that could not be made: the path it names is missing from the document, or is the wrong kind of node.
struct ConfigurationEditError: Error, CustomStringConvertible {
    let path: String
    let problem: String
    var description: String { "configuration edit at \"\(path)\": \(problem)" }
}

/// Parameterized tests name their cases by the edits, not by the whole fixture.
extension ConfigurationBuilder: CustomStringConvertible {
    var description: String { edits.isEmpty ? "the fixture" : edits.map(\.summary).joined(separator: ", ") }
}

extension ConfigurationEdit {
    var summary: String {
        switch self {
        case .set(let path, _): "set \(path)"
        case .remove(let path): "remove \(path)"
        case .append(let path, _): "append to \(path)"
        case .merge(let path, _): "merge into \(path)"
        case .addSections(let yaml): "add \(yaml.prefix { $0 != ":" })"
        }
    }
}
