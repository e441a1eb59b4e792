/// The parts of an AndroidManifest.xml that sign-in depends on, read from the element tree with their positions.
///
/// Built leniently: a manifest that breaks the schema still yields whatever components can be recognised, so that
/// rules report real problems even while a schema error is being fixed.
public struct AndroidManifest: Sendable {
    public var root: XMLElement
    /// `package` on `<manifest>` (absent when Gradle's `namespace` supplies it).
    public var package: XMLAttribute?
    public var versionCode: XMLAttribute?
    /// `<uses-sdk android:targetSdkVersion>`, or `minSdkVersion` when that is all there is (Android's default).
    public var targetSdkAttribute: XMLAttribute?
    /// Activities, activity aliases, services and receivers, in document order.
    public var components: [AndroidComponent]
    /// Every intent filter of every component, in document order (rules walk them often).
    public var intentFilters: [IntentFilter]

    public init(root: XMLElement) {
        self.root = root
        package = root.attribute("package")
        versionCode = root.attribute("versionCode", namespace: AndroidNamespace.uri)
        let usesSdk = root.children(named: "uses-sdk").first
        targetSdkAttribute =
            usesSdk?.attribute("targetSdkVersion", namespace: AndroidNamespace.uri)
            ?? usesSdk?.attribute("minSdkVersion", namespace: AndroidNamespace.uri)
        components = root.children(named: "application").flatMap { application in
            application.children.compactMap(AndroidComponent.init(element:))
        }
        intentFilters = components.flatMap(\.intentFilters)
    }

    /// The package name, if the manifest says it.
    public var packageName: String? { package?.value }

    /// The target SDK level: `override` when given, else the manifest's. A preview codename ("VanillaIceCream")
    /// counts as newer than any released level. nil when neither says.
    public func targetSdk(override: Int?) -> Int? {
        if let override { return override }
        guard let value = targetSdkAttribute?.value else { return nil }
        if let level = Int(value) { return level }
        if let first = value.unicodeScalars.first, ("A"..."Z").contains(first) { return Int.max }
        return nil
    }

    /// The integer `android:versionCode`, if it is a literal number.
    public var versionCodeValue: Int? { versionCode.flatMap { Int($0.value) } }
}

/// An `<activity>`, `<activity-alias>`, `<service>` or `<receiver>` of the application.
public struct AndroidComponent: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case activity
        case activityAlias = "activity-alias"
        case service
        case receiver
    }

    public var kind: Kind
    public var element: XMLElement
    /// `android:name` as written: `.AuthActivity`, `AuthActivity` or `com.contoso.AuthActivity`.
    public var name: XMLAttribute?
    public var exported: XMLAttribute?
    public var intentFilters: [IntentFilter]

    public init?(element: XMLElement) {
        guard let kind = Kind(rawValue: element.name) else { return nil }
        self.kind = kind
        self.element = element
        name = element.attribute("name", namespace: AndroidNamespace.uri)
        exported = element.attribute("exported", namespace: AndroidNamespace.uri)
        intentFilters = element.children(named: "intent-filter").map(IntentFilter.init(element:))
    }

    /// The fully qualified class name: a leading `.` or no `.` at all means "inside the manifest's package"
    /// (https://developer.android.com/guide/topics/manifest/activity-element#nm).
    public func qualifiedName(package: String?) -> String? {
        guard let written = name?.value else { return nil }
        guard let package, !package.isEmpty else { return written }
        if written.hasPrefix(".") { return package + written }
        if !written.containsASCII(".") { return package + "." + written }
        return written
    }

    /// How the manifest names this component in messages: `<activity android:name=".AuthActivity">`.
    public var label: String {
        "<\(kind.rawValue)\(name.map { " android:name=\"\($0.value)\"" } ?? "")>"
    }
}

/// An `<intent-filter>` with its actions, categories and data elements.
public struct IntentFilter: Sendable {
    public var element: XMLElement
    /// The `android:name` attributes of `<action>` children.
    public var actions: [XMLAttribute]
    public var categories: [XMLAttribute]
    public var data: [XMLElement]
    /// Every `android:scheme` attribute of the filter's `<data>` elements.
    public var schemes: [XMLAttribute]
    public var autoVerify: XMLAttribute?

    public init(element: XMLElement) {
        self.element = element
        actions = element.children(named: "action").compactMap { $0.attribute("name", namespace: AndroidNamespace.uri) }
        categories = element.children(named: "category").compactMap {
            $0.attribute("name", namespace: AndroidNamespace.uri)
        }
        data = element.children(named: "data")
        schemes = data.compactMap { $0.attribute("scheme", namespace: AndroidNamespace.uri) }
        autoVerify = element.attribute("autoVerify", namespace: AndroidNamespace.uri)
    }

    public static let viewAction = "android.intent.action.VIEW"
    public static let defaultCategory = "android.intent.category.DEFAULT"
    public static let browsableCategory = "android.intent.category.BROWSABLE"

    public var isView: Bool { actions.contains { $0.value == Self.viewAction } }

    /// Every attribute of the filter's `<data>` elements with this local name (android namespace).
    public func dataAttributes(_ name: String) -> [XMLAttribute] {
        data.compactMap { $0.attribute(name, namespace: AndroidNamespace.uri) }
    }
}

/// Values that are filled in at build time (`${applicationId}`, `@string/scheme`) cannot be checked from source.
enum BuildTimeValue {
    static func isPlaceholder(_ value: String) -> Bool {
        value.containsASCII("${") || value.hasPrefix("@") || value.containsASCII("$(")
    }
}
