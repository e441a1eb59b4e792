import SignInProtocol

/// How long another server's JWKS is kept and how often it may be fetched again. The provider says how long its
/// answer stays fresh (`Cache-Control: max-age`, RFC 9111 §5.2.2.1); the floor keeps a provider that says `no-cache`
/// or `max-age=0` from being fetched on every request, the ceiling picks up a rotation the provider announced with a
/// long `max-age`, and `unknownKeyInterval` bounds how often an unknown `kid` may make us fetch (a token with a
/// made-up `kid` must not make us hammer the provider, and a rotation must not wait out the whole floor). Ory
/// Oathkeeper keeps a JWKS for 30 s and waits 1 s for a refetch.
struct KeySetCachePolicy: Sendable, Hashable {
    /// The shortest time a fetched key set is kept before it is refreshed.
    var floor: Duration = .seconds(30)
    /// The least time between two fetches: a `kid` seen sooner after a fetch waits for the next (503 with
    /// `Retry-After` meanwhile, unless the last fetch already showed it is not the provider's).
    var unknownKeyInterval: Duration = .seconds(5)
    /// The longest time a key set is kept before it is fetched again, whatever `max-age` said.
    var ceiling: Duration = .seconds(24 * 3600)
    /// How long a key set is kept when the answer says nothing (no `Cache-Control`, or none we can read).
    var unspecified: Duration = .seconds(300)
    /// How long a request whose `kid` is unknown waits for the fetch it caused before it is answered as unavailable.
    var unknownKeyWait: Duration = .seconds(1)

    /// The time a key set fetched with this `Cache-Control` value stays fresh, within the floor and the ceiling.
    func lifetime(cacheControl: String?) -> Duration {
        guard let cacheControl else { return clamp(unspecified) }
        var maxAge: Int64?
        for directive in cacheControl.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = HTTPWhitespace.trimmed(parts[0]).lowercased()
            // no-store and no-cache ask for a fetch every time; the floor is as often as we go (RFC 9111 §5.2.2.4-5).
            if name == "no-store" || name == "no-cache" { return floor }
            if name == "max-age", parts.count == 2 {
                let value = HTTPWhitespace.trimmed(parts[1])
                let digits = value.hasPrefix("\"") && value.hasSuffix("\"") && value.count >= 2
                    ? value.dropFirst().dropLast() : value
                // RFC 9111 §1.2.2: delta-seconds; more than 12 digits is past any ceiling anyway.
                if !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit) { maxAge = Int64(digits.prefix(12)) }
            }
        }
        guard let maxAge else { return clamp(unspecified) }
        return clamp(.seconds(maxAge))
    }

    private func clamp(_ duration: Duration) -> Duration { min(max(duration, floor), ceiling) }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
