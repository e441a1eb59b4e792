import NIOCore
import PostgresNIO

/// A one-dimensional array parameter whose elements may be NULL: a batch statement's column of optional values
/// (`unnest($n::text[])` gives NULL rows for nil). postgres-nio encodes `[T]` but not `[T?]`, so this writes the same
/// binary array format with a length of -1 for each NULL element (postgresql.org/docs/15/protocol-message-types.html
/// for the length convention; the layout is `array_send`'s: dimensions, has-nulls flag, element type, then per
/// dimension its length and lower bound, then each element as length and bytes).
struct NullableArray<Element: PostgresArrayEncodable>: PostgresEncodable {
    var elements: [Element?]

    init(_ elements: [Element?]) { self.elements = elements }

    static var psqlType: PostgresDataType { Element.psqlArrayType }
    static var psqlFormat: PostgresFormat { .binary }

    func encode<JSONEncoder: PostgresJSONEncoder>(
        into buffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>
    ) throws {
        buffer.writeInteger(elements.isEmpty ? 0 : 1, as: Int32.self)
        buffer.writeInteger(elements.contains { $0 == nil } ? 1 : 0, as: Int32.self)
        buffer.writeInteger(Element.psqlType.rawValue)
        guard !elements.isEmpty else { return }
        buffer.writeInteger(Int32(elements.count))
        buffer.writeInteger(1, as: Int32.self)  // lower bound
        for element in elements {
            guard let element else {
                buffer.writeInteger(-1, as: Int32.self)
                continue
            }
            let lengthIndex = buffer.writerIndex
            buffer.writeInteger(0, as: Int32.self)
            try element.encode(into: &buffer, context: context)
            buffer.setInteger(Int32(buffer.writerIndex - lengthIndex - 4), at: lengthIndex)
        }
    }
}
