import HTTPTypes

/// The WOPI request headers the bootstrapper, the ecosystem endpoint and the forward-auth check read
/// (Microsoft's WOPI docs, "Common headers", learn.microsoft.com/microsoft-365/cloud-storage-partner-program/rest/common-headers).
extension HTTPField.Name {
    static let wopiEcosystemOperation = Self("X-WOPI-EcosystemOperation")!
    static let wopiSrc = Self("X-WOPI-WopiSrc")!
    static let wopiSessionContext = Self("X-WOPI-SessionContext")!
}
