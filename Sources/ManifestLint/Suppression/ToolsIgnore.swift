import Foundation

/// `tools:ignore="id,…"` on a manifest element silences the listed checks on that element, its attributes and
/// everything inside it, as Android Lint does. Our rule ids and the Android Lint ids of `AndroidLintIDs` count.
/// https://developer.android.com/studio/write/lint#config
enum ToolsIgnore {
    static let namespace = "http://schemas.android.com/tools"

    /// The diagnoses not silenced by a `tools:ignore` around their position. Findings are placed on an element,
    /// one of its attributes or an attribute's value, so every place a finding can be is collected per scope.
    static func filter(_ diagnoses: [Diagnosis], root: XMLElement) -> [Diagnosis] {
        guard !diagnoses.isEmpty else { return diagnoses }
        var ignored = [SourcePosition: Set<String>]()
        collect(root, inherited: [], into: &ignored)
        guard !ignored.isEmpty else { return diagnoses }
        return diagnoses.filter { diagnosis in
            guard let ids = ignored[diagnosis.position] else { return true }
            return !AndroidLintIDs.ignores(ids, ruleID: diagnosis.rule.id)
        }
    }

    private static func collect(_ element: XMLElement, inherited: Set<String>, into ignored: inout [SourcePosition: Set<String>]) {
        var ids = inherited
        if let attribute = element.attribute("ignore", namespace: namespace) {
            for id in attribute.value.split(separator: ",") {
                ids.insert(id.trimmingCharacters(in: .whitespaces))
            }
        }
        if !ids.isEmpty {
            ignored[element.position, default: []].formUnion(ids)
            for attribute in element.attributes {
                ignored[attribute.position, default: []].formUnion(ids)
                ignored[attribute.valuePosition, default: []].formUnion(ids)
            }
        }
        for child in element.children { collect(child, inherited: ids, into: &ignored) }
    }
}
