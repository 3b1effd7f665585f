import Foundation
import HeraldCore
import HeraldSandbox
import Testing

/// What APNs keeps for offline devices: one notification per app, never an expiration-0 one,
/// never an expired one; collapse ids replace.
@Suite struct StorageTests {
    func send(_ fixture: SandboxFixture, _ client: H2TestClient, to token: String, body: String, extra: [(String, String)] = [], authorization: String) async throws -> Int {
        try await client.send(path: "/3/device/\(token)", headers: try fixture.headers(authorization: authorization, extra: extra), body: body).status
    }

    @Test func offlineDeviceKeepsOnlyTheLatest() async throws {
        let fixture = try await SandboxFixture.start()
        defer { Task { await fixture.stop() } }
        let client = try await fixture.connect()
        let bearer = try fixture.bearer()
        let token = try fixture.device(online: false)
        for index in 1...3 {
            #expect(try await send(fixture, client, to: token, body: #"{"aps":{"alert":"\#(index)"}}"#, authorization: bearer) == 200)
        }
        #expect(fixture.state.received(token: token).isEmpty)
        #expect(fixture.state.stored(token: token)?.payload == #"{"aps":{"alert":"3"}}"#)
        try fixture.state.setOnline(token: token, true)
        #expect(fixture.state.received(token: token).map(\.payload) == [#"{"aps":{"alert":"3"}}"#])
        #expect(fixture.state.allReceived.map(\.payload) == [#"{"aps":{"alert":"3"}}"#])
        #expect(fixture.state.stored(token: token) == nil)
        let counters = fixture.state.counters
        #expect(counters.stored == 3 && counters.discarded == 2 && counters.delivered == 1)
    }

    @Test func expirationZeroIsNeverStored() async throws {
        let fixture = try await SandboxFixture.start()
        defer { Task { await fixture.stop() } }
        let client = try await fixture.connect()
        let bearer = try fixture.bearer()
        let token = try fixture.device(online: false)
        #expect(try await send(fixture, client, to: token, body: alertPayload, extra: [("apns-expiration", "0")], authorization: bearer) == 200)
        #expect(fixture.state.stored(token: token) == nil)
        try fixture.state.setOnline(token: token, true)
        #expect(fixture.state.received(token: token).isEmpty)
        // Online, expiration 0 is delivered at once.
        #expect(try await send(fixture, client, to: token, body: alertPayload, extra: [("apns-expiration", "0")], authorization: bearer) == 200)
        #expect(fixture.state.received(token: token).count == 1)
    }

    @Test func expiredStoredNotificationIsDropped() async throws {
        let fixture = try await SandboxFixture.start()
        defer { Task { await fixture.stop() } }
        let client = try await fixture.connect()
        let bearer = try fixture.bearer()
        let token = try fixture.device(online: false)
        let inAMinute = Int(fixture.clock.now.timeIntervalSince1970) + 60
        #expect(try await send(fixture, client, to: token, body: alertPayload, extra: [("apns-expiration", String(inAMinute))], authorization: bearer) == 200)
        fixture.clock.advance(by: 120)
        try fixture.state.setOnline(token: token, true)
        #expect(fixture.state.received(token: token).isEmpty)
        #expect(fixture.state.counters.discarded == 1)
    }

    @Test func collapseIDReplacesTheEarlierNotification() async throws {
        let fixture = try await SandboxFixture.start()
        defer { Task { await fixture.stop() } }
        let client = try await fixture.connect()
        let bearer = try fixture.bearer()
        let token = try fixture.device()
        #expect(try await send(fixture, client, to: token, body: #"{"aps":{"alert":"1-0"}}"#, extra: [("apns-collapse-id", "score")], authorization: bearer) == 200)
        #expect(try await send(fixture, client, to: token, body: #"{"aps":{"alert":"other"}}"#, authorization: bearer) == 200)
        #expect(try await send(fixture, client, to: token, body: #"{"aps":{"alert":"2-0"}}"#, extra: [("apns-collapse-id", "score")], authorization: bearer) == 200)
        #expect(fixture.state.received(token: token).map(\.payload) == [#"{"aps":{"alert":"other"}}"#, #"{"aps":{"alert":"2-0"}}"#])
    }

    @Test func autoAcceptRegistersOnFirstUse() async throws {
        let fixture = try await SandboxFixture.start(autoAccept: true)
        defer { Task { await fixture.stop() } }
        let client = try await fixture.connect()
        let token = String(repeating: "0f", count: 80)  // an 80-byte simulator-length token
        #expect(try await send(fixture, client, to: token, body: alertPayload, authorization: try fixture.bearer()) == 200)
        #expect(fixture.state.device(token: token)?.topic == SandboxFixture.bundleID)
    }

    @Test func subscribersSeeDeliveriesAsTheyHappen() async throws {
        let fixture = try await SandboxFixture.start()
        defer { Task { await fixture.stop() } }
        let client = try await fixture.connect()
        let token = try fixture.device(online: false)
        let (stream, continuation) = AsyncStream.makeStream(of: SandboxNotification.self)
        _ = fixture.state.subscribe(token: token) { continuation.yield($0) }
        #expect(try await send(fixture, client, to: token, body: alertPayload, authorization: try fixture.bearer()) == 200)
        try fixture.state.setOnline(token: token, true)
        var iterator = stream.makeAsyncIterator()
        let first = await iterator.next()
        #expect(first?.payload == alertPayload && first?.deliveredAt != nil)
    }
}
