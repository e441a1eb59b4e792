import Logging
import PostgresNIO

/// Keeps one connection outside the pool in `LISTEN channel` and calls `change` for every notification, until the
/// task running it is cancelled. A notification sent while no connection listened is lost for good
/// (postgresql.org/docs/15/sql-listen.html), so `change` is also called whenever listening (re)starts: whatever a
/// caller kept from before may be stale.
enum ChangeListener {
    static func run(
        connection configuration: PostgresConnection.Configuration, channel: String, logger: Logger,
        listening: @Sendable () -> Void, change: @Sendable () -> Void
    ) async {
        var delay = Duration.milliseconds(100)
        var id = 0
        while !Task.isCancelled {
            id += 1
            do {
                let connection = try await PostgresConnection.connect(configuration: configuration, id: id, logger: logger)
                do {
                    try await connection.listen(on: channel) { notifications in
                        change()
                        listening()
                        delay = .milliseconds(100)
                        for try await _ in notifications { change() }
                    }
                } catch {
                    logger.debug("LISTEN \(channel) ended: \(error)")
                }
                try? await connection.close()
            } catch {
                logger.debug("LISTEN \(channel): no connection: \(error)")
            }
            change()
            try? await Task.sleep(for: delay)
            delay = min(delay * 2, .seconds(5))
        }
    }
}
