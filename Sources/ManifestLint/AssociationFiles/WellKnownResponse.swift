import Foundation

/// What `lint --fetch` saw when it asked a host for one of its association files, as the platforms' verifiers ask:
/// one GET over https, no redirect followed, the body read up to the file's size limit. Pure data; the fetching
/// itself happens in the command line target.
public struct WellKnownResponse: Sendable, Hashable {
    /// `https://HOST/.well-known/assetlinks.json` or `…/apple-app-site-association`.
    public var url: String
    /// The lower-case host the file speaks for.
    public var host: String
    /// `.assetLinks` or `.appSiteAssociation`.
    public var kind: FileKind
    public var outcome: Outcome

    public enum Outcome: Sendable, Hashable {
        /// The host answered; `body` holds at most the kind's size limit plus one byte (`truncated` then true).
        case answered(status: Int, contentType: String?, location: String?, body: [UInt8], truncated: Bool)
        /// No answer: name resolution, connection, TLS (an invalid certificate) or a timeout; `reason` says which.
        case failed(reason: String)
    }

    public init(url: String, host: String, kind: FileKind, outcome: Outcome) {
        self.url = url
        self.host = host
        self.kind = kind
        self.outcome = outcome
    }

    /// The well-known path of an association file (Android: assetlinks.json; Apple: no extension).
    public static func path(of kind: FileKind) -> String { "/.well-known/\(kind.rawValue)" }

    /// The most bytes worth reading: one more than the document's own limit, so that "too large" can be told.
    public static func readLimit(of kind: FileKind) -> Int {
        (kind == .appSiteAssociation ? AppSiteAssociationDocument.maxBytes : AssetLinksDocument.maxBytes) + 1
    }

    /// The answer's media type without parameters, lower-cased (`application/json; charset=utf-8` → `application/json`).
    public var mediaType: String? {
        guard case .answered(_, let contentType?, _, _, _) = outcome else { return nil }
        let type = contentType.split(separator: ";", maxSplits: 1).first ?? ""
        return type.trimmingCharacters(in: .whitespaces).lowercased()
    }

    /// The body the platform would go on to read: a 200 answer's, else nil.
    public var servedBody: [UInt8]? {
        guard case .answered(200, _, _, let body, _) = outcome else { return nil }
        return body
    }
}
