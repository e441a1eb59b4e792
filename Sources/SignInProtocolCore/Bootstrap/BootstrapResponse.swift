import Foundation

/// The user and ecosystem a successful bootstrap names: `{"Bootstrap":{"EcosystemUrl":…,"UserId":…,"SignInName":…,
/// "UserFriendlyName":…}}` (WOPI bootstrapper docs; Microsoft's Office app-to-app docs).
public struct Bootstrap: Sendable, Hashable, Codable {
    /// The ecosystem endpoint, with a WOPI access token in its query.
    public var ecosystemURL: String
    public var userId: String
    public var signInName: String
    public var userFriendlyName: String?

    public init(ecosystemURL: String, userId: String, signInName: String, userFriendlyName: String? = nil) {
        self.ecosystemURL = ecosystemURL
        self.userId = userId
        self.signInName = signInName
        self.userFriendlyName = userFriendlyName
    }

    enum CodingKeys: String, CodingKey {
        case ecosystemURL = "EcosystemUrl"
        case userId = "UserId"
        case signInName = "SignInName"
        case userFriendlyName = "UserFriendlyName"
    }
}

/// A fresh WOPI access token, added for `GET_NEW_ACCESS_TOKEN`.
public struct AccessTokenInfo: Sendable, Hashable, Codable {
    public var accessToken: String
    /// Milliseconds since 1970-01-01 UTC (WOPI "access_token_ttl"); 0 means it does not expire.
    public var accessTokenExpiry: Int64

    public init(accessToken: String, accessTokenExpiry: Int64) {
        self.accessToken = accessToken
        self.accessTokenExpiry = accessTokenExpiry
    }

    public init(accessToken: String, expiresAt date: Date) {
        self.init(accessToken: accessToken, accessTokenExpiry: Int64((date.timeIntervalSince1970 * 1000).rounded()))
    }

    /// Nil when the token does not expire.
    public var expiryDate: Date? {
        accessTokenExpiry == 0 ? nil : Date(timeIntervalSince1970: Double(accessTokenExpiry) / 1000)
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "AccessToken"
        case accessTokenExpiry = "AccessTokenExpiry"
    }
}

/// The root container, added for `GET_ROOT_CONTAINER`: a pointer plus the container's CheckContainerInfo.
public struct RootContainerInfo: Sendable, Hashable, Codable {
    public struct ContainerPointer: Sendable, Hashable, Codable {
        /// The container's WopiSrc, with an access token.
        public var url: String
        public var name: String

        public init(url: String, name: String) {
            self.url = url
            self.name = name
        }

        enum CodingKeys: String, CodingKey {
            case url = "Url"
            case name = "Name"
        }
    }

    /// CheckContainerInfo: `Name` is required; every other property is passed through as sent.
    public struct ContainerInfo: Sendable, Hashable, Codable {
        public var name: String
        public var otherProperties: [String: JSONValue]

        public init(name: String, otherProperties: [String: JSONValue] = [:]) {
            self.name = name
            self.otherProperties = otherProperties
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyCodingKey.self)
            name = try container.decode(String.self, forKey: AnyCodingKey("Name"))
            otherProperties = [:]
            for key in container.allKeys where key.stringValue != "Name" {
                otherProperties[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: AnyCodingKey.self)
            try container.encode(name, forKey: AnyCodingKey("Name"))
            for key in otherProperties.keys.sorted() {
                try container.encode(otherProperties[key], forKey: AnyCodingKey(key))
            }
        }
    }

    public var containerPointer: ContainerPointer
    public var containerInfo: ContainerInfo

    public init(containerPointer: ContainerPointer, containerInfo: ContainerInfo) {
        self.containerPointer = containerPointer
        self.containerInfo = containerInfo
    }

    enum CodingKeys: String, CodingKey {
        case containerPointer = "ContainerPointer"
        case containerInfo = "ContainerInfo"
    }
}

/// The body of a `200` from `/wopibootstrapper`: the bootstrap, plus the section the requested
/// `EcosystemOperation` adds. Sections this library does not know (e.g. the co-authoring `EndPoints`) are kept.
public struct BootstrapResponse: Sendable, Hashable, Codable {
    public var bootstrap: Bootstrap
    public var accessTokenInfo: AccessTokenInfo?
    public var rootContainerInfo: RootContainerInfo?
    public var otherSections: [String: JSONValue]

    public init(
        bootstrap: Bootstrap, accessTokenInfo: AccessTokenInfo? = nil, rootContainerInfo: RootContainerInfo? = nil,
        otherSections: [String: JSONValue] = [:]
    ) {
        self.bootstrap = bootstrap
        self.accessTokenInfo = accessTokenInfo
        self.rootContainerInfo = rootContainerInfo
        self.otherSections = otherSections
    }

