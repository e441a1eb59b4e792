/// An answer as the suite saw it on the wire.
public struct ObservedResponse: Sendable {
    public var status: Int
    /// In the order received; names as sent.
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Every value of the field `name` (case-insensitive), one per header line.
    public func values(_ name: String) -> [String] {
        let wanted = name.lowercased()
        return headers.filter { $0.name.lowercased() == wanted }.map(\.value)
    }

    public func value(_ name: String) -> String? { values(name).first }

    public var text: String { String(decoding: body, as: UTF8.self) }

    public var isRedirect: Bool { (300..<400).contains(status) && value("Location") != nil }
}
