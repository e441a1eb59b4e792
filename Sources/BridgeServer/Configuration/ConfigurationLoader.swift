import Foundation
import Yams

/// A configuration that passed every check, with the warnings worth printing (e.g. a `providerId` with `_`).
public struct LoadedConfiguration: Sendable {
    public var configuration: BridgeConfiguration
    public var warnings: [ConfigurationProblem]
}

/// Reads the YAML file, applies environment overrides, the schema's defaults (`SchemaDefaults`) and the derived URLs,
/// validates against the schema, decodes, then runs `ConfigurationChecks`. Any problem ends in one
/// `ConfigurationError` listing all of them.
public struct ConfigurationLoader: Sendable {
    /// A configuration file is small; anything larger is a mistake (or an attack on the parser).
    public static let maxFileBytes = 1 << 20

    public var environment: [String: String]
    /// `serve --host`: replaces `listen.host` after the file and the environment (and so moves a derived issuer).
    public var listenHost: String?
    /// `serve --port`: replaces `listen.port` the same way.
    public var listenPort: Int?

    public init(
        environment: [String: String] = ProcessInfo.processInfo.environment, listenHost: String? = nil,
        listenPort: Int? = nil
    ) {
        self.environment = environment
        self.listenHost = listenHost
        self.listenPort = listenPort
    }

    public func load(file path: String) throws(ConfigurationError) -> LoadedConfiguration {
        let data: Data
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            if let size = attributes[.size] as? Int, size > Self.maxFileBytes {
                throw ConfigurationError(
                    file: path,
                    problems: [.init(keyPath: "", message: "the file is \(size) bytes, over the limit of \(Self.maxFileBytes)")])
            }
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch let error as ConfigurationError {
            throw error
        } catch {
            throw ConfigurationError(file: path, problems: [.init(keyPath: "", message: "cannot read the file (\(error.localizedDescription))")])
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigurationError(file: path, problems: [.init(keyPath: "", message: "the file is not UTF-8 text")])
        }
        return try load(yaml: text, file: path)
    }

    public func load(yaml text: String, file: String? = nil) throws(ConfigurationError) -> LoadedConfiguration {
        do {
            return try loadUnattributed(yaml: text)
        } catch {
            throw ConfigurationError(file: file, problems: error.problems)
        }
    }

    private func loadUnattributed(yaml text: String) throws(ConfigurationError) -> LoadedConfiguration {
        guard text.utf8.count <= Self.maxFileBytes else {
            throw .single("", "the configuration is over the limit of \(Self.maxFileBytes) bytes")
        }
        var tree = try Self.parse(text, emptyMessage: "the configuration is empty")
        for override in EnvironmentOverride.all {
            guard let raw = environment[override.variable] else { continue }
            tree.set(override.node(for: raw), at: override.keyPath[...])
        }
        if let listenHost { tree.set(ConfigNode(.string(listenHost), source: "--host"), at: ["listen", "host"]) }
        if let listenPort { tree.set(ConfigNode(.integer(listenPort), source: "--port"), at: ["listen", "port"]) }
        tree = Self.schemaDefaults.apply(to: tree)
        let issuerDerived = tree["issuer"] == nil
        DerivedURLs.apply(to: &tree)

        let schemaProblems = Self.schemaValidator.validate(tree)
        if !schemaProblems.isEmpty { throw ConfigurationError(file: nil, problems: schemaProblems) }

        let configuration: BridgeConfiguration
        do {
            let json = try JSONSerialization.data(withJSONObject: tree.foundationValue)
            configuration = try JSONDecoder().decode(BridgeConfiguration.self, from: json)
        } catch {
            // The schema should have caught it; still name what we can rather than crash.
            throw .single(Self.keyPath(of: error), "cannot be read: \(error)")
        }

        var checks = ConfigurationChecks(lineOf: { tree.line(at: $0) }, issuerDerived: issuerDerived)
        checks.run(configuration)
        if !checks.errors.isEmpty { throw ConfigurationError(file: nil, problems: checks.errors) }
        return LoadedConfiguration(configuration: configuration, warnings: checks.warnings)
    }

    // MARK: parts

    static func parse(_ text: String, emptyMessage: String) throws(ConfigurationError) -> ConfigNode {
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw .single("", "not valid YAML: \(Self.summary(of: error))", Self.line(of: error))
        } catch {
            throw .single("", "not valid YAML: \(error)")
        }
        guard let node else { throw .single("", emptyMessage) }
        return try ConfigNode(yaml: node)
    }

    /// The JSON Schema the loader enforces and takes its defaults from: schemas/bridge-config.schema.json, embedded
    /// at build time (Package.swift), so the installed binary needs no file beside it.
    public static let schemaText = String(decoding: PackageResources.bridge_config_schema_json, as: UTF8.self)

    static let schema: ConfigNode = {
        do {
            return try parse(schemaText, emptyMessage: "empty schema")
        } catch {
            fatalError("the embedded configuration schema is broken: \(error)")  // caught by the schema tests
        }
    }()

    static let schemaValidator: SchemaValidator = {
        do {
            return try SchemaValidator(schema: schema)
        } catch {
            fatalError("the embedded configuration schema is broken: \(error)")  // caught by the schema tests
        }
    }()

    static let schemaDefaults = SchemaDefaults(schema: schema)

    static func keyPath(of error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return "" }
        let context: DecodingError.Context
        switch decoding {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c): context = c
        case .keyNotFound(let key, let c): return (c.codingPath + [key]).keyPathString
        @unknown default: return ""
        }
        return context.codingPath.keyPathString
    }

    static func line(of error: YamlError) -> Int? {
        switch error {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _): mark.line
        default: nil
        }
    }

    static func summary(of error: YamlError) -> String {
        switch error {
        case .scanner(let context, let problem, _, _), .parser(let context, let problem, _, _),
            .composer(let context, let problem, _, _):
            [context?.text, problem].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        default: "\(error)"
        }
    }
}

extension [any CodingKey] {
    var keyPathString: String {
        var result = ""
        for key in self {
            if let index = key.intValue {
                result += "[\(index)]"
            } else {
                result += result.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return result
    }
}

extension ConfigNode {
    /// The YAML line of the value at a key path such as `clients[0].redirectUris[1]`, or of its nearest parent.
    func line(at keyPath: String) -> Int? {
        var node = self
        var best = line
        for component in KeyPathComponents.split(keyPath) {
            switch (component, node.value) {
            case (.key(let key), .object):
                guard let child = node[key] else { return best }
                node = child
            case (.index(let index), .array(let items)) where items.indices.contains(index):
                node = items[index]
            default:
                return best
            }
            best = node.line ?? best
        }
        return best
    }
}

enum KeyPathComponents: Equatable {
    case key(String)
    case index(Int)

    static func split(_ keyPath: String) -> [KeyPathComponents] {
        var result: [KeyPathComponents] = []
        for part in keyPath.split(separator: ".") {
            var rest = Substring(part)
            if let bracket = rest.firstIndex(of: "[") {
                if bracket != rest.startIndex { result.append(.key(String(rest[..<bracket]))) }
                rest = rest[bracket...]
                while rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
                    if let index = Int(rest[rest.index(after: rest.startIndex)..<close]) { result.append(.index(index)) }
                    rest = rest[rest.index(after: close)...]
                }
            } else {
                result.append(.key(String(rest)))
            }
        }
        return result
    }
}
