import Foundation
import SignInProtocol

/// `/auth/health` in the shape of the Vipps iOS login backend guide (`{"status":"ok","timestamp":…}`), plus the store check.
struct HealthReport: Encodable {
    var status: String
    var timestamp: String
    var store: String
}
