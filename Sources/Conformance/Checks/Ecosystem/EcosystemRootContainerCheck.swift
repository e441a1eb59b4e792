import SignInProtocol

/// GetRootContainer (ecosystem) answers `ContainerPointer` with a `Name` and an absolute `Url` that carries an
/// access token, which Office follows to browse the host's files.
struct EcosystemRootContainerCheck: ConformanceCheck {
    static let descriptor = CheckDescriptor(id: "ecosystem.root-container", group: .ecosystem, level: .must, source: SourceCitation(
            title: "Microsoft WOPI docs, GetRootContainer (ecosystem): ContainerPointer",
            url: "https://learn.microsoft.com/microsoft-365/cloud-storage-partner-program/rest/ecosystem/getrootcontainer"),
        summary: "GET <EcosystemUrl path>/root_container_pointer answers ContainerPointer with Name and an absolute Url with access_token")

    func run(in session: ConformanceSession) async throws(CheckSkipped) -> CheckOutcome {
        let ecosystem = try await session.servedEcosystem()
        let answer = try await session.ecosystemGet(ecosystem.rootContainerPointerURL)
        guard answer.status == 200 else { return .fail("expected 200, got \(answer.status)") }
        guard let json = JSONObject.parse(answer.body), case .object(let pointer)? = json["ContainerPointer"] else {
            return .fail("no ContainerPointer object")
        }
        guard let name = pointer["Name"]?.stringValue, !name.isEmpty else { return .fail("ContainerPointer.Name is missing or empty") }
        guard let url = pointer["Url"]?.stringValue else { return .fail("ContainerPointer.Url is missing") }
        guard EcosystemProbe.carriesAccessToken(url) else {
            return .fail("ContainerPointer.Url \(SecretMask.maskURL(url)) is not an absolute URL with an access_token")
        }
        return .pass("ContainerPointer \"\(name)\"")
    }
}
