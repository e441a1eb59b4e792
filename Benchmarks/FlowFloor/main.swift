import CSQLite
import Crypto
import Foundation

// The parts of one authorization code flow that no implementation can skip, other than its two HTTP requests (those
// are RouteFloor's): two ES256 signatures (the access token and the ID token, RFC 7518 §3.4) and one durable
// single-row write (the authorization code). scripts/bench/floor.sh runs this and adds RouteFloor's CPU per request.
// Each part is measured as CPU time of this process (user + system) per operation, median of ROUNDS rounds.
// Usage: FlowFloor sign ITERATIONS ROUNDS
//        FlowFloor sqlite ITERATIONS ROUNDS DIRECTORY [normal|full]
// Prints key=value lines.

/// User + system CPU time of this process (all its threads) so far, in microseconds (POSIX clock_gettime).
func cpuMicroseconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) * 1e6 + Double(time.tv_nsec) / 1e3
}

/// CPU microseconds per operation of `body` run `iterations` times, median of `rounds` rounds.
func medianCPUPerOperation(iterations: Int, rounds: Int, _ body: () throws -> Void) rethrows -> Double {
    var perOperation: [Double] = []
    for _ in 0..<rounds {
        let start = cpuMicroseconds()
        for _ in 0..<iterations { try body() }
        perOperation.append((cpuMicroseconds() - start) / Double(iterations))
    }
    return perOperation.sorted()[perOperation.count / 2]
}

/// ES256 the way the server signs a token (BridgeServer's CompactJWSSigner): swift-crypto's P256 over the signing
/// input's bytes, SHA-256 included. The input is the size of one of our access tokens' header and claims.
func measureSignatures(iterations: Int, rounds: Int) throws {
    let key = P256.Signing.PrivateKey()
    let signingInput = Array(String(repeating: "eyJhbGciOiJFUzI1NiJ9", count: 20).utf8)
    var total = 0
    let cpu = try medianCPUPerOperation(iterations: iterations, rounds: rounds) {
        total &+= try key.signature(for: signingInput).rawRepresentation.count
    }
    precondition(total == 64 * iterations * rounds, "an ES256 signature is 64 bytes")
    print("es256_sign_cpu_us=\(String(format: "%.2f", cpu))")
}

struct SQLiteFailure: Error, CustomStringConvertible {
    let description: String
}

/// One committed single-row insert with the pragmas of BridgeStoreSQLite's writer (SQLiteStore.open): WAL,
/// `synchronous` NORMAL by default (FULL with `durability: full`), each write in BEGIN IMMEDIATE … COMMIT, statements
/// prepared once. The row is an authorization code's shape: a unique 32-byte digest and a few hundred bytes of record.
/// SQLite's own checkpoints stay on (every 1,000 pages): the store checkpoints on another thread of the same
/// process, so that work is part of a write's CPU either way.
final class SQLiteWriter {
    private var database: OpaquePointer?
    private var begin: OpaquePointer?
    private var insert: OpaquePointer?
    private var commit: OpaquePointer?
    private var counter: UInt64 = 0
    private let record = Array(String(repeating: "r", count: 300).utf8)

    init(path: String, synchronous: String) throws {
        guard sqlite3_open(path, &database) == SQLITE_OK else { throw SQLiteFailure(description: "cannot open \(path)") }
        for statement in [
            "PRAGMA journal_mode = WAL", "PRAGMA synchronous = \(synchronous)", "PRAGMA foreign_keys = ON",
            "CREATE TABLE codes (id INTEGER PRIMARY KEY, digest BLOB NOT NULL UNIQUE, record BLOB NOT NULL)",
        ] {
            try check(sqlite3_exec(database, statement, nil, nil, nil), statement)
        }
        begin = try prepare("BEGIN IMMEDIATE")
        insert = try prepare("INSERT INTO codes (digest, record) VALUES (?, ?)")
        commit = try prepare("COMMIT")
    }

    deinit {
        for statement in [begin, insert, commit] { sqlite3_finalize(statement) }
        sqlite3_close(database)
    }

    private func check(_ code: Int32, _ what: String) throws {
        guard code == SQLITE_OK || code == SQLITE_DONE || code == SQLITE_ROW else {
            throw SQLiteFailure(description: "\(what): \(String(cString: sqlite3_errmsg(database)))")
        }
    }

    private func prepare(_ sql: String) throws -> OpaquePointer? {
        var statement: OpaquePointer?
        try check(sqlite3_prepare_v3(database, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil), sql)
        return statement
    }

    private func step(_ statement: OpaquePointer?) throws {
        try check(sqlite3_step(statement), "step")
        sqlite3_reset(statement)
    }

    /// One row, committed. Digests differ per row, as the codes' SHA-256 digests do.
    func write() throws {
        counter &+= 1
        var digest = Array(SHA256.hash(data: withUnsafeBytes(of: counter) { Array($0) }))
        try step(begin)
        sqlite3_bind_blob(insert, 1, &digest, Int32(digest.count), csqlite_transient())
        _ = record.withUnsafeBytes { sqlite3_bind_blob(insert, 2, $0.baseAddress, Int32($0.count), csqlite_transient()) }
        try step(insert)
        try step(commit)
    }
}

func measureWrites(iterations: Int, rounds: Int, directory: String, durability: String) throws {
    let synchronous = durability == "full" ? "FULL" : "NORMAL"
    let writer = try SQLiteWriter(path: directory + "/floor.sqlite", synchronous: synchronous)
    let cpu = try medianCPUPerOperation(iterations: iterations, rounds: rounds) { try writer.write() }
    print("sqlite_write_cpu_us=\(String(format: "%.2f", cpu))")
    print("sqlite_synchronous=\(synchronous)")
}

let arguments = CommandLine.arguments
guard arguments.count >= 4, let iterations = Int(arguments[2]), let rounds = Int(arguments[3]), iterations > 0, rounds > 0 else {
    FileHandle.standardError.write(Data("usage: FlowFloor sign ITERATIONS ROUNDS | sqlite ITERATIONS ROUNDS DIRECTORY [normal|full]\n".utf8))
    exit(2)
}
switch arguments[1] {
case "sign":
    try measureSignatures(iterations: iterations, rounds: rounds)
case "sqlite" where arguments.count >= 5:
    try measureWrites(iterations: iterations, rounds: rounds, directory: arguments[4], durability: arguments.count > 5 ? arguments[5] : "normal")
default:
    FileHandle.standardError.write(Data("unknown part \(arguments[1])\n".utf8))
    exit(2)
}
