import Foundation
import HTTPTypes
import Hummingbird

extension HeraldServer {
    /// Every route of the API. Calls under `/v1` answer 503 when the store does not answer in
    /// time (``withStoreDeadline(_:)``); operations endpoints answer from memory. `/openapi.json` describes the same list (a test keeps them in step).
    func router() -> Router<HeraldRequestContext> {
        let router = Router(context: HeraldRequestContext.self)
        let monitor = monitor
        router.add(middleware: RequestLogMiddleware(logger: configuration.logger, metrics: metrics) { monitor.noteFailure($0) })

        router.get("/health") { _, _ in try self.health() }
        router.get("/ready") { _, _ in try self.readiness() }
        router.get("/metrics") { _, _ in self.prometheus() }
        router.get("/openapi.json") { _, _ in try self.openAPI() }

        // The console: its page and assets, and the session it signs in with.
        router.get("/") { _, _ in try ConsoleAssets.response("index.html") }
        router.get("/console/:file") { _, context in try ConsoleAssets.response(context.parameters.require("file")) }
        router.post("/v1/session") { request, _ in try await self.withStoreDeadline { try await self.signIn(request) } }
        router.get("/v1/session") { request, _ in try await self.withStoreDeadline { try await self.currentSession(request) } }
        router.delete("/v1/session") { request, _ in try await self.withStoreDeadline { try await self.signOut(request) } }
        router.post("/v1/lint") { request, _ in try await self.withStoreDeadline { try await self.lint(request) } }
        // The in-process sandbox's admin API, for the console (admin key only).
        router.get("/v1/sandbox/devices") { request, _ in try await self.withStoreDeadline { try await self.sandboxCall(request, "GET", "/devices") } }
        router.get("/v1/sandbox/devices/:token") { request, context in
            try await self.withStoreDeadline { try await self.sandboxCall(request, "GET", "/devices/{token}", token: context.parameters.require("token")) }
        }
        router.delete("/v1/sandbox/devices/:token") { request, context in
            try await self.withStoreDeadline { try await self.sandboxCall(request, "DELETE", "/devices/{token}", token: context.parameters.require("token")) }
        }
        router.post("/v1/sandbox/devices/:token/online") { request, context in
            try await self.withStoreDeadline { try await self.sandboxCall(request, "POST", "/devices/{token}/online", token: context.parameters.require("token")) }
        }
        router.post("/v1/sandbox/devices/:token/offline") { request, context in
            try await self.withStoreDeadline { try await self.sandboxCall(request, "POST", "/devices/{token}/offline", token: context.parameters.require("token")) }
        }
        router.get("/v1/sandbox/devices/:token/notifications") { request, context in
            try await self.withStoreDeadline {
                try await self.sandboxCall(request, "GET", "/devices/{token}/notifications", token: context.parameters.require("token"))
            }
        }
        router.get("/v1/sandbox/faults") { request, _ in try await self.withStoreDeadline { try await self.sandboxCall(request, "GET", "/faults") } }
        router.put("/v1/sandbox/faults") { request, _ in try await self.withStoreDeadline { try await self.sandboxCall(request, "PUT", "/faults") } }
        router.delete("/v1/sandbox/faults") { request, _ in try await self.withStoreDeadline { try await self.sandboxCall(request, "DELETE", "/faults") } }
        // Simulated iPhones running the app, for the console.
        router.post("/v1/phones") { request, _ in try await self.withStoreDeadline { try await self.addPhone(request) } }
        router.get("/v1/phones") { request, _ in try await self.withStoreDeadline { try await self.listPhones(request) } }
        router.get("/v1/phones/:phone") { request, context in try await self.withStoreDeadline { try await self.showPhone(request, id: context.parameters.require("phone")) } }
        router.patch("/v1/phones/:phone") { request, context in try await self.withStoreDeadline { try await self.changePhone(request, id: context.parameters.require("phone")) } }
        router.delete("/v1/phones/:phone") { request, context in try await self.withStoreDeadline { try await self.removePhone(request, id: context.parameters.require("phone")) } }
        router.post("/v1/phones/:phone/tap") { request, context in try await self.withStoreDeadline { try await self.tapPhone(request, id: context.parameters.require("phone")) } }
        router.get("/v1/sandbox/counters") { request, _ in try await self.withStoreDeadline { try await self.sandboxCall(request, "GET", "/counters") } }

        router.post("/v1/apps") { request, _ in try await self.withStoreDeadline { try await self.createApp(request) } }
        router.get("/v1/apps") { request, _ in try await self.withStoreDeadline { try await self.listApps(request) } }
        router.get("/v1/apps/:app") { request, context in try await self.withStoreDeadline { try await self.showApp(request, id: context.parameters.require("app")) } }
        router.patch("/v1/apps/:app") { request, context in try await self.withStoreDeadline { try await self.updateApp(request, id: context.parameters.require("app")) } }
        router.delete("/v1/apps/:app") { request, context in try await self.withStoreDeadline { try await self.deleteApp(request, id: context.parameters.require("app")) } }
        router.post("/v1/admin/keys") { request, _ in try await self.withStoreDeadline { try await self.createAdminKey(request) } }
        router.get("/v1/admin/keys") { request, _ in try await self.withStoreDeadline { try await self.listAdminKeys(request) } }
        router.delete("/v1/admin/keys/:key") { request, context in
            try await self.withStoreDeadline { try await self.deleteAdminKey(request, keyID: context.parameters.require("key")) }
        }
        router.post("/v1/apps/:app/webhook-secret") { request, context in
            try await self.withStoreDeadline { try await self.rotateWebhookSecret(request, id: context.parameters.require("app")) }
        }
        router.post("/v1/apps/:app/keys") { request, context in try await self.withStoreDeadline { try await self.createKey(request, appID: context.parameters.require("app")) } }
        router.get("/v1/apps/:app/keys") { request, context in try await self.withStoreDeadline { try await self.listKeys(request, appID: context.parameters.require("app")) } }
        router.delete("/v1/apps/:app/keys/:key") { request, context in
            try await self.withStoreDeadline { try await self.deleteKey(request, appID: context.parameters.require("app"), keyID: context.parameters.require("key")) }
        }

        router.get("/v1/devices") { request, _ in try await self.withStoreDeadline { try await self.listDevices(request) } }
        router.put("/v1/devices") { request, _ in try await self.withStoreDeadline { try await self.registerDevices(request) } }
        router.put("/v1/devices/:token") { request, context in try await self.withStoreDeadline { try await self.registerDevice(request, token: context.parameters.require("token")) } }
        router.get("/v1/devices/:token") { request, context in try await self.withStoreDeadline { try await self.showDevice(request, token: context.parameters.require("token")) } }
        router.delete("/v1/devices/:token") { request, context in try await self.withStoreDeadline { try await self.unregisterDevice(request, token: context.parameters.require("token")) } }
        router.get("/v1/devices/:token/deliveries") { request, context in
            try await self.withStoreDeadline { try await self.deviceDeliveries(request, token: context.parameters.require("token")) }
        }

        // A send may wait for its outcomes (`wait=true`): it gets that long on top.
        router.post("/v1/notifications") { request, _ in
            let waits = request.uri.queryParameters["wait"] == "true"
            return try await self.withStoreDeadline(extra: waits ? self.configuration.waitTimeout : .zero) { try await self.send(request) }
        }
        router.get("/v1/notifications") { request, _ in try await self.withStoreDeadline { try await self.listNotifications(request) } }
        router.get("/v1/notifications/:id") { request, context in try await self.withStoreDeadline { try await self.report(request, id: context.parameters.require("id")) } }
        router.get("/v1/notifications/:id/deliveries") { request, context in
            try await self.withStoreDeadline { try await self.notificationDeliveries(request, id: context.parameters.require("id")) }
        }
        // Server-sent events: answers at once, then streams outside the store deadline.
        router.get("/v1/notifications/:id/events") { request, context in
            try await self.withStoreDeadline { try await self.notificationEvents(request, id: context.parameters.require("id")) }
        }
        router.post("/v1/notifications/:id/cancel") { request, context in
            try await self.withStoreDeadline { try await self.cancelNotification(request, id: context.parameters.require("id")) }
        }

        router.post("/v1/schedules") { request, _ in try await self.withStoreDeadline { try await self.saveSchedule(request, id: nil) } }
        router.get("/v1/schedules") { request, _ in try await self.withStoreDeadline { try await self.listSchedules(request) } }
        router.get("/v1/schedules/:id") { request, context in try await self.withStoreDeadline { try await self.showSchedule(request, id: context.parameters.require("id")) } }
        router.put("/v1/schedules/:id") { request, context in try await self.withStoreDeadline { try await self.saveSchedule(request, id: context.parameters.require("id")) } }
        router.delete("/v1/schedules/:id") { request, context in try await self.withStoreDeadline { try await self.cancelSchedule(request, id: context.parameters.require("id")) } }
        return router
    }
}
