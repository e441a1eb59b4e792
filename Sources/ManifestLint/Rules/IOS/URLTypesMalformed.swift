/// iOS reads `CFBundleURLTypes` as an array of dicts, each with a `CFBundleURLSchemes` array of strings; anything
/// else is ignored without a word.
public struct URLTypesMalformed: InfoPlistRule {
    public let descriptor = RuleDescriptor(
        id: "ios-url-types-malformed",
        severity: .error,
        summary: "CFBundleURLTypes is not an array of dicts, each with a non-empty CFBundleURLSchemes array of strings.",
        hint: "Make CFBundleURLTypes an <array> of <dict>, each with <key>CFBundleURLSchemes</key><array><string>scheme</string></array>.",
        reference: .appleURLTypes)

    public init() {}

    public func check(_ plist: InfoPlist, context: LintContext) -> [Diagnosis] {
        guard let entry = plist.entry(InfoPlist.Keys.urlTypes) else { return [] }
        guard let types = entry.value?.array else {
            return [
                descriptor.finding(
                    "CFBundleURLTypes is \(entry.value.map { "a \($0.typeName)" } ?? "without a value"), not an array",
                    at: entry.value?.position ?? entry.keyPosition)
            ]
        }
        if types.isEmpty {
            return [descriptor.finding("CFBundleURLTypes is an empty array: no URL scheme is registered", at: entry.keyPosition)]
        }
        var diagnoses = [Diagnosis]()
        for (index, type) in types.enumerated() {
            guard type.dictionary != nil else {
                diagnoses.append(
                    descriptor.finding("CFBundleURLTypes item \(index) is a \(type.typeName), not a dict", at: type.position))
                continue
            }
            guard let schemes = type.entry(InfoPlist.Keys.urlSchemes) else {
                diagnoses.append(
                    descriptor.finding("CFBundleURLTypes item \(index) has no CFBundleURLSchemes", at: type.position))
                continue
            }
            guard let list = schemes.value?.array else {
                diagnoses.append(
                    descriptor.finding(
                        "CFBundleURLSchemes of item \(index) is not an array", at: schemes.value?.position ?? schemes.keyPosition))
                continue
            }
            if list.isEmpty {
                diagnoses.append(descriptor.finding("CFBundleURLSchemes of item \(index) is empty", at: schemes.keyPosition))
            }
            for node in list where node.string == nil {
                diagnoses.append(
                    descriptor.finding("CFBundleURLSchemes of item \(index) holds a \(node.typeName), not a string", at: node.position))
            }
        }
        return diagnoses
    }
}
