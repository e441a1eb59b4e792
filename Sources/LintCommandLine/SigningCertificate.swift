import Foundation
import ManifestLint

/// `--signing-cert`: the Android app's signing certificate, as its SHA-256 fingerprint (`AA:BB:…`, what
/// `keytool -list -v` prints) or as a certificate file in PEM or DER, whose fingerprint is the SHA-256 of its DER
/// bytes. assetlinks.json must name this certificate (Play Console's app signing key), not only the upload key.
/// https://developer.android.com/training/app-links/configure-assetlinks
public enum SigningCertificate {
    /// SHA-256, handed in by `signin-bridge lint` (`signin-bridge-lint` links no crypto: docs/lint-performance.md).
    public typealias Digest = @Sendable ([UInt8]) -> [UInt8]

    /// A certificate is a few KB; a larger file is not one.
    static let maxBytes = 64 * 1024

    /// The fingerprint `argument` gives, upper case and colon-separated.
    static func fingerprint(_ argument: String, digest: Digest?) throws(LintUsageError) -> String {
        if AssetLinksDocument.isFingerprint(argument.uppercased()) { return argument.uppercased() }
        guard FileManager.default.fileExists(atPath: argument) else {
            throw LintUsageError("--signing-cert \(argument): neither a SHA-256 fingerprint (32 colon-separated hex bytes) nor a file")
        }
        guard let digest else {
            throw LintUsageError(
                "--signing-cert \(argument): reading a certificate file needs `signin-bridge lint` (signin-bridge-lint has no SHA-256); or give its fingerprint")
        }
        return digest(try der(fromFile: argument)).map { byte in
            let hex = String(byte, radix: 16, uppercase: true)
            return byte < 16 ? "0" + hex : hex
        }.joined(separator: ":")
    }

    /// The DER bytes of the file's certificate: the first `CERTIFICATE` block of a PEM file (RFC 7468 §5), or
    /// the file itself when it is DER (an ASN.1 SEQUENCE, X.690 §8.9).
    static func der(fromFile path: String) throws(LintUsageError) -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw LintUsageError("--signing-cert \(path): cannot be read") }
        defer { try? handle.close() }
        let bytes = [UInt8]((try? handle.read(upToCount: maxBytes + 1)) ?? Data())
        guard bytes.count <= maxBytes else {
            throw LintUsageError("--signing-cert \(path): \(bytes.count) bytes, over the limit of \(maxBytes) bytes for a certificate")
        }
        let begin = "-----BEGIN CERTIFICATE-----"
        if let text = String(validating: bytes, as: UTF8.self), let start = text.range(of: begin) {
            guard let end = text.range(of: "-----END CERTIFICATE-----", range: start.upperBound..<text.endIndex),
                let der = Data(base64Encoded: String(text[start.upperBound..<end.lowerBound]), options: .ignoreUnknownCharacters),
                !der.isEmpty
            else {
                throw LintUsageError("--signing-cert \(path): the PEM CERTIFICATE block is not closed or not base64")
            }
            return Array(der)
        }
        guard bytes.first == 0x30 else {
            throw LintUsageError("--signing-cert \(path): neither a PEM certificate nor DER (an ASN.1 SEQUENCE)")
        }
        return bytes
    }
}
