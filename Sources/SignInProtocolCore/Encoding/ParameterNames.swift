/// The parameter names a decoder looks for, prepared once as lower-case bytes, so that sorting a query's
/// parameters into "known" and "other" costs no allocation and no lower-cased copies.
///
/// `FormParameters.decode(_:taking:…)` uses it: one pass over the bytes decodes the known values into slots
/// and only builds name strings for the other parameters (the To/Back URL fast path; see ProtocolBench).
struct ParameterNames: Sendable {
    let names: [String]
    /// Every name's lower-case bytes, one after the other, and where each starts and ends.
    private let flat: [UInt8]
    private let bounds: [Range<Int>]

    /// `names` must be distinct ignoring ASCII case.
    init(_ names: [String]) {
        self.names = names
        var flat = [UInt8]()
        var bounds = [Range<Int>]()
        for name in names {
            let start = flat.count
            flat.append(contentsOf: name.asciiLowercased().utf8)
            bounds.append(start..<flat.count)
        }
        self.flat = flat
        self.bounds = bounds
    }

    /// The position of `name` (compared ignoring ASCII case) in `names`, trying `hint` first: parameters
    /// usually arrive in the documented order, so the caller passes the slot after the last one found.
    func slot(of name: UnsafeBufferPointer<UInt8>, hint: Int = 0) -> Int? {
        withBuffers { flat, bounds in Self.slot(of: name, hint: hint, flat: flat, bounds: bounds) }
    }

    /// Lends the prepared bytes, so that a loop over many parameters touches the arrays once.
    func withBuffers<R>(_ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<Range<Int>>) -> R) -> R {
        flat.withUnsafeBufferPointer { flat in bounds.withUnsafeBufferPointer { bounds in body(flat, bounds) } }
    }

    @inline(__always)
    static func slot(
        of name: UnsafeBufferPointer<UInt8>, hint: Int, flat: UnsafeBufferPointer<UInt8>,
        bounds: UnsafeBufferPointer<Range<Int>>
    ) -> Int? {
        let count = bounds.count
        var slot = hint < count ? hint : 0
        for _ in 0..<count {
            let range = bounds[slot]
            if range.count == name.count && matches(name, flat, from: range.lowerBound) { return slot }
            slot = slot + 1 == count ? 0 : slot + 1
        }
        return nil
    }

    @inline(__always)
    private static func matches(_ name: UnsafeBufferPointer<UInt8>, _ flat: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        for index in 0..<name.count {
            let byte = name[index]
            // Folding only A-Z: the candidate is lower case, so any other difference is a mismatch.
            let folded = byte &- 65 < 26 ? byte | 0x20 : byte
            if folded != flat[start + index] { return false }
        }
        return true
    }
}

/// True for the bytes that end a name or value or need decoding in a form: `%`, `&`, `+`, `=` (bits 37, 38, 43
/// and 61 of one 64-bit set), so that scanning ordinary bytes costs one test each.
@inline(__always)
func isFormDelimiter(_ byte: UInt8) -> Bool {
    byte < 64 && (0x2000_0860_0000_0000 as UInt64) &>> UInt64(byte) & 1 == 1
}

/// Why `FormParameters.decode(_:taking:…)` failed.
enum ParameterTakingError: Error, Hashable {
    case decoding(FormDecodingError)
    /// One of the taken names appeared twice (the first such name, in the order of the input).
    case duplicate(String)
}

extension FormParameters {
    /// Decodes like `decode(_:plusAsSpace:limit:baseOffset:what:)`, taking the parameters named in `names` out:
    /// their values come back by position in `values`, every other parameter in `rest`, in order.
    ///
    /// A bad escape anywhere is reported first (as `decode` would), then the first taken name seen twice.
    static func decode(
        _ input: some StringProtocol, taking names: ParameterNames, plusAsSpace: Bool, limit: InputLimit,
        baseOffset: Int, what: String
    ) throws(ParameterTakingError) -> (values: [String?], rest: FormParameters) {
        do { try limit.check(input, what: what) } catch { throw .decoding(.tooLarge(error)) }
        let result =
            input.utf8.withContiguousStorageIfAvailable {
                take(bytes: $0, names: names, plusAsSpace: plusAsSpace, baseOffset: baseOffset)
            }
            ?? {
                var copy = String(input)
                return copy.withUTF8 { take(bytes: $0, names: names, plusAsSpace: plusAsSpace, baseOffset: baseOffset) }
            }()
        return try result.get()
    }

