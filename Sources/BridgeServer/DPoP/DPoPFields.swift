import HTTPTypes
import Hummingbird

extension HTTPField.Name {
    /// RFC 9449 §4.1: the proof.
    static let dpop = Self("DPoP")!
    /// RFC 9449 §8.1, §9: the nonce the next proof must carry.
    static let dpopNonce = Self("DPoP-Nonce")!
}

extension DPoPPresentation {
    /// The request's `DPoP` fields, its method, and its URI as the issuer publishes it: the issuer's origin and the
    /// request's path, since behind a proxy the request's own host may differ (RFC 9449 §4.3 step 9 compares `htu`
    /// without query or fragment).
    init(_ request: Request, configuration: BridgeConfiguration) {
        self.init(
            proofs: request.headers[values: .dpop], method: request.method.rawValue,
            uri: configuration.issuerURL(path: request.uri.path))
    }
}

extension Response {
    /// Adds the nonce the next proof must carry (`DPoP-Nonce`, RFC 9449 §8.1) to the answer of a request that sent a
    /// proof, when the server requires nonces.
    mutating func addDPoPNonce(_ nonce: String?, requestHadProof: Bool) {
        guard requestHadProof, let nonce, headers[.dpopNonce] == nil else { return }
        headers[.dpopNonce] = nonce
    }
}
