/// One request and its answer as the report shows them: secrets already masked, no bodies, no credentials.
public struct RecordedExchange: Sendable, Hashable, Codable {
    public var party: Party
    public var method: String
    public var url: String
    /// nil when the request never got an answer.
    public var status: Int?
    public var location: String?
    public var checkID: String?

    public init(party: Party, method: String, url: String, status: Int?, location: String?, checkID: String?) {
        self.party = party
        self.method = method
        self.url = url
        self.status = status
        self.location = location
        self.checkID = checkID
    }
}
