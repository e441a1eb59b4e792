import Foundation
import Yams

/// A configuration that passed every check, with the warnings worth printing (e.g. a `providerId` with `_`).
public struct LoadedConfiguration: Sendable {
    public var configuration: BridgeConfiguration
    public var warnings: [ConfigurationProblem]
}

/// Reads the YAML file, applies environment overrides and defaults, validates against `BridgeConfigSchema`, decodes,
/// then runs `ConfigurationChecks`. Any problem ends in one `ConfigurationError` listing all of them.
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
        tree = Self.merge(defaults: Self.defaults, into: tree)
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

    /// The JSON Schema the loader enforces (also published as schemas/bridge-config.schema.json).
    public static var schemaText: String { BridgeConfigSchema.text }

    static let schemaValidator: SchemaValidator = {
        do {
            return try SchemaValidator(schema: parse(BridgeConfigSchema.text, emptyMessage: "empty schema"))
        } catch {
            fatalError("the embedded configuration schema is broken: \(error)")  // caught by the schema tests
        }
    }()

    /// What a key left out means; the schema's `default` annotations say the same.
    static let defaults: ConfigNode = {
        let yaml = """
            listen: {host: 127.0.0.1, port: 8080}
            store: {sqlite: {path: data/bridge.sqlite, durability: normal}, purgeIntervalSeconds: 600}
            signingKeys: {file: data/signing-keys.json, publishBeforeSigningSeconds: 86400}
            log: {level: info, format: logfmt, requests: true}
            limits: {maxBodyBytes: 65536, maxHeaderValueBytes: 8192, idleTimeoutSeconds: 60}
            tokens: {accessTokenLifetimeSeconds: 3600, refreshTokenLifetimeSeconds: 7776000, refreshReuseGraceSeconds: 0, statusCacheMilliseconds: 1000}
            authorize: {codeLifetimeSeconds: 60, requestLifetimeSeconds: 900, allowPlainPKCE: false}
            exchange: {codeLifetimeSeconds: 30, sessionLifetimeSeconds: 60}
            appToApp: {referenceLifetimeSeconds: 300}
            signIn: {sessionLifetimeSeconds: 28800, bcryptCost: 12, throttle: {maxFailures: 5, windowSeconds: 900}}
            office: {}
            wopi: {accessTokenLifetimeSeconds: 36000}
            clients: []
            users: []
            upstreams: []
            broker: {sessionLifetimeSeconds: 180, loginLifetimeSeconds: 600}
            """
        do { return try parse(yaml, emptyMessage: "") } catch { fatalError("defaults: \(error)") }
    }()

    /// Adds keys missing from `tree` (objects only; arrays and scalars the user wrote are kept whole).
    static func merge(defaults: ConfigNode, into tree: ConfigNode) -> ConfigNode {
        guard case .object(let defaultMembers) = defaults.value, case .object(var members) = tree.value else {
            return tree
        }
        for member in defaultMembers {
            if let index = members.firstIndex(where: { $0.key == member.key }) {
                members[index].node = merge(defaults: member.node, into: members[index].node)
            } else {
                members.append(member)
            }
        }
        var merged = tree
        merged.value = .object(members)
        return merged
    }

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