    static func take(
        bytes: UnsafeBufferPointer<UInt8>, names: ParameterNames, plusAsSpace: Bool, baseOffset: Int
    ) -> Result<(values: [String?], rest: FormParameters), ParameterTakingError> {
        names.withBuffers { flat, bounds in
            take(bytes: bytes, names: names, flat: flat, bounds: bounds, plusAsSpace: plusAsSpace, baseOffset: baseOffset)
        }
    }

    private static func take(
        bytes: UnsafeBufferPointer<UInt8>, names: ParameterNames, flat: UnsafeBufferPointer<UInt8>,
        bounds: UnsafeBufferPointer<Range<Int>>, plusAsSpace: Bool, baseOffset: Int
    ) -> Result<(values: [String?], rest: FormParameters), ParameterTakingError> {
        var values = [String?](repeating: nil, count: names.names.count)
        var rest = FormParameters()
        var firstDuplicate: String?
        var hint = 0
        var start = 0
        while start <= bytes.count {
            // One scan finds the end of the pair, its `=`, and whether the value needs decoding at all.
            var end = start
            var equals = -1
            var escapes = false
            while end < bytes.count {
                let byte = bytes[end]
                if !isFormDelimiter(byte) {
                    end += 1
                    continue
                }
                if byte == UInt8(ascii: "&") { break }
                if byte == UInt8(ascii: "=") && equals < 0 {
                    equals = end
                    escapes = false  // From here on the flag is about the value.
                } else if byte == UInt8(ascii: "%") || (plusAsSpace && byte == UInt8(ascii: "+")) {
                    escapes = true
                }
                end += 1
            }
            defer { start = end + 1 }
            if end == start { continue }
            let nameEnd = equals < 0 ? end : equals
            let rawName = UnsafeBufferPointer(rebasing: bytes[start..<nameEnd])
            let value: Result<String, PercentDecodingError> =
                equals < 0
                ? .success("")
                : PercentEncoding.decode(
                    UnsafeBufferPointer(rebasing: bytes[(equals + 1)..<end]), needsDecoding: escapes,
                    plusAsSpace: plusAsSpace, baseOffset: baseOffset + equals + 1)
            var slot = ParameterNames.slot(of: rawName, hint: hint, flat: flat, bounds: bounds)
            var name = ""
            if slot == nil {
                switch PercentEncoding.decode(rawName, plusAsSpace: plusAsSpace, baseOffset: baseOffset + start) {
                case .success(let decoded): name = decoded
                case .failure(let error): return .failure(badEncoding(rawName, error))
                }
                // `%62uild` is `build` too: match the decoded name when the raw one had escapes.
                if rawName.contains(where: { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }) {
                    var copy = name
                    slot = copy.withUTF8 { names.slot(of: $0) }
                }
            }
            guard case .success(let decoded) = value else { return .failure(badEncoding(rawName, value.failure!)) }
            if let slot {
                hint = slot + 1
                if values[slot] == nil {
                    values[slot] = decoded
                } else if firstDuplicate == nil {
                    firstDuplicate = names.names[slot]
                }
            } else {
                rest.append(name, decoded)
            }
        }
        if let firstDuplicate { return .failure(.duplicate(firstDuplicate)) }
        return .success((values, rest))
    }

    private static func badEncoding(_ rawName: UnsafeBufferPointer<UInt8>, _ error: PercentDecodingError) -> ParameterTakingError {
        .decoding(.badEncoding(parameter: String(decoding: rawName, as: UTF8.self), error))
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { error } else { nil }
    }
}
