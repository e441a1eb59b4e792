import Foundation
import SignInProtocol

/// A response body read as a JSON object, exactly (integers stay integers, strings stay strings), so a check can
/// tell `"expires_in": 3600` from `"expires_in": "3600"`.
enum JSONObject {
    static func parse(_ body: [UInt8]) -> [String: JSONValue]? {
        try? JSONDecoder().decode([String: JSONValue].self, from: Data(body))
    }
}

extension JSONValue {
    var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }
}
