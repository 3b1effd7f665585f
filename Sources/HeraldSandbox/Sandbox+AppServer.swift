import Foundation
import Logging
import NIOCore
import NIOPosix

extension Sandbox {
    /// The sandbox an App Server (`herald serve`) runs in its own process for apps without Apple
    /// credentials: TLS on loopback at a free port, every token accepted, no burst limit, the
    /// last 20 notifications kept per device, its admin API on `adminPort` when given (0: any
    /// free port). It logs warnings and worse only.
    public static func startForAppServer(adminPort: Int?, logger: Logger, eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) async throws -> Sandbox {
        var logger = logger
        logger.logLevel = max(logger.logLevel, .warning)
        return try await Sandbox.start(SandboxConfiguration(
            host: "127.0.0.1", port: 0, adminPort: adminPort, autoAccept: true, burstLimit: .max, deliveriesKeptPerDevice: 20, logger: logger
        ), eventLoopGroup: eventLoopGroup)
    }

    /// Where an APNs client reaches it (`https://127.0.0.1:PORT`, or `http://` without TLS).
    public var url: String { "\(certificatePath == nil ? "http" : "https")://127.0.0.1:\(port)" }
}

extension Sandbox {
    /// One call of the admin API (see ``AdminRouter``'s table) made in-process, as the App
    /// Server's console makes it: the status and the JSON body it answers.
    public func administer(method: String, uri: String, body: [UInt8]) -> (status: Int, body: [UInt8]) {
        let answer = AdminRouter(state: state).route(method: method, uri: uri, body: body)
        return (answer.status, answer.body)
    }
}
