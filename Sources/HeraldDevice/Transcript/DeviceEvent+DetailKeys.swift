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
        case .localRemoved: ["count"]
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
        case .dismissed: ["sent", "by", "count"]
        case .replaced: []
        case .categoriesSet: ["categories", "warning"]
        case .pushKit: ["implemented", "reported-call", "state", "misses"]
        case .appTerminated: ["reason"]
        case .pushNotDelivered: ["reason", "held"]
        case .appCode: ["call", "error", "completion", "view", "implemented", "token", "intent", "result", "delegate"]
        }
    }

    /// Detail keys whose value is a JSON object, matched as a subset by an expectation's mapping.
    public static let jsonDetailKeys: Set<String> = ["user-info"]

    /// The keys an expectation of this kind may use, event details first.
    public var expectationKeys: [String] {
        ["event", "notification", "app", "message", "count"] + detailKeys
    }
}
