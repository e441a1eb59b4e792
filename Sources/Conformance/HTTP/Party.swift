/// Who the suite is acting as for one request, so the report's sequence diagram reads like the protocol's.
public enum Party: String, Sendable, Codable, CaseIterable {
    case office = "Office"
    case browser = "Browser"
    case partnerApp = "Partner app"
    case attacker = "Attacker"
}
