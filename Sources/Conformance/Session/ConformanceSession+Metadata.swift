import SignInProtocol

extension ConformanceSession {
    /// The strings a metadata member lists, from RFC 8414 metadata or else OpenID discovery; empty when neither has it.
    func advertised(_ member: String) async -> [String] {
        for document in [await metadata().value, await discovery().value] {
            if case .array(let values) = document?[member] { return values.compactMap(\.stringValue) }
        }
        return []
    }

    /// A boolean metadata member (RFC 8414 metadata or OpenID discovery); false when absent.
    func advertisedFlag(_ member: String) async -> Bool {
        for document in [await metadata().value, await discovery().value] {
            if case .bool(let value) = document?[member] { return value }
        }
        return false
    }
}
