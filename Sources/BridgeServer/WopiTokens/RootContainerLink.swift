import SignInProtocol

/// The root container's pointer, `{Name, Url}` with a WOPI access token in the URL (`wopi.rootContainer`): the same
/// for the bootstrapper's `GET_ROOT_CONTAINER` and the ecosystem's GetRootContainer (Microsoft's "WOPI bootstrapper"
/// and "GetRootContainer (ecosystem)" pages), so the two never point at different containers.
struct RootContainerLink: Sendable {
    let name: String
    let url: AccessTokenURLTemplate

    init(_ root: BridgeConfiguration.RootContainer) {
        name = root.name
        url = AccessTokenURLTemplate(root.urlTemplate)
    }

    /// The pointer carrying `token`, a WOPI access token for no one file (`WopiAccessTokenClaims.wopiSource` nil).
    func pointer(token: String) -> RootContainerInfo.ContainerPointer {
        RootContainerInfo.ContainerPointer(url: url.filled(with: token), name: name)
    }
}
