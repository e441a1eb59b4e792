import Hummingbird
import NIOCore

/// The request context of every route: Hummingbird's basics plus the peer address, which the sign-in throttle
/// counts failures by (a proxy in front must be trusted explicitly; `X-Forwarded-For` is not read).
public struct BridgeRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
    }
}
