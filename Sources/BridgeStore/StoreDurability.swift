/// What a committed step survives, one setting with one meaning for both stores (`store.sqlite.durability`,
/// `store.postgres.durability`). Neither value can corrupt the data; they differ in which crash may lose the last
/// commits (docs/store.md, "Durability").
public enum StoreDurability: String, Sendable, CaseIterable {
    /// A commit does not wait for the disk. SQLite: WAL with `synchronous = NORMAL` (sqlite.org/wal.html, "Performance
    /// Considerations"), a crash of the process loses nothing, power loss may lose the last commits. PostgreSQL:
    /// `synchronous_commit = off` (postgresql.org/docs/15/wal-async-commit.html), a crash of the database server or
    /// power loss may lose the commits of the last `3 × wal_writer_delay` (0.6 s by default).
    case normal
    /// Every commit waits until it is on disk: SQLite `synchronous = FULL`, PostgreSQL `synchronous_commit = on`.
    case full
}
