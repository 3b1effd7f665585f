import Foundation
import HeraldStore
import Hummingbird

extension HeraldServer {
    func saveSchedule(_ request: Request, id pathID: String?) async throws -> Response {
        let appID = try await keys.app(request)
        guard let app = try await store.app(id: appID) else { throw APIError.notFound("no app '\(appID)'") }
        let input = try await JSONBody.decode(ScheduleInput.self, from: request, limit: configuration.bodyLimit)
        let id = pathID ?? input.id ?? UUID().uuidString.lowercased()
        if let pathID, let bodyID = input.id, bodyID != pathID {
            throw APIError.badRequest("the body's id '\(bodyID)' differs from the path's '\(pathID)'")
        }
        guard !id.isEmpty, id.count <= 200, !id.contains("/") else { throw APIError.badRequest("a schedule id must be 1 to 200 characters without '/'") }
        guard input.notification.idempotencyKey == nil else {
            throw APIError.badRequest("a scheduled notification has no idempotencyKey: replacing a schedule by its id is how to avoid duplicates")
        }
        let now = configuration.clock.now
        let resolved = try input.trigger.resolved(now: now)
        let (message, _) = try input.notification.outgoing(app: app, linter: linter)
        let audience = try input.notification.audience(kind: message.kind)
        let send = ScheduledSend(request: input.notification, message: message, audience: audience, trigger: input.trigger, resolved: resolved)
        let nextCheck: Date =
            switch resolved {
            case .once(let date): date
            case .every(let seconds): now.addingTimeInterval(TimeInterval(seconds))
            case .wallClock: now
            }
        let existed = try await store.schedule(appID: appID, id: id) != nil
        let schedule = StoredSchedule(
            id: id, appID: appID, trigger: try JSONEncoder().encode(input.trigger), request: try JSONEncoder().encode(send), nextCheckAt: nextCheck,
            createdAt: now
        )
        try await store.upsertSchedule(schedule)
        return try JSONBody.response(
            ScheduleView(schedule, send: send, nextFireAt: try await nextFires(send, appID: appID)), status: existed ? .ok : .created
        )
    }

    func listSchedules(_ request: Request) async throws -> Response {
        let appID = try await keys.app(request)
        var views: [ScheduleView] = []
        for schedule in try await store.schedules(appID: appID) {
            let send = try JSONDecoder().decode(ScheduledSend.self, from: schedule.request)
            views.append(ScheduleView(schedule, send: send, nextFireAt: try await nextFires(send, appID: appID)))
        }
        return try JSONBody.response(["schedules": views])
    }

    func showSchedule(_ request: Request, id: String) async throws -> Response {
        let appID = try await keys.app(request)
        guard let schedule = try await store.schedule(appID: appID, id: id) else { throw APIError.notFound("no pending schedule '\(id)' in this app") }
        let send = try JSONDecoder().decode(ScheduledSend.self, from: schedule.request)
        return try JSONBody.response(ScheduleView(schedule, send: send, nextFireAt: try await nextFires(send, appID: appID)))
    }

    func cancelSchedule(_ request: Request, id: String) async throws -> Response {
        let appID = try await keys.app(request)
        guard try await store.deleteSchedule(appID: appID, id: id) else { throw APIError.notFound("no pending schedule '\(id)' in this app") }
        return Response(status: .noContent)
    }

    /// When a daily or weekly schedule fires next in each time zone of its audience.
    func nextFires(_ send: ScheduledSend, appID: String) async throws -> [String: Date]? {
        guard case .wallClock(let time) = send.resolved else { return nil }
        let now = configuration.clock.now
        let fallback = try await store.app(id: appID)?.defaultTimeZone.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC")!
        var fires: [String: Date] = [:]
        for name in try await store.timeZones(appID: appID, audience: send.audience) {
            let zone = name.isEmpty ? fallback : (TimeZone(identifier: name) ?? fallback)
            fires[name] = time.next(after: now, in: zone)
        }
        return fires
    }
}
