extension JSONNode {
    var members: [JSONMember]? {
        if case .object(let members) = value { return members }
        return nil
    }

    var items: [JSONNode]? {
        if case .array(let items) = value { return items }
        return nil
    }

    var string: String? {
        if case .string(let text) = value { return text }
        return nil
    }

    /// The first member with this key, if this is an object.
    func member(_ key: String) -> JSONMember? { members?.first { $0.key == key } }
}

/// Reading one JSON association file: size limit first, then strict RFC 8259.
enum AssociationJSON {
    static func parse(_ bytes: [UInt8], limit: Int, name: String) throws(JSONSyntaxError) -> JSONNode {
        guard bytes.count <= limit else {
            throw JSONSyntaxError(
                message: "\(name) is \(bytes.count) bytes, over the limit of \(limit) bytes", position: .startOfFile)
        }
        return try PositionedJSONReader.parse(bytes)
    }
}
