extension BuildValues {
    /// The manifest tree with known placeholders and string resources filled into every attribute value (values
    /// that change keep the positions they were written at, so findings point at the placeholder).
    func resolvingAndroid(_ element: XMLElement) -> XMLElement {
        guard !(placeholders.isEmpty && strings.isEmpty) else { return element }
        var copy = element
        copy.attributes = element.attributes.map { attribute in
            var resolved = attribute
            resolved.value = resolvingAndroid(attribute.value)
            return resolved
        }
        copy.children = element.children.map(resolvingAndroid)
        return copy
    }

    /// The property list tree with known build settings filled into every `<string>`.
    func resolvingBuildSettings(_ element: XMLElement) -> XMLElement {
        guard !buildSettings.isEmpty else { return element }
        var copy = element
        if element.name == "string" { copy.text = resolvingBuildSettings(element.text) }
        copy.children = element.children.map(resolvingBuildSettings)
        return copy
    }
}

/// The string resources of a `res/values/strings.xml`, what `@string/name` in a manifest stands for.
/// https://developer.android.com/guide/topics/resources/string-resource
public enum StringResources {
    /// `<string name="…">value</string>` of `<resources>`; surrounding double quotes (Android's way to keep
    /// spaces) are removed. Throws `LintUsageError` naming the file when it cannot be read or parsed.
    public static func read(path: String, limits: XMLParseLimits = .default) throws(LintUsageError) -> [String: String] {
        let bytes = try LintInput.read(path)
        let document: XMLDocument
        do {
            document = try XMLReader(limits: limits).read(bytes)
        } catch {
            throw LintUsageError("--resources \(path):\(error.position): \(error.message)")
        }
        guard document.root.name == "resources" else {
            throw LintUsageError("--resources \(path): the root element is <\(document.root.name)>, not <resources>")
        }
        var strings = [String: String]()
        for element in document.root.children(named: "string") {
            guard let name = element.attribute("name")?.value else { continue }
            var text = element.text
            if text.count >= 2, text.first == "\"", text.last == "\"" { text = String(text.dropFirst().dropLast()) }
            strings[name] = text
        }
        return strings
    }
}
