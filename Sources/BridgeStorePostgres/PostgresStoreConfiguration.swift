import BridgeStore
import Foundation

/// Where a `PostgresStore` connects and how many connections it may hold. Built from a libpq-style URL
/// (`postgres://user:password@host:port/database?sslmode=disable`, postgresql.org/docs/15/libpq-connect.html
/// §34.1.1.2), the form hosting providers hand out.
public struct PostgresStoreConfiguration: Sendable, Hashable {
    public enum TLSMode: String, Sendable, Hashable {
        /// Plain TCP.
        case disable
        /// TLS when the server offers it (libpq's default).
        case prefer
        /// TLS or no connection; the server's certificate is verified against the system roots.
        case require
    }

    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String
    public var tls: TLSMode
    /// The pool's upper bound. Each instance holds at most this many connections, plus one for `LISTEN`.
    public var maxConnections: Int
    /// How long opening a connection, and a call waiting for a free connection, may take before the call fails
    /// with `StoreError.unavailable` (never a hang when the database is down).
    public var connectTimeout: Duration
    /// What a commit waits for, set on every connection as `synchronous_commit` (`startupParameters`).
    public var durability: StoreDurability

    public init(
        host: String, port: Int = 5432, username: String, password: String? = nil, database: String,
        tls: TLSMode = .prefer, maxConnections: Int = 10, connectTimeout: Duration = .seconds(5),
        durability: StoreDurability = .full
    ) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        self.tls = tls
        self.maxConnections = maxConnections
        self.connectTimeout = connectTimeout
        self.durability = durability
    }

    /// Why a URL cannot be used, naming the part that was wrong. Never repeats the password.
    public struct URLError: Error, Sendable, Hashable, CustomStringConvertible {
        public var reason: String
        public var description: String { "PostgreSQL URL: \(reason)" }
    }

    /// Reads `postgres://` or `postgresql://` URLs. Percent-escapes in the user, password and database are decoded.
    public init(
        url: String, maxConnections: Int = 10, connectTimeout: Duration = .seconds(5),
        durability: StoreDurability = .full
    ) throws {
        guard url.utf8.count <= 4096 else { throw URLError(reason: "longer than 4096 bytes") }
        guard let components = URLComponents(string: url) else { throw URLError(reason: "not a URL") }
        guard let scheme = components.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql" else {
            throw URLError(reason: "the scheme must be postgres:// or postgresql://")
        }
        guard let host = components.host, !host.isEmpty else { throw URLError(reason: "no host") }
        guard let username = components.user?.removingPercentEncoding, !username.isEmpty else {
            throw URLError(reason: "no user name (postgres://USER@HOST/DATABASE)")
        }
        let database = String(components.path.drop(while: { $0 == "/" })).removingPercentEncoding ?? ""
        var tls = TLSMode.prefer
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                switch item.value {
                case "disable": tls = .disable
                case "allow", "prefer": tls = .prefer
                case "require", "verify-ca", "verify-full": tls = .require
                default: throw URLError(reason: "sslmode must be disable, prefer or require, not \(item.value ?? "empty")")
                }
            default:
                throw URLError(reason: "unknown parameter \(item.name) (only sslmode is read)")
            }
        }
        self.init(
            host: host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host, port: components.port ?? 5432,
            username: username, password: components.password?.removingPercentEncoding,
            database: database.isEmpty ? username : database, tls: tls, maxConnections: maxConnections,
            connectTimeout: connectTimeout, durability: durability)
    }
}
