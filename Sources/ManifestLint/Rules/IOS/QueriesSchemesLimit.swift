/// Apps linked on iOS 15 or later can query at most 50 schemes with `canOpenURL`; entries past 50 are ignored.
public struct QueriesSchemesLimit: InfoPlistRule {
    public let descriptor = RuleDescriptor(
        id: "ios-queries-schemes-limit",
        severity: .error,
        summary: "LSApplicationQueriesSchemes has more than 50 entries; iOS ignores the rest.",
        hint: "Keep LSApplicationQueriesSchemes to the 50 schemes the app really checks, Office's first.",
        reference: .appleQueriesSchemes)

    public init() {}

    static let limit = 50

    public func check(_ plist: InfoPlist, context: LintContext) -> [Diagnosis] {
        guard let entry = plist.entry(InfoPlist.Keys.queriesSchemes), let list = entry.value?.array,
            list.count > Self.limit
        else { return [] }
        return [
            descriptor.finding(
                "LSApplicationQueriesSchemes has \(list.count) entries; iOS ignores those after the first \(Self.limit)",
                at: list[Self.limit].position)
        ]
    }
}
