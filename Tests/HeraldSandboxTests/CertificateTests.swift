import Foundation
import HeraldCore
import HeraldSandbox
import Testing

/// Certificate authentication over mutual TLS: the topics and environments come from the client
/// certificate's Apple fields, and a bad or wrong-environment certificate is refused with GOAWAY.
@Suite struct CertificateTests {
    let issuer = PushCertificateIssuer()
    let bundleID = SandboxFixture.bundleID

    @Test func certificateConnectionSendsWithoutTokenOrTopic() async throws {
        let fixture = try await SandboxFixture.start(tls: true)
        defer { Task { await fixture.stop() } }
        let client = try await fixture.connect(presenting: try issuer.issue(bundleID: bundleID))
        let token = try fixture.device()
        // No authorization header, no apns-topic: the certificate's only topic is used.
        let response = try await client.send(path: "/3/device/\(token)", headers: [("apns-push-type", "alert")], body: alertPayload)
        #expect(response.status == 200, "\(response)")
        #expect(fixture.state.received(token: token).first?.topic == bundleID)
        // All streams at once: certificate connections do not wait for a token.
        #expect(try await client.announcedMaxConcurrentStreams().last == 1000)
        await client.close()
    }

    @Test func topicsComeFromTheCertificate() async throws {
        let fixture = try await SandboxFixture.start(tls: true)
        defer { Task { await fixture.stop() } }
        let certificate = try issuer.issue(bundleID: bundleID, additionalTopics: ["\(bundleID).voip"])
        let client = try await fixture.connect(presenting: certificate)
        let voipToken = try fixture.device(topic: "\(bundleID).voip")
        let voip = try await client.send(
            path: "/3/device/\(voipToken)", headers: [("apns-push-type", "voip"), ("apns-topic", "\(bundleID).voip")], body: alertPayload
        )
        #expect(voip.status == 200, "\(voip)")
        // Two topics: the request must say which.
        let missing = try await client.send(path: "/3/device/\(try fixture.device())", headers: [("apns-push-type", "alert")], body: alertPayload)
        #expect(missing.status == 400 && missing.body.contains("MissingTopic"), "\(missing)")
        let other = try await client.send(
            path: "/3/device/\(try fixture.device(topic: "com.example.other"))",
            headers: [("apns-push-type", "alert"), ("apns-topic", "com.example.other")], body: alertPayload
        )
        #expect(other.status == 400 && other.body.contains("TopicDisallowed"), "\(other)")
        // Live Activities need token authentication.
        let live = try await client.send(
            path: "/3/device/\(try fixture.device(topic: "\(bundleID).push-type.liveactivity"))",
            headers: [("apns-push-type", "liveactivity"), ("apns-topic", "\(bundleID).push-type.liveactivity")],
            body: #"{"aps":{"timestamp":1700000000,"event":"update","content-state":{}}}"#
        )
        #expect(live.status == 400 && live.body.contains("TopicDisallowed"), "\(live)")
        await client.close()
    }

    @Test func wrongEnvironmentIsRefusedAndTheConnectionClosed() async throws {
        let fixture = try await SandboxFixture.start(tls: true)
        defer { Task { await fixture.stop() } }
        let client = try await fixture.connect(presenting: try issuer.issue(bundleID: bundleID, environments: [.production]))
        let response = try await client.send(path: "/3/device/\(try fixture.device())", headers: [("apns-push-type", "alert")], body: alertPayload)
        #expect(response.status == 403 && response.body == #"{"reason":"BadCertificateEnvironment"}"#, "\(response)")
        #expect(try await client.goAwayReason() == "BadCertificateEnvironment")
    }

    @Test func expiredOrForeignCertificateIsBad() async throws {
        let fixture = try await SandboxFixture.start(tls: true)
        defer { Task { await fixture.stop() } }
        let past = Date().addingTimeInterval(-400 * 24 * 3600)...Date().addingTimeInterval(-30 * 24 * 3600)
        let expired = try await fixture.connect(presenting: try issuer.issue(bundleID: bundleID, validity: past))
        let first = try await expired.send(path: "/3/device/\(try fixture.device())", headers: [("apns-push-type", "alert")], body: alertPayload)
        #expect(first.status == 403 && first.body == #"{"reason":"BadCertificate"}"#, "\(first)")
        // A certificate with no push fields (here: a TLS server certificate) is not an APNs certificate.
        let server = try SelfSignedCertificate.generate()
        let foreign = try await fixture.connect(presenting: .init(certificatePEM: server.certificatePEM, privateKeyPEM: server.privateKeyPEM))
        let second = try await foreign.send(path: "/3/device/\(try fixture.device())", headers: [("apns-push-type", "alert")], body: alertPayload)
        #expect(second.status == 403 && second.body == #"{"reason":"BadCertificate"}"#, "\(second)")
    }

    @Test func tokenConnectionsStillWorkBesideCertificateOnes() async throws {
        let fixture = try await SandboxFixture.start(tls: true)
        defer { Task { await fixture.stop() } }
        let client = try await fixture.connect()
        let response = try await client.send(path: "/3/device/\(try fixture.device())", headers: try fixture.headers(), body: alertPayload)
        #expect(response.status == 200)
        let missing = try await client.send(path: "/3/device/\(try fixture.device())", headers: [("apns-push-type", "alert"), ("apns-topic", bundleID)], body: alertPayload)
        #expect(missing.status == 403 && missing.body.contains("MissingProviderToken"))
    }
}
