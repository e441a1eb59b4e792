import SignInProtocolCore

extension AndroidManifest {
    /// The Android app entries of `urlSchemes` that this manifest must satisfy: those naming its package. A
    /// manifest without `package` (Gradle's `namespace` holds it) is matched only when every entry names one and the
    /// same package.
    public func appEntries(in urlSchemes: UrlSchemes?) -> [AndroidAppEntry] {
        let apps = (urlSchemes?.android ?? []).compactMap { entry -> AndroidAppEntry? in
            if case .app(let app) = entry { return app }
            return nil
        }
        if let packageName { return apps.filter { $0.packageName == packageName } }
        return Set(apps.map(\.packageName)).count == 1 ? apps : []
    }

    /// The activity or activity alias an entry's auth activity names, if the manifest declares it.
    public func component(for entry: AndroidAppEntry) -> AndroidComponent? {
        let wanted = Self.qualified(entry.authActivity, package: entry.packageName)
        return components.first { component in
            (component.kind == .activity || component.kind == .activityAlias)
                && component.qualifiedName(package: packageName ?? entry.packageName) == wanted
        }
    }

    static func qualified(_ name: String, package: String) -> String {
        if name.hasPrefix(".") { return package + name }
        if !name.containsASCII(".") { return package + "." + name }
        return name
    }

    /// Where a finding about the manifest as a whole goes: the package attribute, else `<manifest>`.
    var headPosition: SourcePosition { package?.position ?? root.position }
}
