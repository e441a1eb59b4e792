import Foundation
import Testing

/// `lint --signing-cert`: the app's signing certificate as a file (PEM or DER) or a fingerprint, compared with the
/// fingerprints each autoVerify host's assetlinks.json names, so a file naming only the upload key is caught.
@Suite struct SigningCertificateTests {
    static let samples = LintCommandTests.samples
    /// `openssl x509 -in samples/applinks/signing/app-signing.pem -noout -fingerprint -sha256`
    static let certificateFingerprint = "87:0C:FD:6C:BE:A0:1B:F6:15:66:57:87:DE:4B:A6:46:FA:0B:4B:A9:F3:D2:1E:24:14:D0:65:1B:05:68:9F:20"

    /// The one-run sample app against an assetlinks.json for files.contoso.com naming `fingerprint`.
    static func lint(naming fingerprint: String, certificate: String) throws -> CLIRunner.Output {
        let app = samples + "/applinks/one-run/correct"
        let served = try String(contentsOfFile: app + "/assetlinks.json", encoding: .utf8)
            .replacingOccurrences(of: #"sha256_cert_fingerprints": \["[^"]*"\]"#, with: "sha256_cert_fingerprints\": [\"\(fingerprint)\"]", options: .regularExpression)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("assetlinks-\(UUID().uuidString).json").path
        try served.write(toFile: file, atomically: true, encoding: .utf8)
        return try CLIRunner.run(["lint", app + "/AndroidManifest.xml", "--assetlinks", "files.contoso.com=\(file)", "--signing-cert", certificate])
    }

    @Test func aFileNamingOnlyTheUploadKeyIsAnError() throws {
        let uploadKey = String(repeating: "AB:", count: 31) + "AB"
        for certificate in ["app-signing.pem", "app-signing.der"] {
            let path = Self.samples + "/applinks/signing/" + certificate
            let onlyUpload = try Self.lint(naming: uploadKey, certificate: path)
            #expect(onlyUpload.status == 1, "\(onlyUpload.stdout)\(onlyUpload.stderr)")
            #expect(onlyUpload.stdout.contains("[android-applinks-host-unverified] the assetlinks.json of files.contoso.com names com.contoso.links but none of the given signing certificates"))
            let signingKey = try Self.lint(naming: Self.certificateFingerprint, certificate: path)
            #expect(signingKey.status == 0, "\(certificate): \(signingKey.stdout)\(signingKey.stderr)")
        }
        // The fingerprint itself does as well as the file.
        #expect(try Self.lint(naming: Self.certificateFingerprint, certificate: Self.certificateFingerprint.lowercased()).status == 0)
    }

    @Test func notACertificateIsAUsageError() throws {
        let result = try CLIRunner.run(["lint", Self.samples + "/android/correct", "--signing-cert", Self.samples + "/bridge.yaml"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("neither a PEM certificate nor DER"), "\(result.stderr)")
        // The standalone links no SHA-256: it says which command reads certificate files.
        let standalone = try CLIRunner.runSibling(
            "signin-bridge-lint", [Self.samples + "/android/correct", "--signing-cert", Self.samples + "/applinks/signing/app-signing.pem"])
        #expect(standalone.status == 2)
    }
}
