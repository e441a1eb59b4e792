/// The `UrlSchemes` a WOPI host returns in its bootstrap challenge: per platform, the ordered list of ways Office may
/// use to open the partner app before it falls back to the WebView (Microsoft's app-to-app docs, "Sign in using your app").
///
/// JSON form, keys in this order: `{"iOS":[…],"Android":[…],"UWP":[…]}`; platforms the host does not support are
/// omitted. Keys other than these three are kept, in order, in `otherPlatforms`, so that nothing a host sent is lost.
///
/// Header form (the `UrlSchemes` parameter of `WWW-Authenticate`): that JSON with every byte outside
/// `A-Z a-z 0-9 - _ . ~` percent-encoded (space as `%20`), so naive clients that split the header on `,` and `=`
/// still work (Microsoft's Office app-to-app docs).
public struct UrlSchemes: Sendable, Hashable {
    /// One entry of the `Android` list: the docs show two forms, so both are accepted and kept apart.
    public enum AndroidEntry: Sendable, Hashable {
        /// `VersionCode, PackageName, AuthActivityName`: three list items, per the app-to-app page.
        case app(AndroidAppEntry)
        /// A plain scheme name, as the bootstrap page's sample shows for Android.
        ///
        /// A scheme starts with a letter (RFC 3986 §3.1), so it is never mistaken for a version code: an all-digit
        /// item always starts an `app` triple when decoding.
        case scheme(String)
    }

    /// A platform key other than `iOS`, `Android` and `UWP`, with its list kept as sent.
    public struct OtherPlatform: Sendable, Hashable {
        public var name: String
        public var entries: [String]
        public init(name: String, entries: [String]) {
            self.name = name
            self.entries = entries
        }
    }

    /// iOS URL schemes, tried in order. `nil` means the key is absent (platform not supported), which is not the
    /// same as an empty list on the wire.
    public var iOS: [String]?
    public var android: [AndroidEntry]?
    public var uwp: [String]?
    /// Keys the docs do not define, in the order they appeared.
    public var otherPlatforms: [OtherPlatform]

    public init(
        iOS: [String]? = nil, android: [AndroidEntry]? = nil, uwp: [String]? = nil,
        otherPlatforms: [OtherPlatform] = []
    ) {
        self.iOS = iOS
        self.android = android
        self.uwp = uwp
        self.otherPlatforms = otherPlatforms
    }

    /// The JSON keys the docs define, spelled as they must appear.
    public enum Key {
        public static let iOS = "iOS"
        public static let android = "Android"
        public static let uwp = "UWP"
    }
}

/// An Android app Office starts by explicit component (package + activity) when its installed version is at least
/// `minimumVersionCode` (Microsoft's app-to-app docs, "Service-side Changes": "that Version and above").
public struct AndroidAppEntry: Sendable, Hashable, Codable {
    public var minimumVersionCode: Int
    public var packageName: String
    public var authActivity: String

    public init(minimumVersionCode: Int, packageName: String, authActivity: String) {
        self.minimumVersionCode = minimumVersionCode
        self.packageName = packageName
        self.authActivity = authActivity
    }
}

// MARK: - Encoding

extension UrlSchemes {
    /// The platforms as (key, flattened list) pairs, in the order they are emitted.
    var orderedPlatforms: [(key: String, items: [String])] {
        var result = [(key: String, items: [String])]()
        if let iOS { result.append((Key.iOS, iOS)) }
        if let android { result.append((Key.android, android.flatMap(\.flattened))) }
        if let uwp { result.append((Key.uwp, uwp)) }
        for other in otherPlatforms { result.append((other.name, other.entries)) }
        return result
    }

    /// Compact JSON with the keys in order: `{"iOS":["contoso"],"Android":["10","com.contoso","com.contoso.Auth"]}`.
    /// Version codes are written as strings, as every item of the docs' `url_schemes.json` is.
    public var json: String {
        var out = "{"
        for (index, platform) in orderedPlatforms.enumerated() {
            if index > 0 { out += "," }
            out += JSONText.quoted(platform.key) + ":["
            out += platform.items.map(JSONText.quoted).joined(separator: ",")
            out += "]"
        }
        return out + "}"
    }

    /// The value of the `UrlSchemes` challenge parameter: `json`, percent-encoded outside the unreserved set.
    public var headerValue: String { PercentEncoding.encode(json) }
}

extension UrlSchemes.AndroidEntry {
    /// The list items this entry occupies in the JSON `Android` array.
    var flattened: [String] {
        switch self {
        case .app(let app): [String(app.minimumVersionCode), app.packageName, app.authActivity]
        case .scheme(let scheme): [scheme]
        }
    }
}

// MARK: - Decoding

extension UrlSchemes {
    /// Decodes the JSON form. Duplicate keys are refused; an all-digit `Android` item (or a JSON integer) starts a
    /// `VersionCode, PackageName, AuthActivityName` triple, any other item is a plain scheme name.
    public init(json: some StringProtocol, limit: InputLimit = .default) throws(UrlSchemesError) {
        do { try limit.check(json, what: "UrlSchemes JSON") } catch { throw .tooLarge(error) }
        try self.init(platforms: UrlSchemesJSONReader.readPlatforms(Array(json.utf8)))
    }

