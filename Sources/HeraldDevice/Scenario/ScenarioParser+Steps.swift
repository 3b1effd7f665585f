import Foundation
import HeraldCore
import Yams

extension ScenarioParser {
    static let stepKinds = [
        "push", "push-file", "local", "cancel", "advance", "state", "lock", "unlock", "settings", "expand", "tap", "dismiss",
        "render", "expect", "expect-not", "expect-badge", "register", "online", "offline", "receive",
        "later", "time-zone", "languages", "low-power-mode", "remove-delivered", "remove-all-delivered", "remove-all-pending", "set-badge", "expect-pending", "expect-delivered",
    ]
    /// Keys that may sit beside a step's own key, per step; any other key is an error.
    static func stepModifiers(_ kind: String) -> [String] {
        switch kind {
        case "push", "push-file": ["app", "apns-id", "collapse-id", "push-type", "priority"]
        case "state": ["app", "force-quit"]
        case "later": ["app"]
        case "local", "cancel", "settings", "expect-badge", "register", "online", "offline", "remove-delivered", "remove-all-delivered",
             "remove-all-pending", "set-badge", "expect-pending", "expect-delivered": ["app"]
        default: []
        }
    }

    func step(_ node: Node) throws(ScenarioError) -> Scenario.Action {
        let map = try reader.mapping(node, "a step")
        guard let kindKey = map.keys.first(where: { Self.stepKinds.contains($0.string ?? "") }), let kind = kindKey.string else {
            throw reader.fail(node, "a step starts with one of: \(Self.stepKinds.joined(separator: ", "))")
        }
        try reader.checkKeys(map, allowed: [kind] + Self.stepModifiers(kind), in: "the \(kind) step")
        let value = map[kind]!
        func modifier(_ key: String) throws(ScenarioError) -> String? {
            try map[key].map { node throws(ScenarioError) in try reader.string(node, key) }
        }
        let app = try modifier("app")
        switch kind {
        case "push", "push-file":
            let payload: Payload
            if kind == "push-file" {
                let path = try reader.string(value, "push-file")
                let url = resolve(path)
                guard let data = FileManager.default.contents(atPath: url.path) else { throw reader.fail(value, "cannot read the payload file \(url.path)") }
                do {
                    payload = try Payload(decoding: Array(data))
                } catch {
                    throw reader.fail(value, "\(path) is not a payload: \(error)")
                }
            } else if let text = value.string, value.scalar != nil {
                do {
                    payload = try Payload(decoding: text)
                } catch {
                    throw reader.fail(value, "push is not a JSON payload: \(error)")
                }
            } else {
                guard case .object(let object) = try reader.json(value) else { throw reader.fail(value, "push must be a payload mapping or JSON text") }
                payload = Payload(json: object)
            }
            let headers = PushHeaders(
                apnsID: try modifier("apns-id"), collapseID: try modifier("collapse-id"),
                pushType: try modifier("push-type").map(PushType.init(rawValue:)),
                priority: try map["priority"].map { node throws(ScenarioError) in try reader.int(node, "priority") })
            return .push(payload, headers, app: app)
        case "local":
            return .local(try localRequest(value), app: app)
        case "cancel":
            return .cancel(try reader.strings(value, "cancel"), app: app)
        case "advance":
            return .advance(try reader.seconds(value, "advance"))
        case "state":
            return .state(try appState(value), forceQuit: try map["force-quit"].map { node throws(ScenarioError) in try reader.bool(node, "force-quit") } ?? false, app: app)
        case "lock":
            return .lock(try reader.bool(value, "lock"))
        case "unlock":
            return .lock(!(try reader.bool(value, "unlock")))
        case "settings":
            let settingsMap = try reader.mapping(value, "settings")
            try reader.checkKeys(settingsMap, allowed: Self.settingsKeys, in: "settings")
            return .settings(try settingsChange(settingsMap), app: app)
        case "expand":
            return .expand(try reader.string(value, "expand"))
        case "dismiss":
            return .dismiss(try reader.string(value, "dismiss"))
        case "tap":
            if value.scalar != nil { return .tap(try reader.string(value, "tap"), action: nil, text: nil) }
            let tapMap = try reader.mapping(value, "tap")
            try reader.checkKeys(tapMap, allowed: ["notification", "action", "text"], in: "tap")
            return .tap(try tapMap["notification"].map { node throws(ScenarioError) in try reader.string(node, "notification") } ?? "last",
                        action: try tapMap["action"].map { node throws(ScenarioError) in try reader.string(node, "action") },
                        text: try tapMap["text"].map { node throws(ScenarioError) in try reader.string(node, "text") })
        case "render":
            if value.scalar != nil { return .render(try reader.string(value, "render"), svgPath: nil, pngPath: nil) }
            let renderMap = try reader.mapping(value, "render")
            try reader.checkKeys(renderMap, allowed: ["notification", "svg", "png"], in: "render")
            func path(_ key: String) throws(ScenarioError) -> String? {
                try renderMap[key].map { node throws(ScenarioError) in resolve(try reader.string(node, key)).path }
            }
            return .render(try renderMap["notification"].map { node throws(ScenarioError) in try reader.string(node, "notification") } ?? "last",
                           svgPath: try path("svg"), pngPath: try path("png"))
        case "expect", "expect-not":
            let expectation = try expectation(value)
            return kind == "expect" ? .expect(expectation) : .expectNot(expectation)
        case "expect-badge":
            return .expectBadge(try reader.int(value, "expect-badge"), app: app)
        case "register":
            let registerMap = try reader.mapping(value, "register")
            try reader.checkKeys(registerMap, allowed: ["sandbox", "environment", "server"], in: "register")
            guard let sandbox = registerMap["sandbox"], let url = URL(string: try reader.string(sandbox, "sandbox")) else {
                throw reader.fail(value, "register needs sandbox: http://127.0.0.1:2198 (the sandbox's admin API)")
            }
            let server = try registerMap["server"].map { node throws(ScenarioError) in URL(string: try reader.string(node, "server")) } ?? nil
            return .register(sandbox: url, environment: try registerMap["environment"].map { node throws(ScenarioError) in try reader.string(node, "environment") } ?? "development",
                             serverURL: server, app: app)
        case "online", "offline":
            let flag = try reader.bool(value, kind)
            return .online(kind == "online" ? flag : !flag, app: app)
        case "receive":
            if value.scalar != nil { return .receive(count: try reader.int(value, "receive", in: 1...100_000), timeout: 10) }
            let receiveMap = try reader.mapping(value, "receive")
            try reader.checkKeys(receiveMap, allowed: ["count", "timeout"], in: "receive")
            let timeout = try receiveMap["timeout"].map { node throws(ScenarioError) in try reader.seconds(node, "timeout") } ?? 10
            guard timeout <= 3600 else { throw reader.fail(receiveMap["timeout"], "receive's timeout is real time: at most 3600 seconds") }
            return .receive(count: try receiveMap["count"].map { node throws(ScenarioError) in try reader.int(node, "count", in: 1...100_000) } ?? 1,
                            timeout: timeout)
        case "later":
            let laterMap = try reader.mapping(value, "later")
            try reader.checkKeys(laterMap, allowed: ["after", "state", "lock", "app"], in: "later")
            guard let after = laterMap["after"] else { throw reader.fail(value, "later needs after: (seconds from now, e.g. 5 or 5s)") }
            let seconds = try reader.seconds(after, "after")
            let target = try laterMap["app"].map { node throws(ScenarioError) in try reader.string(node, "app") } ?? app
            switch (laterMap["state"], laterMap["lock"]) {
            case (let state?, nil): return .laterState(try appState(state), app: target, after: seconds)
            case (nil, let lock?): return .laterLock(try reader.bool(lock, "lock"), after: seconds)
            default: throw reader.fail(value, "later takes one change: state: (foreground, background, not-running) or lock: (true, false)")
            }
        case "time-zone":
            return .timeZone(try timeZone(value))
        case "languages":
            let languages = try reader.strings(value, "languages")
            guard !languages.isEmpty else { throw reader.fail(value, "languages needs at least one language, e.g. [zh-Hans, en]") }
            return .languages(languages)
        case "low-power-mode":
            return .lowPowerMode(try reader.bool(value, "low-power-mode"))
        case "remove-delivered":
            return .removeDelivered(try reader.strings(value, "remove-delivered"), app: app)
        case "remove-all-delivered":
            guard try reader.bool(value, kind) else { throw reader.fail(value, "\(kind) takes true") }
            return .removeDelivered(nil, app: app)
        case "remove-all-pending":
            guard try reader.bool(value, kind) else { throw reader.fail(value, "\(kind) takes true") }
            return .removeAllPending(app: app)
        case "set-badge":
            return .setBadge(try reader.int(value, "set-badge", in: 0...Int(Int32.max)), app: app)
        case "expect-pending", "expect-delivered":
            let identifiers = value.sequence?.isEmpty == true ? [] : try reader.strings(value, kind)
            return kind == "expect-pending" ? .expectPending(identifiers, app: app) : .expectDelivered(identifiers, app: app)
        default:
            throw reader.fail(node, "unknown step \(kind)")
        }
    }

