import NIOCore
import NIOHTTP1
import NIOPosix

/// The admin API's HTTP/1.1 listener.
enum AdminServer {
    static func bind(host: String, port: Int, state: SandboxState, group: any EventLoopGroup) async throws -> any Channel {
        let router = AdminRouter(state: state)
        return try await ServerBootstrap(group: group)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                    try channel.pipeline.syncOperations.addHandler(AdminHandler(router: router, state: state))
                }
            }
            .bind(host: host, port: port)
            .get()
    }
}
