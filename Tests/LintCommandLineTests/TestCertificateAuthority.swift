import Crypto
import Foundation
import NIOSSL
import SwiftASN1
import X509

/// A throwaway CA and a server certificate for 127.0.0.1 signed by it, made in memory for each test run, so the TLS
/// fixture host is verified the way a real one is (no "skip verification" switch in the code under test).
struct TestCertificateAuthority {
    let caPEM: String
    let serverChain: [NIOSSLCertificate]
    let serverKey: NIOSSLPrivateKey

    init() throws {
        let now = Date()
        let caKey = P256.Signing.PrivateKey()
        let caName = try DistinguishedName { CommonName("SignInBridge lint test CA") }
        let ca = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(caKey.publicKey),
            notValidBefore: now - 3600, notValidAfter: now + 3600, issuer: caName, subject: caName,
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true))
            },
            issuerPrivateKey: .init(caKey))
        let serverKey = P256.Signing.PrivateKey()
        let server = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(serverKey.publicKey),
            notValidBefore: now - 3600, notValidAfter: now + 3600, issuer: caName,
            subject: try DistinguishedName { CommonName("127.0.0.1") },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                SubjectAlternativeNames([.ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1])), .dnsName("localhost")])
                try ExtendedKeyUsage([.serverAuth])
            },
            issuerPrivateKey: .init(caKey))
        caPEM = try ca.serializeAsPEM().pemString
        serverChain = [try NIOSSLCertificate(bytes: Array(try server.serializeAsPEM().pemString.utf8), format: .pem)]
        self.serverKey = try NIOSSLPrivateKey(bytes: Array(serverKey.pemRepresentation.utf8), format: .pem)
    }

    /// The CA as a PEM file, for `--ca-certificate`.
    func writeCA(to directory: URL) throws -> String {
        let path = directory.appendingPathComponent("ca.pem").path
        try Data(caPEM.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}
