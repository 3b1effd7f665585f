/// The `aps` dictionary of a payload, as typed properties over its JSON.
///
/// A property whose JSON has the wrong type reads as `nil` (lint says why); setting a property
/// to `nil` removes the key. Keys Herald does not know are kept in ``json``.
public struct APS: Sendable, Hashable {
    /// The whole `aps` object.
    public var json: JSONObject

    public init(json: JSONObject = [:]) {
        self.json = json
    }

    /// `alert`: a plain string or a dictionary with title, subtitle, body and localization keys.
    public var alert: Alert? {
        get { json[APSKey.alert].flatMap(Alert.init(json:)) }
        set { json[APSKey.alert] = newValue?.jsonValue }
    }

    /// `badge`: the number on the app icon; `0` clears it.
    public var badge: Int? {
        get { json.int(APSKey.badge) }
        set { json.set(APSKey.badge, newValue) }
    }

    /// `sound`: a sound file name (or `"default"`), or a critical-alert sound dictionary.
    public var sound: Sound? {
        get { json[APSKey.sound].flatMap(Sound.init(json:)) }
        set { json[APSKey.sound] = newValue?.jsonValue }
    }

    /// `thread-id`: groups notifications.
    public var threadID: String? {
        get { json.string(APSKey.threadID) }
        set { json.set(APSKey.threadID, newValue) }
    }

    /// `category`: the registered category whose actions (and content extension) apply.
    public var category: String? {
        get { json.string(APSKey.category) }
        set { json.set(APSKey.category, newValue) }
    }

    /// `content-available: 1`: wakes the app in the background.
    public var contentAvailable: Bool {
        get { json.flag(APSKey.contentAvailable) }
        set { json.setFlag(APSKey.contentAvailable, newValue) }
    }

    /// `mutable-content: 1`: lets the notification service extension modify the notification.
    public var mutableContent: Bool {
        get { json.flag(APSKey.mutableContent) }
        set { json.setFlag(APSKey.mutableContent, newValue) }
    }

    /// `mutable-content` as devices read it: the number 1, or the string `"1"`. Apple specifies
    /// the number (lint warns about the string), but seeds 002 and 003 send `"1"` and see their
    /// extension run, so devices accept it *(obs.)*.
    public var mutableContentAsDevicesRead: Bool {
        mutableContent || json[APSKey.mutableContent]?.stringValue == "1"
    }

    /// Whether iOS hands this payload to the app's notification service extension:
    /// `mutable-content: 1` and an alert with a title, subtitle or body (or a localization key
    /// for one). Sound-only and badge-only pushes never reach the extension.
    public var runsServiceExtension: Bool {
        mutableContentAsDevicesRead && (alert?.hasVisibleContent ?? false)
    }

    /// `target-content-id`: the window or content to bring forward when opened.
    public var targetContentID: String? {
        get { json.string(APSKey.targetContentID) }
        set { json.set(APSKey.targetContentID, newValue) }
    }

    /// `interruption-level`: passive, active, time-sensitive or critical.
    public var interruptionLevel: InterruptionLevel? {
        get { json.string(APSKey.interruptionLevel).map(InterruptionLevel.init(rawValue:)) }
        set { json.set(APSKey.interruptionLevel, newValue?.rawValue) }
    }

    /// `relevance-score`: 0…1 for notification summaries; any number for Live Activities.
    public var relevanceScore: Double? {
        get { json.double(APSKey.relevanceScore) }
        set { json.set(APSKey.relevanceScore, newValue) }
    }

    /// `filter-criteria`: matched against the app's Focus filter.
    public var filterCriteria: String? {
        get { json.string(APSKey.filterCriteria) }
        set { json.set(APSKey.filterCriteria, newValue) }
    }

    /// Live Activity `timestamp` (UNIX seconds).
    public var timestamp: Int? {
        get { json.int(APSKey.timestamp) }
        set { json.set(APSKey.timestamp, newValue) }
    }

    /// Live Activity `event`: start, update or end.
    public var event: LiveActivityEvent? {
        get { json.string(APSKey.event).map(LiveActivityEvent.init(rawValue:)) }
        set { json.set(APSKey.event, newValue?.rawValue) }
    }

    /// Live Activity `content-state`: the activity's dynamic content, decoded by the app.
    public var contentState: JSONObject? {
        get { json.object(APSKey.contentState) }
        set { json.set(APSKey.contentState, newValue) }
    }

    /// Live Activity `stale-date` (UNIX seconds).
    public var staleDate: Int? {
        get { json.int(APSKey.staleDate) }
        set { json.set(APSKey.staleDate, newValue) }
    }

    /// Live Activity `dismissal-date` (UNIX seconds), for `end` events.
    public var dismissalDate: Int? {
        get { json.int(APSKey.dismissalDate) }
        set { json.set(APSKey.dismissalDate, newValue) }
    }

    /// Live Activity `attributes-type`: the ActivityAttributes type name, for `start` events.
    public var attributesType: String? {
        get { json.string(APSKey.attributesType) }
        set { json.set(APSKey.attributesType, newValue) }
    }

    /// Live Activity `attributes`: the static attributes, for `start` events.
    public var attributes: JSONObject? {
        get { json.object(APSKey.attributes) }
        set { json.set(APSKey.attributes, newValue) }
    }

    /// Live Activity `input-push-token: 1`: ask the started activity for its update token.
    public var inputPushToken: Bool {
        get { json.flag(APSKey.inputPushToken) }
        set { json.setFlag(APSKey.inputPushToken, newValue) }
    }

    /// Live Activity `input-push-channel`: the broadcast channel id for the started activity.
    public var inputPushChannel: String? {
        get { json.string(APSKey.inputPushChannel) }
        set { json.set(APSKey.inputPushChannel, newValue) }
    }

    /// `content-changed: true`: a widget or control should reload.
    public var contentChanged: Bool? {
        get { json[APSKey.contentChanged]?.boolValue }
        set { json[APSKey.contentChanged] = newValue.map(JSONValue.bool) }
    }

    /// Keys in `aps` that Apple does not define (they belong beside `aps`).
    public var unknownKeys: [String] {
        json.keys.filter { !APSKey.all.contains($0) }
    }
}
