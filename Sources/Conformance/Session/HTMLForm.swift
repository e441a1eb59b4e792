import Foundation

/// A `<form>` read from a sign-in or consent page, enough to submit it as a browser would: its action, method,
/// named inputs (hidden ones kept) and submit buttons. Regular expressions, not an HTML parser: sign-in pages are
/// small and the suite only needs the controls (WHATWG HTML §4.10.21.4 "constructing the entry list").
struct HTMLForm: Sendable {
    struct Control: Sendable {
        var tag: String
        var type: String
        var name: String?
        var value: String
    }

    var action: String?
    var method: String
    var controls: [Control]

    var hasPassword: Bool { controls.contains { $0.type == "password" } }

    /// At most this many bytes of a page are read for forms.
    static let maxPageBytes = 512 * 1024

    static func forms(in html: String) -> [HTMLForm] {
        let page = String(html.utf8.prefix(maxPageBytes)) ?? html
        let formPattern = try! NSRegularExpression(pattern: "<form\\b([^>]*)>(.*?)</form\\s*>", options: [.caseInsensitive, .dotMatchesLineSeparators])
        let controlPattern = try! NSRegularExpression(pattern: "<(input|button)\\b([^>]*)>", options: [.caseInsensitive])
        let text = page as NSString
        return formPattern.matches(in: page, range: NSRange(location: 0, length: text.length)).map { match in
            let attributes = Self.attributes(text.substring(with: match.range(at: 1)))
            let inner = text.substring(with: match.range(at: 2))
            let innerText = inner as NSString
            let controls = controlPattern.matches(in: inner, range: NSRange(location: 0, length: innerText.length)).map { control in
                let tag = innerText.substring(with: control.range(at: 1)).lowercased()
                let attributes = Self.attributes(innerText.substring(with: control.range(at: 2)))
                let type = (attributes["type"] ?? (tag == "button" ? "submit" : "text")).lowercased()
                return Control(tag: tag, type: type, name: attributes["name"], value: attributes["value"] ?? "")
            }
            // WHATWG HTML §4.10.21.3: an empty action submits to the page's own URL, like no action at all.
            let action = attributes["action"].flatMap { $0.isEmpty ? nil : $0 }
            return HTMLForm(action: action, method: (attributes["method"] ?? "get").uppercased(), controls: controls)
        }
    }

    /// The fields a browser submits after a person fills the username and password in, and presses the first
    /// submit button (or the one whose value says allow/accept, on a consent page).
    func fields(username: String?, password: String?) -> [(String, String)] {
        var result = [(String, String)]()
        var filledUser = false
        for control in controls {
            guard let name = control.name, !name.isEmpty else { continue }
            switch control.type {
            case "password": result.append((name, password ?? ""))
            case "text", "email":
                // The first empty text field is the user name; others keep what the page put there.
                if !filledUser && control.value.isEmpty {
                    filledUser = true
                    result.append((name, username ?? ""))
                } else {
                    result.append((name, control.value))
                }
            case "submit", "image", "button", "reset", "file": continue
            case "checkbox", "radio": continue
            default: result.append((name, control.value))
            }
        }
        let submits = controls.filter { $0.type == "submit" && $0.name?.isEmpty == false }
        let agree = ["allow", "accept", "yes", "approve", "grant", "consent", "continue"]
        if let button = submits.first(where: { control in agree.contains { control.value.lowercased().contains($0) } })
            ?? submits.first
        {
            result.append((button.name!, button.value))
        }
        return result
    }

    /// `name="value"`, `name='value'`, `name=value` and bare `name`, with character references decoded.
    static func attributes(_ text: String) -> [String: String] {
        let pattern = try! NSRegularExpression(pattern: "([a-zA-Z_:][-a-zA-Z0-9_:.]*)(?:\\s*=\\s*(?:\"([^\"]*)\"|'([^']*)'|([^\\s\"'=<>`]+)))?")
        let ns = text as NSString
        var result = [String: String]()
        for match in pattern.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
            let name = ns.substring(with: match.range(at: 1)).lowercased()
            var value = ""
            for group in 2...4 where match.range(at: group).location != NSNotFound {
                value = ns.substring(with: match.range(at: group))
            }
            if result[name] == nil { result[name] = decodeEntities(value) }
        }
        return result
    }

    static func decodeEntities(_ value: String) -> String {
        guard value.contains("&") else { return value }
        var out = value
        let named = ["&quot;": "\"", "&#39;": "'", "&apos;": "'", "&lt;": "<", "&gt;": ">", "&#x2F;": "/", "&#47;": "/", "&#x3D;": "=", "&#61;": "="]
        for (entity, character) in named { out = out.replacingOccurrences(of: entity, with: character) }
        return out.replacingOccurrences(of: "&amp;", with: "&")
    }
}
