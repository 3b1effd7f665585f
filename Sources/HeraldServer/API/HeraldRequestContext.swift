import Hummingbird
import NIOCore

/// The API's request context: Hummingbird's, with the client's address for the request log.
struct HeraldRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    /// The connected client (a reverse proxy's address when one is in front).
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