    /// The Settings switches, at an app's top level and in a `settings` step.
    static let settingsKeys = ["authorization", "alert", "sound", "badge", "lock-screen", "notification-center", "critical-alert", "previews"]

    func settingsChange(_ map: Node.Mapping) throws(ScenarioError) -> Scenario.SettingsChange {
        var change = Scenario.SettingsChange()
        if let node = map["authorization"] {
            let text = try reader.string(node, "authorization")
            guard let status = text == "granted" ? .authorized : NotificationSettings.Authorization(rawValue: text) else {
                throw reader.fail(node, "authorization must be granted, authorized, denied, provisional or not-determined")
            }
            change.authorization = status
        }
        func flag(_ key: String) throws(ScenarioError) -> Bool? { try map[key].map { node throws(ScenarioError) in try reader.bool(node, key) } }
        change.alert = try flag("alert")
        change.sound = try flag("sound")
        change.badge = try flag("badge")
        change.lockScreen = try flag("lock-screen")
        change.notificationCenter = try flag("notification-center")
        change.criticalAlert = try flag("critical-alert")
        if let node = map["previews"] {
            let text = try reader.string(node, "previews")
            guard let previews = NotificationSettings.Previews(rawValue: text) else {
                throw reader.fail(node, "previews must be \(NotificationSettings.Previews.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            change.previews = previews
        }
        return change
    }

    func expectation(_ node: Node) throws(ScenarioError) -> Scenario.Expectation {
        let map = try reader.mapping(node, "an expectation")
        guard let eventNode = map["event"] else { throw reader.fail(node, "an expectation needs event: (one of \(DeviceEvent.Kind.allCases.map(\.rawValue).joined(separator: ", ")))") }
        let name = try reader.string(eventNode, "event")
        guard let kind = DeviceEvent.Kind(rawValue: name) else {
            throw reader.fail(eventNode, "unknown event \"\(name)\"; events: \(DeviceEvent.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        try reader.checkKeys(map, allowed: kind.expectationKeys, in: "an expectation of \(kind.rawValue)")
        var expectation = Scenario.Expectation(kind: kind, notification: nil, app: nil, details: [:], messageContains: nil, count: nil)
        for (key, value) in map {
            let name = try reader.string(key, "a key")
            switch name {
            case "event": continue
            case "notification": expectation.notification = try reader.string(value, name)
            case "app": expectation.app = try reader.string(value, name)
            case "message": expectation.messageContains = try reader.string(value, name)
            case "count": expectation.count = try reader.int(value, name)
            case _ where DeviceEvent.Kind.jsonDetailKeys.contains(name):
                guard case .object(let object) = try reader.json(value) else { throw reader.fail(value, "\(name) must be a mapping; it matches the keys it names") }
                expectation.jsonDetails[name] = object
            default:
                let values = try reader.strings(value, name)
                if let allowed = kind.allowedValues(for: name), let wrong = values.first(where: { !allowed.contains($0) }) {
                    throw reader.fail(value, "\(name) cannot be \"\(wrong)\"; it is one of \(allowed.joined(separator: ", "))")
                }
                expectation.details[name] = value.sequence != nil ? values.joined(separator: ",") : try reader.string(value, name)
            }
        }
        return expectation
    }

    func localRequest(_ node: Node) throws(ScenarioError) -> NotificationRequest {
        let map = try reader.mapping(node, "local")
        try reader.checkKeys(map, allowed: ["id", "title", "subtitle", "body", "badge", "sound", "user-info", "attachments", "category", "thread",
                                           "launch-image", "interruption-level", "after", "repeats", "at"], in: "local")
        guard let id = map["id"] else { throw reader.fail(node, "a local notification needs id:") }
        func text(_ key: String) throws(ScenarioError) -> String { try map[key].map { node throws(ScenarioError) in try reader.string(node, key) } ?? "" }
        var content = NotificationContent(title: try text("title"), subtitle: try text("subtitle"), body: try text("body"))
        content.badge = try map["badge"].map { node throws(ScenarioError) in try reader.int(node, "badge") }
        content.sound = try map["sound"].map { node throws(ScenarioError) in try reader.string(node, "sound") }
        content.categoryIdentifier = try text("category")
        content.threadIdentifier = try text("thread")
        content.launchImageName = try text("launch-image")
        if let level = map["interruption-level"] { content.interruptionLevel = InterruptionLevel(rawValue: try reader.string(level, "interruption-level")) }
        if let info = map["user-info"] {
            guard case .object(let object) = try reader.json(info) else { throw reader.fail(info, "user-info must be a mapping") }
            content.userInfo = object
        }
        if let attachments = map["attachments"] {
            guard let sequence = attachments.sequence else { throw reader.fail(attachments, "attachments must be a list of {id, file}") }
            for element in sequence {
                let attachment = try reader.mapping(element, "an attachment")
                try reader.checkKeys(attachment, allowed: ["id", "file"], in: "an attachment")
                guard let file = attachment["file"] else { throw reader.fail(element, "an attachment needs file:") }
                let url = resolve(try reader.string(file, "file"))
                // Checked when the step adds the request, as iOS does: a bad file is an error
                // the app gets from add(_:), not a broken scenario.
                content.attachments.append(NotificationAttachment(
                    unvalidatedIdentifier: try attachment["id"].map { node throws(ScenarioError) in try reader.string(node, "id") } ?? url.lastPathComponent, fileURL: url))
            }
        }
        let repeats = try map["repeats"].map { node throws(ScenarioError) in try reader.bool(node, "repeats") } ?? false
        if map["after"] != nil, map["at"] != nil { throw reader.fail(node, "a local notification has one trigger: after: (seconds) or at: (date parts), not both") }
        if repeats, map["after"] == nil, map["at"] == nil { throw reader.fail(map["repeats"], "repeats needs a trigger: after: or at:") }
        var trigger: NotificationTrigger?
        if let after = map["after"] {
            trigger = .timeInterval(seconds: try reader.seconds(after, "after"), repeats: repeats)
        } else if let at = map["at"] {
            let atMap = try reader.mapping(at, "at")
            try reader.checkKeys(atMap, allowed: ["year", "month", "day", "hour", "minute", "second", "weekday"], in: "at")
            func part(_ key: String) throws(ScenarioError) -> Int? { try atMap[key].map { node throws(ScenarioError) in try reader.int(node, key) } }
            trigger = .calendar(DateComponents(year: try part("year"), month: try part("month"), day: try part("day"), hour: try part("hour"),
                                               minute: try part("minute"), second: try part("second"), weekday: try part("weekday")), repeats: repeats)
        }
        return NotificationRequest(identifier: try reader.string(id, "id"), content: content, trigger: trigger)
    }
}
