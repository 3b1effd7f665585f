extension DeviceEvent.Kind {
    /// The detail keys events of this kind can carry: the only keys besides `event`,
    /// `notification`, `app`, `message` and `count` that a scenario's `expect` may name, so a
    /// misspelt key is an error instead of a check that can never match (or never fail).
    public var detailKeys: [String] {
        switch self {
        case .installed: ["extensions"]
        case .authorization: ["status", "alert", "sound", "badge", "lock-screen", "notification-center", "critical-alert", "previews"]
        case .registered: ["token", "environment", "push-type"]
        case .stateChanged: ["state", "force-quit", "by"]
        case .lockChanged: ["locked"]
        case .deviceChanged: ["time-zone", "languages", "low-power-mode"]
        case .received: ["bytes", "push-type", "apns-id", "collapse-id", "priority", "note"]
        case .rejectedByAPNs: ["status", "reason", "push-type"]
        case .localScheduled: ["fires", "repeats"]
        case .localRejected: ["error"]
        case .localDropped: []
        case .localRemoved: ["removed"]
        case .localFired: []
        case .extensionSkipped: ["reason"]
        case .extensionStarted: ["extension", "note"]
        case .extensionLog: ["extension"]
        case .extensionFinished: ["seconds", "suppressed"]
        case .extensionTimeWillExpire: ["result"]
        case .extensionGaveNoAnswer: ["result"]
        case .attachmentAdded: ["identifier", "file", "kind"]
        case .attachmentRejected: ["identifier", "file", "reason"]
        case .communication: ["sender"]
        case .categoryNotFound: ["category"]
        case .contentExtension: ["extension", "ratio", "default-content-hidden", "expanded", "category", "reason", "title"]
        case .plistProblem: ["severity", "extension", "key"]
        case .interruptionLevel: ["level", "requested"]
        case .presented: ["options", "title", "subtitle", "body", "actions", "level", "attachments", "lock-screen", "category", "thread", "sender",
                          "previews", "notification-center", "group-size"]
        case .notPresented: ["reason", "options"]
        case .badge: ["badge", "source"]
        case .sound: ["sound", "requested"]
        case .appWoken: ["reason", "held"]
        case .appNotWoken: ["reason"]
        case .appLaunched: ["state"]
        case .willPresent: ["implemented", "options", "user-info"]
        case .didReceive: ["action", "state", "text", "implemented", "user-info"]
        case .didReceiveRemoteNotification: ["implemented", "state", "user-info"]
        case .actionRefused: ["action", "reason"]
        case .contentExtensionResponse: ["action", "answer", "implemented"]
        case .dismissed: ["sent", "by", "removed"]
        case .replaced: []
        case .categoriesSet: ["categories", "warning"]
        case .pushKit: ["implemented", "reported-call", "state", "misses"]
        case .appTerminated: ["reason"]
        case .pushNotDelivered: ["reason", "held"]
        case .appCode: ["call", "error", "completion", "view", "implemented", "token", "intent", "result", "delegate"]
        }
    }

    /// The values an expectation may give for a detail key, when they are a closed set (a list
    /// value names several of them); `nil` for free text. A value outside the set is an error,
    /// so `lock-screen: no` or `options: [lsit]` can never be a check that passes by accident.
    public func allowedValues(for key: String) -> [String]? {
        let booleans = ["true", "false"]
        switch key {
        case "options": return ["banner", "list", "sound", "badge", "none"]
        case "level": return ["passive", "active", "time-sensitive", "critical"]
        case "requested" where self == .interruptionLevel: return ["passive", "active", "time-sensitive", "critical"]
        case "state": return AppRunState.allCases.map(\.rawValue)
        case "lock-screen", "expanded", "default-content-hidden", "sent", "implemented", "force-quit", "locked", "repeats", "reported-call",
             "held", "notification-center", "critical-alert", "low-power-mode":
            return booleans
        case "alert" where self == .authorization, "sound" where self == .authorization, "badge" where self == .authorization:
            return booleans
        case "status" where self == .authorization: return NotificationSettings.Authorization.allCases.map(\.rawValue)
        case "previews" where self == .authorization: return NotificationSettings.Previews.allCases.map(\.rawValue)
        case "previews": return ["shown", "hidden"]
        case "answer": return ContentExtensionAnswer.allCases.map(\.rawValue)
        default: return nil
        }
    }

    /// Detail keys whose list values are compared in order (the buttons' order matters).
    public static let orderedDetailKeys: Set<String> = ["actions"]

    /// Detail keys whose value is a JSON object, matched as a subset by an expectation's mapping.
    public static let jsonDetailKeys: Set<String> = ["user-info"]

    /// The keys an expectation of this kind may use, event details first.
    public var expectationKeys: [String] {
        ["event", "notification", "app", "message", "count"] + detailKeys
    }
}
