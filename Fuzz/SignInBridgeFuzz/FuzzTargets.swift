import Foundation
import ManifestLint
import SignInProtocol

/// One fuzz target per decoder of untrusted input. Each takes the fuzzer's bytes, decodes them, and where the
/// decoder has an encoder, checks that what it decoded survives encode → decode (a crash or a failed round trip is
/// a finding). Errors thrown for bad input are the expected outcome and are ignored.
enum FuzzTargets {
    static let all: [String: @Sendable ([UInt8]) -> Void] = [
        "challenge": challenge,
        "url-schemes": urlSchemes,
        "office-to-url": officeToURL,
        "office-back-url": officeBackURL,
        "android-intent": androidIntent,
        "form": form,
        "app-callback": appCallback,
        "app-to-app": appToApp,
        "authorize-request": authorizeRequest,
        "token-request": tokenRequest,
        "token-response": tokenResponse,
        "bootstrap-response": bootstrapResponse,
        "bearer-credential": bearerCredential,
        "android-manifest": { lint($0, .androidManifest) },
        "info-plist": { lint($0, .infoPlist) },
        "url-schemes-json": { lint($0, .urlSchemes) },
        "assetlinks": { lint($0, .assetLinks) },
        "apple-app-site-association": { lint($0, .appSiteAssociation) },
        "entitlements": { lint($0, .entitlements) },
    ]

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    static func check(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError("round trip: \(message())") }
    }

    /// A limit that fits `encoded`: encoding escapes what a raw input may carry unescaped (one invalid byte becomes
    /// `%EF%BF%BD`), so a re-encoded input may be over the limit the input was under; the round trip is about the codec.
    static func fitting(_ encoded: String) -> InputLimit { InputLimit(maxBytes: max(1, encoded.utf8.count)) }

    static func challenge(_ bytes: [UInt8]) {
        // Several header lines, as a client reading every WWW-Authenticate field gets them.
        let lines = text(bytes).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        _ = try? AuthenticationChallenge.parse(headerValues: lines)
        _ = try? BootstrapChallenge.parse(headerValues: lines)
    }

    static func urlSchemes(_ bytes: [UInt8]) {
        _ = try? UrlSchemes(json: text(bytes))
    }

    static func officeToURL(_ bytes: [UInt8]) {
        guard let url = try? OfficeToURL(url: text(bytes)) else { return }
        let again = try? OfficeToURL(url: url.url, limit: fitting(url.url))
        check(again == url, "OfficeToURL \(url.url)")
    }

    static func officeBackURL(_ bytes: [UInt8]) {
        guard let url = try? OfficeBackURL(url: text(bytes)) else { return }
        let again = try? OfficeBackURL(url: url.url, limit: fitting(url.url))
        check(again == url, "OfficeBackURL \(url.url)")
    }

    static func androidIntent(_ bytes: [UInt8]) {
        guard let form = try? FormParameters.decode(text(bytes)) else { return }
        var extras = [String: String]()
        for pair in form.pairs { extras[pair.name] = pair.value }
        _ = try? AndroidSignInIntent.Request(extras: extras)
    }

    static func form(_ bytes: [UInt8]) {
        guard let form = try? FormParameters.decode(text(bytes)) else { return }
        let again = try? FormParameters.decode(form.encoded, limit: fitting(form.encoded))
        check(again == form, "FormParameters \(form.encoded)")
    }

    static func appCallback(_ bytes: [UInt8]) {
        guard let callback = try? AppCallback.decode(url: text(bytes)) else { return }
        _ = try? AppCallback.decode(url: callback.url)
    }

    static func appToApp(_ bytes: [UInt8]) {
        _ = try? AppToAppAuthorization.decode(url: text(bytes))
    }

    static func authorizeRequest(_ bytes: [UInt8]) {
        _ = try? AuthorizationRequest.decode(query: text(bytes))
        _ = try? AuthorizationResponse.decode(query: text(bytes))
    }

    static func tokenRequest(_ bytes: [UInt8]) {
        // The first line is the Authorization header, the rest the form body.
        let input = text(bytes)
        let newline = input.firstIndex(of: "\n")
        let authorization = newline.map { String(input[..<$0]) }
        let body = newline.map { String(input[input.index(after: $0)...]) } ?? input
        _ = try? TokenRequest.decode(form: body, authorization: authorization)
        if let authorization { _ = try? ClientAuthentication.decode(basicAuthorization: authorization) }
    }

    static func tokenResponse(_ bytes: [UInt8]) {
        if let response = try? TokenResponse.decode(json: text(bytes)) {
            writtenAsJSONEncoderWrites(response)
            check((try? TokenResponse.decode(json: response.json, limit: fitting(response.json))) != nil, response.json)
        }
        _ = try? OAuthError.decode(json: text(bytes))
    }

    static func bootstrapResponse(_ bytes: [UInt8]) {
        guard let response = try? BootstrapResponse.decode(Data(bytes)) else { return }
        writtenAsJSONEncoderWrites(response)
        let body = response.encoded()
        check((try? BootstrapResponse.decode(body, limit: InputLimit(maxBytes: max(1, body.count)))) != nil, text(Array(body)))
    }

    /// The server writes these bodies with `JSONValue.compactJSON` instead of `JSONEncoder`; the two must agree on
    /// every value a decoder can produce.
    static func writtenAsJSONEncoderWrites(_ value: some CompactJSONRepresentable) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let theirs = try? encoder.encode(value) else { return }
        let ours = value.jsonValue.compactJSON
        check(ours == Array(theirs), "compactJSON \(text(ours)) != JSONEncoder \(text(Array(theirs)))")
    }

    static func bearerCredential(_ bytes: [UInt8]) {
        guard let credential = BearerCredential(authorization: text(bytes), maxBytes: 8192) else { return }
        check(BearerCredential(authorization: "Bearer " + credential.token, maxBytes: 8192) == credential, credential.token)
    }

    static func lint(_ bytes: [UInt8], _ kind: FileKind) {
        _ = Linter().lint(bytes: bytes, kind: kind)
    }
}
