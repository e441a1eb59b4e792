/// One environment variable that replaces one configuration key, for containers and CI where editing the file is
/// awkward. Values are validated like the file's, and errors name the variable.
struct EnvironmentOverride: Sendable {
    enum Kind: Sendable { case string, integer, boolean }

    let variable: String
    let keyPath: [String]
    let kind: Kind

    static let all: [EnvironmentOverride] = [
        .init(variable: "SIGNIN_BRIDGE_ISSUER", keyPath: ["issuer"], kind: .string),
        .init(variable: "SIGNIN_BRIDGE_HOST", keyPath: ["listen", "host"], kind: .string),
        .init(variable: "SIGNIN_BRIDGE_PORT", keyPath: ["listen", "port"], kind: .integer),
        .init(variable: "SIGNIN_BRIDGE_SQLITE_PATH", keyPath: ["store", "sqlite", "path"], kind: .string),
        .init(variable: "SIGNIN_BRIDGE_STORE_URL", keyPath: ["store", "postgres", "url"], kind: .string),
        .init(variable: "SIGNIN_BRIDGE_SIGNING_KEYS_FILE", keyPath: ["signingKeys", "file"], kind: .string),
        .init(variable: "SIGNIN_BRIDGE_LOG_LEVEL", keyPath: ["log", "level"], kind: .string),
        .init(variable: "SIGNIN_BRIDGE_LOG_FORMAT", keyPath: ["log", "format"], kind: .string),
        .init(variable: "SIGNIN_BRIDGE_LOG_REQUESTS", keyPath: ["log", "requests"], kind: .boolean),
        .init(variable: "SIGNIN_BRIDGE_IDENTITY_ISSUER", keyPath: ["identityProvider", "issuer"], kind: .string),
        .init(variable: "SIGNIN_BRIDGE_IDENTITY_AUDIENCE", keyPath: ["identityProvider", "audience"], kind: .string),
    ]

    /// A value the schema can then accept or refuse; text that is not a number stays text, so the schema's error
    /// ("expected integer, got \"eighty\"") reaches the user.
    func node(for raw: String) -> ConfigNode {
        let value: ConfigNode.Value
        switch kind {
        case .string: value = .string(raw)
        case .integer: value = Int(raw).map(ConfigNode.Value.integer) ?? .string(raw)
        case .boolean:
            switch raw.lowercased() {
            case "true", "1", "yes": value = .bool(true)
            case "false", "0", "no": value = .bool(false)
            default: value = .string(raw)
            }
        }
        return ConfigNode(value, line: nil, source: variable)
    }
}
