import Foundation

/// Cookies per host, as much of RFC 6265 as a sign-in page needs: `Set-Cookie` name and value, sent back to the
/// same host. Attributes (Path, Expires) are not applied; the suite's sessions last one run.
struct CookieJar: Sendable {
    private var cookies: [String: [(name: String, value: String)]] = [:]

    mutating func store(setCookie values: [String], host: String) {
        for line in values {
            let pair = line.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
            guard let equals = pair.firstIndex(of: "=") else { continue }
            let name = pair[..<equals].trimmingCharacters(in: .whitespaces)
            let value = pair[pair.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            var list = cookies[host] ?? []
            list.removeAll { $0.name == name }
            list.append((name, value))
            cookies[host] = list
        }
    }

    func header(host: String) -> String? {
        guard let list = cookies[host], !list.isEmpty else { return nil }
        return list.map { "\($0.name)=\($0.value)" }.joined(separator: "; ")
    }

    mutating func clear() { cookies = [:] }
}
