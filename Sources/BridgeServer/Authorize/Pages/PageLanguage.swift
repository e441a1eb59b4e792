/// The language of the sign-in pages. Office's `rs` (its UI culture, `en-US` or `enUS`, Microsoft's app-to-app docs) wins when it names a
/// language we have, then the browser's `Accept-Language` (RFC 9110 §12.5.4) in order of preference, then English.
enum PageLanguage: String, Sendable, Codable, CaseIterable {
    case en
    /// Norwegian Bokmål (Vipps' home market); `no` and `nn` fall back to it.
    case nb

    static let fallback = PageLanguage.en

    static func negotiate(culture: String?, acceptLanguage: String?) -> PageLanguage {
        if let culture, let language = match(tag: culture) { return language }
        for tag in preferredTags(acceptLanguage ?? "") {
            if let language = match(tag: tag) { return language }
        }
        return fallback
    }

    /// The primary subtag of `en-US`, `enUS`, `nb_NO` or `nb`.
    static func match(tag: some StringProtocol) -> PageLanguage? {
        let primary = String(tag.prefix { $0.isLetter }.prefix(2)).lowercased()
        switch primary {
        case "en": return .en
        case "nb", "no", "nn": return .nb
        default: return nil
        }
    }

    /// `nb-NO,nb;q=0.9,en;q=0.5` → tags by descending q (stable for equal q); q=0 means "not this one".
    static func preferredTags(_ header: String) -> [Substring] {
        var weighted: [(tag: Substring, q: Double, index: Int)] = []
        for (index, item) in header.split(separator: ",").prefix(32).enumerated() {
            let parts = item.split(separator: ";")
            guard let tag = parts.first?.trimmingSpaces, !tag.isEmpty, tag != "*" else { continue }
            var q = 1.0
            for parameter in parts.dropFirst() {
                let trimmed = parameter.trimmingSpaces
                if trimmed.hasPrefix("q="), let value = Double(trimmed.dropFirst(2)) { q = value }
            }
            if q > 0 { weighted.append((tag, q, index)) }
        }
        return weighted.sorted { $0.q != $1.q ? $0.q > $1.q : $0.index < $1.index }.map(\.tag)
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var result = self
        while result.first == " " || result.first == "\t" { result = result.dropFirst() }
        while result.last == " " || result.last == "\t" { result = result.dropLast() }
        return result
    }
}
