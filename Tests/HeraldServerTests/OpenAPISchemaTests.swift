import Foundation
import HeraldCore
import HeraldStore
import Testing
@testable import HeraldServer

/// The OpenAPI document's schemas against the server's own Codable types: every field a view
/// writes is documented with its type, every documented field is written (samples fill every
/// optional), and the request schemas list exactly the fields the decoders accept.
@Suite("OpenAPI schemas match the Codable types")
struct OpenAPISchemaTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    var document: [String: Any] {
        get throws {
            let text = try #require(OpenAPIDocument.json)
            return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        }
    }

    func schema(_ name: String) throws -> [String: Any] {
        let schemas = try #require((try document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        return try #require(schemas[name] as? [String: Any], "no schema \(name)")
    }

    /// What is wrong with `value` (decoded JSON) against `schema`: undocumented fields, wrong
    /// types, values outside an enum, required fields missing, documented fields not written.
    func problems(_ value: Any, _ schema: [String: Any], at path: String, exhaustive: Bool = true) throws -> [String] {
        if let reference = schema["$ref"] as? String {
            return try problems(value, try self.schema(String(reference.split(separator: "/").last!)), at: path, exhaustive: exhaustive)
        }
        var found: [String] = []
        let type = schema["type"] as? String
        switch value {
        case let object as [String: Any]:
            guard type == nil || type == "object" else { return ["\(path): an object where the schema says \(type!)"] }
            let properties = schema["properties"] as? [String: Any] ?? [:]
            let additional = schema["additionalProperties"] as? [String: Any]
            for (key, member) in object {
                if let property = properties[key] as? [String: Any] {
                    found += try problems(member, property, at: "\(path).\(key)", exhaustive: exhaustive)
                } else if let additional {
                    found += try problems(member, additional, at: "\(path).\(key)", exhaustive: exhaustive)
                } else {
                    found.append("\(path).\(key): written but not documented")
                }
            }
            for key in schema["required"] as? [String] ?? [] where object[key] == nil { found.append("\(path).\(key): required but not written") }
            if exhaustive { for key in properties.keys where object[key] == nil { found.append("\(path).\(key): documented but never written") } }
        case let array as [Any]:
            guard type == nil || type == "array" else { return ["\(path): an array where the schema says \(type!)"] }
            if let items = schema["items"] as? [String: Any] {
                for (index, item) in array.enumerated() { found += try problems(item, items, at: "\(path)[\(index)]", exhaustive: exhaustive) }
            }
        case let text as String:
            if type != nil && type != "string" { found.append("\(path): a string where the schema says \(type!)") }
            if let allowed = schema["enum"] as? [String], !allowed.contains(text) { found.append("\(path): '\(text)' is not in \(allowed)") }
        case is NSNumber:
            if let type, !["integer", "number", "boolean"].contains(type) { found.append("\(path): a number where the schema says \(type)") }
        default:
            break
        }
        return found
    }

    func encoded(_ value: some Encodable) throws -> Any {
        try JSONSerialization.jsonObject(with: try JSONBody.encoder().encode(value))
    }

    func check(_ value: some Encodable, against name: String, exhaustive: Bool = true) throws {
        let found = try problems(try encoded(value), try schema(name), at: name, exhaustive: exhaustive)
        #expect(found.isEmpty, "\(found.joined(separator: "\n"))")
    }

    var device: StoredDevice {
        StoredDevice(
            appID: "a1", token: "ab01", environment: .production, kind: .voip, userID: "u1", tags: ["t"], locale: "en", timeZone: "UTC", appVersion: "1",
            registeredAt: now, state: .unregistered, stateReason: "Unregistered", stateChangedAt: now, encryptionKey: "k"
        )
    }

    var delivery: DeliveryRecord {
        DeliveryRecord(
            id: 7, notificationID: "n1", token: "ab01", state: .queued, status: 429, reason: "TooManyRequests", apnsID: "x", attempts: 2, queuedAt: now,
            finishedAt: now, nextAttemptAt: now
        )
    }

    var notification: StoredNotification {
        var notification = StoredNotification(
            id: "n1", appID: "a1", message: Data(), audience: Audience(.everyone), idempotencyKey: "k", scheduleID: "s1", createdAt: now, audienceSize: 3
        )
        notification.cancelledAt = now
        return notification
    }

    var report: ReportView {
        var counts = DeliveryCounts()
        counts.failedByReason = ["Unregistered": 1]
        counts.retryingByReason = ["TooManyRequests": 1]
        var report = ReportView(notification: notification, counts: counts)
        report.deliveries = [DeliveryView(delivery)]
        return report
    }

    @Test("answers: devices, deliveries, reports, lists, bulk results, send results, keys")
    func answers() throws {
        try check(DeviceView(device), against: "Device")
        try check(DeliveryView(delivery), against: "Delivery")
        try check(report, against: "Report")
        try check(DevicePage(devices: [DeviceView(device)], nextCursor: "c"), against: "DevicePage")
        try check(DeliveryPage(deliveries: [DeliveryView(delivery)], nextCursor: "c"), against: "DeliveryPage")
        try check(NotificationPage(notifications: [NotificationSummary(NotificationEntry(notification: notification, status: .cancelled))], nextCursor: "c"), against: "NotificationPage")
        try check(BulkDeviceAnswer(results: [BulkDeviceResult(index: 0, token: "ab01", status: "refused", error: "why")]), against: "BulkDeviceAnswer")
        // Every field set, so that each schema's fields are all seen written.
        let diagnosticWithHeader = DiagnosticView(
            Diagnostic(code: .payloadEmpty, severity: .warning, path: "aps.alert", header: "apns-priority", line: 3, column: 7, message: "m", fix: "f"),
            variant: "en"
        )
        try check(diagnosticWithHeader, against: "Diagnostic")
        try check(
            LintView(diagnostics: [diagnosticWithHeader], errors: 1, warnings: 1, payload: "{}", pushType: "alert", priority: 10, topic: "com.a"),
            against: "LintResult"
        )
        let phone = PhoneState(
            id: "phone_1", token: "ab", bundleId: "com.a", appName: "A", environment: "development", locked: false, badge: 1,
            notifications: [PhoneNotification(
                identifier: "n", title: "t", subtitle: "s", body: "b", category: "c", attachments: 1,
                actions: [PhoneAction(id: "a", title: "A", destructive: true, textButton: "Send", textPlaceholder: "…")], svg: "<svg/>"
            )],
            transcript: ["received"]
        )
        try check(phone, against: "Phone")
        try check(PhoneList(phones: [phone]), against: "PhoneList")
        try check(SessionView(csrfToken: "t", app: "a1", admin: false, keyId: "key_1", expiresAt: now), against: "Session")
        try check(
            SendView(
                id: "n1", audienceSize: 1, duplicate: false, diagnostics: [diagnosticWithHeader], note: "n", skippedTokens: [SkippedToken(token: "ab02", why: "w")],
                report: report, results: [DeliveryView(delivery)]
            ), against: "SendResult"
        )
        try check(KeyView(StoredAPIKey(id: "key_1", appID: "a1", secretHash: "h", createdAt: now), secret: "s"), against: "Key")
    }

    @Test("apps and schedules, as the server writes them")
    func appsAndSchedules() async throws {
        let test = try await TestServer.make()
        let routes = test.server.routes
        try await test.run { _ in try self.checkAppsAndSchedules(routes: routes) }
    }

    func checkAppsAndSchedules(routes: APNsRoutes) throws {
        var app = StoredApp(id: "a1", name: "A", bundleID: "com.a", teamID: "TEAM123456", rateLimit: 10, feedbackURL: "https://example.com", createdAt: now)
        app.webhookSecret = "w"
        app.defaultTimeZone = "Asia/Shanghai"
        var view = AppView(app, routes: routes)
        view.webhookSecret = "w"
        try check(view, against: "App")
        try check(CreatedAppView(app: view, apiKey: KeyView(StoredAPIKey(id: "key_1", appID: "a1", secretHash: "h", createdAt: now), secret: "s")), against: "CreatedApp")

        let input = try JSONBody.decode(ScheduleInput.self, from: Data(#"{"trigger": {"daily": "09:00"}, "notification": {"to": {"all": true}, "message": {"title": "T", "body": "B"}}}"#.utf8))
        let schedule = StoredSchedule(id: "s1", appID: "a1", trigger: Data(), request: Data(), nextCheckAt: now, firedThrough: ["": now], fireCount: 1, createdAt: now)
        let send = ScheduledSend(request: input.notification, message: try input.notification.outgoing(app: app, linter: PayloadLinter()).0,
                                 audience: Audience(.everyone), trigger: input.trigger, resolved: try input.trigger.resolved(now: now))
        try check(ScheduleView(schedule, send: send, nextFireAt: ["": now]), against: "Schedule", exhaustive: false)
    }

    @Test("requests: each schema lists exactly the fields its decoder accepts")
    func requests() throws {
        let pairs: [(String, any KnownFields.Type)] = [
            ("DeviceInput", DeviceInput.self), ("BulkDeviceInput", BulkDeviceInput.self), ("SendRequest", SendRequest.self), ("AppInput", AppInput.self),
            ("ScheduleInput", ScheduleInput.self), ("Message", SendRequest.MessageFields.self), ("Content", SendRequest.Content.self),
            ("Credential", AppInput.CredentialInput.self), ("SessionInput", SessionInput.self), ("LintRequest", LintRequest.self),
            ("PhoneInput", PhoneInput.self), ("TapInput", TapInput.self), ("PhoneChange", PhoneChange.self),
        ]
        for (name, type) in pairs {
            let documented = Set((try schema(name)["properties"] as? [String: Any] ?? [:]).keys)
            #expect(documented == Set(type.fields.keys), "\(name): documented only \(documented.subtracting(type.fields.keys).sorted()); accepted only \(Set(type.fields.keys).subtracting(documented).sorted())")
        }
    }
}
