/// Xcode fills `$(NAME)` and `${NAME}` build settings into Info.plist at build time; the scheme rules cannot know
/// the value from source, so they skip it and this rule says which value went unchecked.
/// https://developer.apple.com/documentation/xcode/build-settings-reference
public struct BuildSettingUnresolved: InfoPlistRule {
    public let descriptor = RuleDescriptor(
        id: "ios-build-setting-unresolved",
        severity: .info,
        summary: "A URL scheme or URL type name is a build setting, so it could not be checked.",
        hint: "Give the value with --build-setting NAME=VALUE, as the Xcode target sets it.",
        reference: .appleBuildSettings)

    public init() {}

    public func check(_ plist: InfoPlist, context: LintContext) -> [Diagnosis] {
        let names = (plist.entry(InfoPlist.Keys.urlTypes)?.value?.array ?? []).compactMap { type in
            type.entry(InfoPlist.Keys.urlName)?.value.flatMap { node in node.string.map { ($0, node.position) } }
        }
        return (plist.registeredSchemes.map { ($0.scheme, $0.position) } + names).compactMap { value, position in
            guard BuildTimeValue.isPlaceholder(value) else { return nil }
            let settings = BuildValues.unresolvedReferences(in: value).map { reference in
                "--build-setting \(reference.dropFirst(2).dropLast().split(separator: ":").first ?? "")=VALUE"
            }
            return descriptor.finding(
                "\"\(value)\" is a build setting and could not be checked; give \(settings.joined(separator: ", "))",
                at: position)
        }
    }
}
