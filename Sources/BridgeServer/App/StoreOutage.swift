/// A store that could not be asked is answered 503 with this `Retry-After` (RFC 9110 §10.2.3) on every kind of
/// answer (OAuth JSON, bearer refusals, pages, the bootstrapper): long enough for a failover, short for a person.
enum StoreOutage {
    static let retryAfterSeconds = "5"
}