    static let bootstrapKey = AnyCodingKey("Bootstrap")
    static let accessTokenInfoKey = AnyCodingKey("AccessTokenInfo")
    static let rootContainerInfoKey = AnyCodingKey("RootContainerInfo")

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        bootstrap = try container.decode(Bootstrap.self, forKey: Self.bootstrapKey)
        accessTokenInfo = try container.decodeIfPresent(AccessTokenInfo.self, forKey: Self.accessTokenInfoKey)
        rootContainerInfo = try container.decodeIfPresent(RootContainerInfo.self, forKey: Self.rootContainerInfoKey)
        otherSections = [:]
        let known = [Self.bootstrapKey, Self.accessTokenInfoKey, Self.rootContainerInfoKey]
        for key in container.allKeys where !known.contains(key) {
            otherSections[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: AnyCodingKey.self)
        try container.encode(bootstrap, forKey: Self.bootstrapKey)
        try container.encodeIfPresent(accessTokenInfo, forKey: Self.accessTokenInfoKey)
        try container.encodeIfPresent(rootContainerInfo, forKey: Self.rootContainerInfoKey)
        for key in otherSections.keys.sorted() {
            try container.encode(otherSections[key], forKey: AnyCodingKey(key))
        }
    }

    /// Decodes a response body, refusing bodies over `limit` before parsing.
    public static func decode(_ body: Data, limit: InputLimit = .default) throws(BootstrapResponseError) -> Self {
        try BootstrapResponseError.decoding(Self.self, from: body, limit: limit)
    }

    /// The body to send: `{"Bootstrap":{…},…}`, keys sorted so the bytes do not depend on the platform.
    public func encoded() -> Data { Data(jsonValue.compactJSON) }
}

extension BootstrapResponse: CompactJSONRepresentable {
    /// The body as a `JSONValue`, keyed as `encode(to:)` keys it; a known section wins over a passed-along one.
    public var jsonValue: JSONValue {
        var sections = otherSections
        sections[Self.bootstrapKey.stringValue] = bootstrap.jsonValue
        if let accessTokenInfo {
            sections[Self.accessTokenInfoKey.stringValue] = .object([
                "AccessToken": .string(accessTokenInfo.accessToken),
                "AccessTokenExpiry": .integer(accessTokenInfo.accessTokenExpiry),
            ])
        }
        if let rootContainerInfo {
            var containerInfo = rootContainerInfo.containerInfo.otherProperties
            containerInfo["Name"] = .string(rootContainerInfo.containerInfo.name)
            let pointer = rootContainerInfo.containerPointer
            sections[Self.rootContainerInfoKey.stringValue] = .object([
                "ContainerPointer": .object(["Url": .string(pointer.url), "Name": .string(pointer.name)]),
                "ContainerInfo": .object(containerInfo),
            ])
        }
        return .object(sections)
    }
}

extension Bootstrap {
    var jsonValue: JSONValue {
        var members: [String: JSONValue] = [
            "EcosystemUrl": .string(ecosystemURL), "UserId": .string(userId), "SignInName": .string(signInName),
        ]
        if let userFriendlyName { members["UserFriendlyName"] = .string(userFriendlyName) }
        return .object(members)
    }
}

/// A bootstrap JSON body could not be decoded; `path` is where, as `Bootstrap.UserId`.
public enum BootstrapResponseError: Error, Sendable, Hashable, CustomStringConvertible {
    case tooLarge(InputTooLarge)
    case missingField(path: String)
    case wrongType(path: String)
    case malformedJSON(String)

    public var description: String {
        switch self {
        case .tooLarge(let error): "\(error)"
        case .missingField(let path): "bootstrap response: missing \(path)"
        case .wrongType(let path): "bootstrap response: \(path) has the wrong type"
        case .malformedJSON(let detail): "bootstrap response: invalid JSON: \(detail)"
        }
    }

    /// `JSONDecoder` with a size limit and its errors mapped to ones that name the field.
    static func decoding<T: Decodable>(_ type: T.Type, from body: Data, limit: InputLimit) throws(Self) -> T {
        do { try limit.check(byteCount: body.count, what: "bootstrap response") } catch { throw .tooLarge(error) }
        do {
            return try JSONDecoder().decode(type, from: body)
        } catch let error as DecodingError {
            func path(_ codingPath: [any CodingKey], _ last: (any CodingKey)? = nil) -> String {
                (codingPath + (last.map { [$0] } ?? [])).map(\.stringValue).joined(separator: ".")
            }
            switch error {
            case .keyNotFound(let key, let context): throw .missingField(path: path(context.codingPath, key))
            case .valueNotFound(_, let context), .typeMismatch(_, let context):
                throw .wrongType(path: path(context.codingPath))
            case .dataCorrupted(let context):
                throw context.codingPath.isEmpty
                    ? .malformedJSON(context.debugDescription) : .wrongType(path: path(context.codingPath))
            @unknown default: throw .malformedJSON("\(error)")
            }
        } catch {
            throw .malformedJSON("\(error)")
        }
    }
}

extension Bootstrap {
    /// Decodes the plain bootstrap body `{"Bootstrap":{…}}`.
    public static func decode(_ body: Data, limit: InputLimit = .default) throws(BootstrapResponseError) -> Bootstrap {
        try BootstrapResponse.decode(body, limit: limit).bootstrap
    }
}
