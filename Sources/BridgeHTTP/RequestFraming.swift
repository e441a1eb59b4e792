import Foundation
import NIOHTTP1
import SignInProtocolCore

/// The RFC 9112 message-framing rules a request head must pass before anything reads its body or routes it. NIO's
/// parser (llhttp) enforces some of them itself; this checks them all once more on the parsed head, so one place
/// decides and every path (the prepared challenge included) gets the same answer.
package enum RequestFraming {
    /// What was wrong, with the status RFC 9112 asks for. Every one closes the connection: once framing is in
    /// doubt, nothing after this request on the connection can be trusted (RFC 9112 §11.2, request smuggling).
    package enum Violation: Error, Sendable, Hashable {
        /// A transfer coding other than `chunked`: RFC 9112 §6.1 "SHOULD respond with 501 (Not Implemented)".
        case unknownTransferCoding(String)
        /// `chunked` present but not last: RFC 9112 §6.3 item 4, "MUST respond with the 400".
        case chunkedNotFinal
        /// `Transfer-Encoding` in an HTTP/1.0 request: RFC 9112 §6.1 "MUST treat the message as if the framing is
        /// faulty".
        case transferEncodingInHTTP10
        /// Both `Transfer-Encoding` and `Content-Length`: RFC 9112 §6.1 and §6.3 item 3 (a smuggling shape).
        case transferEncodingWithContentLength
        /// `Content-Length` values that are not all the same non-negative integer: RFC 9112 §6.3 item 5.
        case invalidContentLength
        /// HTTP/1.1 without `Host`: RFC 9112 §3.2 "MUST respond with a 400".
        case missingHost
        /// More than one `Host` line, or a list in one: RFC 9112 §3.2.
        case repeatedHost
        /// A `Host` value that is not `uri-host [ ":" port ]`: RFC 9112 §3.2.
        case invalidHost
        /// A header line continued on the next one (obs-fold): RFC 9112 §5.2 lets a server reject it with 400.
        case obsoleteLineFolding
        /// `Content-Length` twice, or beside `Transfer-Encoding`, as NIO's parser reports it (it cannot say which).
        case ambiguousLength
        /// Whatever else NIO's parser refused before a head existed (bad syntax, obs-fold, an oversized head…).
        case unparsable

        package var status: HTTPResponseStatus {
            if case .unknownTransferCoding = self { return .notImplemented }
            return .badRequest
        }

        package var message: String {
            switch self {
            case .unknownTransferCoding(let coding): "transfer coding \"\(coding.prefix(40))\" is not supported (RFC 9112 §6.1)"
            case .chunkedNotFinal: "chunked must be the final transfer coding (RFC 9112 §6.3)"
            case .transferEncodingInHTTP10: "Transfer-Encoding is not allowed in HTTP/1.0 (RFC 9112 §6.1)"
            case .transferEncodingWithContentLength: "Transfer-Encoding and Content-Length together (RFC 9112 §6.3)"
            case .invalidContentLength: "invalid or conflicting Content-Length (RFC 9112 §6.3)"
            case .missingHost: "Host is required in HTTP/1.1 (RFC 9112 §3.2)"
            case .repeatedHost: "exactly one Host is allowed (RFC 9112 §3.2)"
            case .invalidHost: "invalid Host (RFC 9112 §3.2)"
            case .obsoleteLineFolding: "obsolete line folding is not accepted (RFC 9112 §5.2)"
            case .ambiguousLength: "Content-Length repeated or beside Transfer-Encoding (RFC 9112 §6.3)"
            case .unparsable: "malformed HTTP/1.1 request (RFC 9112)"
            }
        }
    }

    /// What NIO's parser (llhttp) refusing a request means, as far as its error says.
    package static func violation(for error: HTTPParserError) -> Violation {
        switch error {
        case .unexpectedContentLength: .ambiguousLength
        case .invalidContentLength: .invalidContentLength
        default: .unparsable
        }
    }

    /// nil when the head frames its message unambiguously.
    package static func violation(in head: HTTPRequestHead) -> Violation? {
        var hosts = 0
        var host: String?
        var transferEncodings: [String] = []
        var contentLengths: [String] = []
        for field in head.headers {
            if containsLineBreak(field.value) { return .obsoleteLineFolding }
            switch field.name.utf8.count {
            case 4 where field.name.lowercased() == "host":
                hosts += 1
                host = field.value
            case 14 where field.name.lowercased() == "content-length":
                contentLengths.append(field.value)
            case 17 where field.name.lowercased() == "transfer-encoding":
                transferEncodings.append(field.value)
            default:
                break
            }
        }
        if head.version.major == 1, head.version.minor >= 1 {
            if hosts == 0 { return .missingHost }
        }
        if hosts > 1 { return .repeatedHost }
        if let host {
            if host.utf8.contains(UInt8(ascii: ",")) { return .repeatedHost }
            if !isValidHost(host) { return .invalidHost }
        }
        if !transferEncodings.isEmpty {
            if let problem = transferCodingProblem(transferEncodings) { return problem }
            if head.version.major == 1, head.version.minor == 0 { return .transferEncodingInHTTP10 }
            if !contentLengths.isEmpty { return .transferEncodingWithContentLength }
        }
        if !contentLengths.isEmpty, !isConsistentContentLength(contentLengths) { return .invalidContentLength }
        return nil
    }

    /// CR or LF in a value, found with `memchr` over the string's own bytes: this reads every header of every
    /// request, and a byte-by-byte scan over a bearer token was 1.4% of an authenticated bootstrap (`perf record`).
    private static func containsLineBreak(_ value: String) -> Bool {
        func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            guard let base = bytes.baseAddress else { return false }
            return memchr(base, 0x0D, bytes.count) != nil || memchr(base, 0x0A, bytes.count) != nil
        }
        return value.utf8.withContiguousStorageIfAvailable(scan) ?? Array(value.utf8).withUnsafeBufferPointer(scan)
    }

    /// Every coding known (only `chunked`, RFC 9112 §7), `chunked` exactly once and last.
    private static func transferCodingProblem(_ lines: [String]) -> Violation? {
        let codings = lines.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { HTTPWhitespace.trimmed($0).lowercased() }
        if let unknown = codings.first(where: { $0 != "chunked" }) {
            return unknown.isEmpty ? .chunkedNotFinal : .unknownTransferCoding(unknown)
        }
        return codings.count == 1 ? nil : .chunkedNotFinal
    }

    /// `1*DIGIT`, and every value (lines and list members) the same (RFC 9112 §6.3 item 5).
    private static func isConsistentContentLength(_ lines: [String]) -> Bool {
        let values = lines.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { HTTPWhitespace.trimmed($0) }
        guard let first = values.first, !first.isEmpty, first.utf8.count <= 18,
            first.utf8.allSatisfy({ (0x30...0x39).contains($0) })
        else { return false }
        return values.allSatisfy { $0 == first }
    }

    /// RFC 3986 §3.2.2 host characters and an optional port; no spaces, userinfo, paths or lists.
    private static func isValidHost(_ value: String) -> Bool {
        value.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || "-._~!$&'()*+;=:[]%".utf8.contains(byte)
        }
    }
}
