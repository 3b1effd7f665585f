import Foundation
import HeraldCore
import HeraldSandbox
import NIOCore
import NIOPosix
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Connects and closes with SO_LINGER 0, so the server sees a TCP reset.
func resetConnection(port: Int) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
    var option = linger(l_onoff: 1, l_linger: 0)
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    close(fd)
}

/// Connections: one stream until a valid token, thousands of concurrent streams, misbehaving
/// connections that disturb no one else, and a reused token verified once.
@Suite struct ConnectionTests {
    @Test func oneStreamUntilTheFirstValidToken() async throws {
        let fixture = try await SandboxFixture.start(maxStreams: 500)
        defer { Task { await fixture.stop() } }
        let client = try await fixture.connect()
        _ = try await client.send(path: "/3/device/\(try fixture.device())", headers: try fixture.headers(), body: alertPayload)
        #expect(try await client.announcedMaxConcurrentStreams() == [1, 500])
    }

    @Test func aReusedTokenIsVerifiedOncePerConnection() async throws {
        let fixture = try await SandboxFixture.start()
        defer { Task { await fixture.stop() } }
        let client = try await fixture.connect()
        let headers = try fixture.headers()
        for _ in 0..<50 { _ = try await client.send(path: "/3/device/\(try fixture.device())", headers: headers, body: alertPayload) }
        #expect(fixture.state.counters.tokenVerifications == 1)
    }

    @Test(.timeLimit(.minutes(2)))
    func thousandsOfConcurrentStreamsOverTLSWithMisbehavingNeighbours() async throws {
        let fixture = try await SandboxFixture.start(tls: true, autoAccept: true, burstLimit: .max)
        defer { Task { await fixture.stop() } }
        // Misbehaving connections: garbage bytes, a half-open one that never speaks, one reset at once.
        let garbage = try await ClientBootstrap(group: SandboxFixture.group).connect(host: "127.0.0.1", port: fixture.sandbox.port).get()
        try await garbage.writeAndFlush(ByteBuffer(string: "GET / HTTP/1.1\r\nHost: x\r\n\r\n\u{0}\u{1}garbage")).get()
        let halfOpen = try await ClientBootstrap(group: SandboxFixture.group).connect(host: "127.0.0.1", port: fixture.sandbox.port).get()
        resetConnection(port: fixture.sandbox.port)

        let headers = try fixture.headers()
        var clients: [H2TestClient] = []
        for _ in 0..<4 { clients.append(try await fixture.connect()) }
        // Unlock each connection with one request first, as APNs requires.
        for client in clients { #expect(try await client.send(path: "/3/device/\(String(repeating: "aa", count: 32))", headers: headers, body: alertPayload).status == 200) }
        let perConnection = 1000
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for (index, client) in clients.enumerated() {
                for request in 0..<perConnection {
                    let token = String(format: "%04x%04x", index, request) + String(repeating: "0", count: 56)
                    group.addTask { try await client.send(path: "/3/device/\(token)", headers: headers, body: alertPayload).status }
                }
            }
            return try await group.reduce(into: [Int: Int]()) { $0[$1, default: 0] += 1 }
        }
        #expect(statuses == [200: 4 * perConnection])
        #expect(fixture.state.devices.count == 4 * perConnection + 1)
        for client in clients { await client.close() }
        try? await halfOpen.close()
        try? await garbage.close()
    }
}
