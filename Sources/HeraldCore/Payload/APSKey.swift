/// The keys Apple defines inside `aps` and inside `aps.alert`, in one place for the model and lint.
public enum APSKey {
    public static let alert = "alert"
    public static let badge = "badge"
    public static let sound = "sound"
    public static let threadID = "thread-id"
    public static let category = "category"
    public static let contentAvailable = "content-available"
    public static let mutableContent = "mutable-content"
    public static let targetContentID = "target-content-id"
    public static let interruptionLevel = "interruption-level"
    public static let relevanceScore = "relevance-score"
    public static let filterCriteria = "filter-criteria"
    public static let timestamp = "timestamp"
    public static let event = "event"
    public static let contentState = "content-state"
    public static let staleDate = "stale-date"
    public static let dismissalDate = "dismissal-date"
    public static let attributesType = "attributes-type"
    public static let attributes = "attributes"
    public static let inputPushToken = "input-push-token"
    public static let inputPushChannel = "input-push-channel"
    public static let contentChanged = "content-changed"
    /// Deprecated by Apple but still honoured on older systems; known so lint does not call it unknown.
    public static let urlArgs = "url-args"

    /// Every key Apple documents inside `aps`.
    public static let all: Set<String> = [
        alert, badge, sound, threadID, category, contentAvailable, mutableContent, targetContentID,
        interruptionLevel, relevanceScore, filterCriteria, timestamp, event, contentState, staleDate,
        dismissalDate, attributesType, attributes, inputPushToken, inputPushChannel, contentChanged, urlArgs,
    ]

    /// Keys that only make sense in a Live Activity push.
    public static let liveActivity: Set<String> = [
        timestamp, event, contentState, staleDate, dismissalDate, attributesType, attributes,
        inputPushToken, inputPushChannel,
    ]
}

/// The keys Apple defines inside an `aps.alert` dictionary.
public enum AlertKey {
    public static let title = "title"
    public static let subtitle = "subtitle"
    public static let body = "body"
    public static let launchImage = "launch-image"
    public static let titleLocKey = "title-loc-key"
    public static let titleLocArgs = "title-loc-args"
    public static let subtitleLocKey = "subtitle-loc-key"
    public static let subtitleLocArgs = "subtitle-loc-args"
    public static let locKey = "loc-key"
    public static let locArgs = "loc-args"
    /// Deprecated keys still accepted by APNs.
    public static let actionLocKey = "action-loc-key"
    public static let action = "action"
    public static let summaryArg = "summary-arg"
    public static let summaryArgCount = "summary-arg-count"

    /// Every key Apple documents inside `aps.alert`.
    public static let all: Set<String> = [
        title, subtitle, body, launchImage, titleLocKey, titleLocArgs, subtitleLocKey, subtitleLocArgs,
        locKey, locArgs, actionLocKey, action, summaryArg, summaryArgCount,
    ]

    /// Pairs of a localization key and its arguments.
    public static let localizationPairs: [(key: String, arguments: String)] = [
        (titleLocKey, titleLocArgs), (subtitleLocKey, subtitleLocArgs), (locKey, locArgs),
    ]
}
