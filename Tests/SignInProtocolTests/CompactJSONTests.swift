import Foundation
import PropertyBased
import Testing

@testable import SignInProtocol
@testable import SignInProtocolCore

/// `JSONValue.compactJSON` replaces `JSONEncoder` on the token and bootstrap answers, so it must write exactly what
/// `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]` writes: every test here compares the two.
@Suite struct CompactJSONTests {
    static func encoderBytes(_ value: some Encodable) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(value))
    }

    /// Every ASCII character, the line and paragraph separators, and multi-byte UTF-8, in a key and a value.
    static let everyEscape: String = {
        var text = ""
        for scalar in 0..<0x80 { text.unicodeScalars.append(Unicode.Scalar(UInt8(scalar))) }
        return text + "\u{2028}\u{2029}é中😀"
    }()

    @Test func escapesAsJSONEncoderDoes() throws {
        let value = JSONValue.object([Self.everyEscape: .string(Self.everyEscape)])
        #expect(value.compactJSON == (try Self.encoderBytes(value)))
        let text = String(decoding: value.compactJSON, as: UTF8.self)
        // RFC 8259 §7: the short escapes where they exist, \u00XX for the other control characters, "/" as is.
        #expect(text.contains(#"\u0000\u0001"#) && text.contains(#"\b\t\n\u000b\f\r\u000e"#))
        #expect(text.contains(#"./0"#) && text.contains(##"\"#"##) && text.contains(#"[\\]"#))
    }

    @Test func keysSortByTheirBytes() throws {
        let value = JSONValue.object([
            "b": .integer(1), "a": .integer(2), "A": .integer(3), "a10": .integer(4), "a9": .integer(5), "_": .null,
            "é": .bool(true), "z": .bool(false), "": .array([]),
        ])
        let text = String(decoding: value.compactJSON, as: UTF8.self)
        #expect(text == #"{"":[],"A":3,"_":null,"a":2,"a10":4,"a9":5,"b":1,"z":false,"é":true}"#)
        #expect(value.compactJSON == (try Self.encoderBytes(value)))
    }

    @Test func numbersAsJSONEncoderWritesThem() throws {
        let values: [JSONValue] = [
            .integer(.min), .integer(.max), .integer(0), .integer(-1), .number(0.1), .number(-0.0), .number(1e300),
            .number(.leastNonzeroMagnitude), .number(123456789.125), .number(1), .number(-2.5e-7),
        ]
        for value in values {
            #expect(value.compactJSON == (try Self.encoderBytes(value)), "\(value)")
        }
        // JSON has no NaN or infinity: written as null rather than failing the whole body.
        #expect(JSONValue.array([.number(.nan), .number(.infinity)]).compactJSON == Array("[null,null]".utf8))
    }

    @Test func generatedTreesMatchJSONEncoder() throws {
        var random = SplitMix64(seed: 0x5EED_C0DE)
        for round in 0..<3_000 {
            let value = JSONValue.generated(depth: 3, using: &random)
            let ours = value.compactJSON
            let theirs = try Self.encoderBytes(value)
            try #require(ours == theirs, "round \(round): \(String(decoding: ours, as: UTF8.self)) != \(String(decoding: theirs, as: UTF8.self))")
        }
    }

    @Test func tokenResponsesMatchJSONEncoder() async {
        await propertyCheck(
            input: ProtocolGen.text, ProtocolGen.text.optional, Gen<Int>.int(in: 0...Int.max).optional,
            ProtocolGen.text.optional
        ) { text, refresh, expiresIn, idToken throws in
            var response = TokenResponse(
                accessToken: text + "\u{8}\u{1F}", expiresIn: expiresIn, refreshToken: refresh, scope: refresh.map { "openid " + $0 },
                issuedTokenType: idToken == nil ? nil : "urn:ietf:params:oauth:token-type:access_token")
            if let idToken {
                response.additionalFields = ["id_token": .string(idToken), "scope": .string("shadowed"), text: .integer(7)]
            }
            #expect(Array(response.json.utf8) == (try Self.encoderBytes(response)))
            // What comes back is the response, less the extra fields that a declared member shadows.
            var expected = response
            expected.additionalFields = response.additionalFields.filter { !TokenResponse.declared.contains($0.key) }
            #expect(try TokenResponse.decode(json: response.json) == expected)
        }
    }

    @Test func bootstrapResponsesMatchJSONEncoder() async {
        await propertyCheck(
            input: ProtocolGen.text, ProtocolGen.text.optional, Gen<Int64>.int64(in: 0...Int64.max).optional,
            ProtocolGen.text.optional
        ) { text, friendlyName, expiry, containerName throws in
            let response = BootstrapResponse(
                bootstrap: Bootstrap(
                    ecosystemURL: "https://h/e?access_token=" + text, userId: text, signInName: text + "\u{C}",
                    userFriendlyName: friendlyName),
                accessTokenInfo: expiry.map { AccessTokenInfo(accessToken: text, accessTokenExpiry: $0) },
                rootContainerInfo: containerName.map {
                    RootContainerInfo(
                        containerPointer: .init(url: "https://h/wopi/containers/" + $0, name: $0),
                        containerInfo: .init(name: $0, otherProperties: ["Size": .integer(3), "ÿ" + $0: .string($0)]))
                },
                otherSections: friendlyName == nil ? [:] : ["EndPoints": .object(["x": .array([.string(text), .null])])])
            #expect(Array(response.encoded()) == (try Self.encoderBytes(response)))
            #expect(try BootstrapResponse.decode(response.encoded()) == response)
        }
    }
}

/// A small seeded generator (SplitMix64), so a failing tree is the same on every run.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension JSONValue {
    static func generated(depth: Int, using random: inout SplitMix64) -> JSONValue {
        let kinds = depth > 0 ? 7 : 5
        switch Int.random(in: 0..<kinds, using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2: return .integer(Int64.random(in: .min ... .max, using: &random) >> Int64.random(in: 0...63, using: &random))
        case 3:
            let number = Double(Int64.random(in: -1_000_000...1_000_000, using: &random))
                * pow(10, Double(Int.random(in: -20...20, using: &random)))
            return .number(number)
        case 4: return .string(generatedText(using: &random))
        case 5:
            return .array((0..<Int.random(in: 0...4, using: &random)).map { _ in generated(depth: depth - 1, using: &random) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...5, using: &random) {
                members[generatedText(using: &random)] = generated(depth: depth - 1, using: &random)
            }
            return .object(members)
        }
    }

    static func generatedText(using random: inout SplitMix64) -> String {
        let characters = Array(CompactJSONTests.everyEscape)
        return String((0..<Int.random(in: 0...8, using: &random)).map { _ in characters.randomElement(using: &random)! })
    }
}
