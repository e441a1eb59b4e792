import SignInProtocol

/// Office's `rs` (culture), `build` and `platform` (Microsoft's app-to-app docs, any case variant: `AuthorizationRequest` reads them)
/// are optional (early clients omit them), but when present they must look like what Office sends, since they are
/// logged and shape the page: a culture tag, a dotted build number, a platform word.
struct CheckOfficeParameters: AuthorizeCheck {
    func check(_ draft: inout AuthorizationDraft) throws(OAuthError) {
        try Self.require(draft.request.culture, named: "rs", maxBytes: 16) { byte in
            Self.isLetterOrDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
        try Self.require(draft.request.build, named: "build", maxBytes: 32) { byte in
            Self.isLetterOrDigit(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
        }
        try Self.require(draft.request.platform, named: "platform", maxBytes: 32) { byte in
            Self.isLetterOrDigit(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
    }

    static func require(
        _ value: String?, named name: String, maxBytes: Int, allowed: (UInt8) -> Bool
    ) throws(OAuthError) {
        guard let value else { return }
        guard value.utf8.count <= maxBytes, value.utf8.allSatisfy(allowed) else {
            throw .invalidRequest("parameter '\(name)' is malformed")
        }
    }

    static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }
}
