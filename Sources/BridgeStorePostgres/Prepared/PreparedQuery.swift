import PostgresNIO

/// A statement of a hot path, sent as a named prepared statement: postgres-nio parses it once per pooled connection
/// (Parse/Describe, one extra round trip the first time) and afterwards sends only Bind/Execute/Sync, so PostgreSQL
/// skips parsing and analysis and may reuse a generic plan (postgresql.org/docs/15/sql-prepare.html, "Notes").
///
/// The SQL is a constant with numbered parameters; `Parameter` names them (`\(P.now)` reads `$3`), and
/// `makeBindings` binds every case in order through an exhaustive `switch`, so no parameter can be left out. A
/// prepared statement's result columns are fixed when it is parsed: its SQL names them instead of `table.*`, or a
/// migration adding a column would fail the cached statement ("cached plan must not change result type").
protocol PreparedQuery: PostgresPreparedStatement where Row == PostgresRandomAccessRow {
    associatedtype Parameter: QueryParameter
    /// The value bound to `parameter`.
    func bind(_ parameter: Parameter, to bindings: inout PostgresBindings) throws
}

extension PreparedQuery {
    func makeBindings() throws -> PostgresBindings {
        var bindings = PostgresBindings(capacity: Parameter.allCases.count)
        for parameter in Parameter.allCases { try bind(parameter, to: &bindings) }
        return bindings
    }

    func decodeRow(_ row: PostgresRow) throws -> PostgresRandomAccessRow { row.makeRandomAccess() }
}

/// A statement's parameters, numbered from 1 in declaration order: the raw value is the `$n` in the SQL.
protocol QueryParameter: RawRepresentable<Int>, CaseIterable, CustomStringConvertible {}

extension QueryParameter {
    var description: String { "$\(rawValue)" }
}