    /// Shared by the JSON and the Codable paths, so both apply the same rules.
    init(platforms: [UrlSchemesJSONReader.Platform]) throws(UrlSchemesError) {
        self.init()
        var seen = Set<String>()
        for platform in platforms {
            guard seen.insert(platform.key).inserted else { throw .duplicatePlatform(platform.key) }
            switch platform.key {
            case Key.iOS: iOS = try Self.strings(platform)
            case Key.uwp: uwp = try Self.strings(platform)
            case Key.android: android = try Self.androidEntries(platform)
            default: otherPlatforms.append(OtherPlatform(name: platform.key, entries: try Self.strings(platform)))
            }
        }
    }

    /// Decodes the header form: percent-decoding (a `+` is data, never a space), then the JSON form.
    public init(headerValue: some StringProtocol, limit: InputLimit = .default) throws(UrlSchemesError) {
        do { try limit.check(headerValue, what: "UrlSchemes header value") } catch { throw .tooLarge(error) }
        let json: String
        do { json = try PercentEncoding.decode(headerValue) } catch { throw .badPercentEncoding(error) }
        try self.init(json: json, limit: limit)
    }

    private static func strings(_ platform: UrlSchemesJSONReader.Platform) throws(UrlSchemesError) -> [String] {
        var result = [String]()
        for (index, item) in platform.items.enumerated() {
            guard case .string(let value) = item else {
                throw .notAString(platform: platform.key, index: index)
            }
            result.append(value)
        }
        return result
    }

    private static func androidEntries(
        _ platform: UrlSchemesJSONReader.Platform
    ) throws(UrlSchemesError) -> [AndroidEntry] {
        let items = platform.items
        var result = [AndroidEntry]()
        var index = 0
        while index < items.count {
            let versionText: String
            switch items[index] {
            case .integer(let digits): versionText = digits
            case .string(let text) where !text.isEmpty && text.utf8.allSatisfy({ (48...57).contains($0) }):
                versionText = text
            case .string(let scheme):
                result.append(.scheme(scheme))
                index += 1
                continue
            case .other:
                throw .notAString(platform: platform.key, index: index)
            }
            guard let versionCode = Int(versionText) else {
                throw .badVersionCode(index: index, versionText)
            }
            guard index + 2 < items.count else { throw .incompleteAndroidApp(index: index) }
            guard case .string(let package) = items[index + 1], !package.isEmpty else {
                throw .incompleteAndroidApp(index: index)
            }
            guard case .string(let activity) = items[index + 2], !activity.isEmpty else {
                throw .incompleteAndroidApp(index: index)
            }
            result.append(
                .app(AndroidAppEntry(minimumVersionCode: versionCode, packageName: package, authActivity: activity)))
            index += 3
        }
        return result
    }
}

/// Why a `UrlSchemes` value could not be decoded; each case names the key and list index that was wrong.
public enum UrlSchemesError: Error, Sendable, Hashable, CustomStringConvertible {
    case tooLarge(InputTooLarge)
    case badPercentEncoding(PercentDecodingError)
    /// Not JSON at this byte offset of the (percent-decoded) JSON text.
    case malformedJSON(offset: Int, expected: String)
    /// The JSON is valid but not an object whose values are lists.
    case notAnObject
    case notAList(platform: String)
    /// The item at `index` of the platform's list is not a string.
    case notAString(platform: String, index: Int)
    case duplicatePlatform(String)
    /// The `Android` triple starting at `index` lacks a non-empty package name or activity name.
    case incompleteAndroidApp(index: Int)
    /// The `Android` version code at `index` does not fit an `Int`.
    case badVersionCode(index: Int, String)

    public var description: String {
        switch self {
        case .tooLarge(let error): "UrlSchemes: \(error)"
        case .badPercentEncoding(let error): "UrlSchemes: \(error)"
        case .malformedJSON(let offset, let expected): "UrlSchemes: invalid JSON at byte \(offset): expected \(expected)"
        case .notAnObject: "UrlSchemes: expected a JSON object of platform lists"
        case .notAList(let platform): "UrlSchemes: \"\(platform)\" must be a list"
        case .notAString(let platform, let index): "UrlSchemes: \"\(platform)\"[\(index)] must be a string"
        case .duplicatePlatform(let platform): "UrlSchemes: \"\(platform)\" appears twice"
        case .incompleteAndroidApp(let index):
            "UrlSchemes: \"Android\"[\(index)] starts a VersionCode, PackageName, AuthActivityName triple that is incomplete"
        case .badVersionCode(let index, let text): "UrlSchemes: \"Android\"[\(index)] version code \(text) is too large"
        }
    }
}

// MARK: - Codable

/// Codable emits the same keys in the same order as `json`. Decoding through `Codable` cannot see the order of
/// unknown platform keys (a keyed container has none); use `init(json:)` when that order matters.
extension UrlSchemes: Codable {
    struct PlatformKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: PlatformKey.self)
        for platform in orderedPlatforms {
            try container.encode(platform.items, forKey: PlatformKey(platform.key))
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: PlatformKey.self)
        var platforms = [UrlSchemesJSONReader.Platform]()
        for key in container.allKeys {
            let items = try container.decode([CodableItem].self, forKey: key)
            platforms.append(.init(key: key.stringValue, items: items.map(\.item)))
        }
        do {
            try self.init(platforms: platforms)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    /// A list item as `Codable` sees it: a string, or an Android version code sent as a JSON integer.
    private struct CodableItem: Decodable {
        var item: UrlSchemesJSONReader.Item
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let string = try? container.decode(String.self) {
                item = .string(string)
            } else if let number = try? container.decode(Int.self), number >= 0 {
                item = .integer(String(number))
            } else {
                item = .other
            }
        }
    }
}
