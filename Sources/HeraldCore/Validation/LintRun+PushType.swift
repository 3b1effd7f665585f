extension LintRun {
    /// Whether the payload and the push type agree.
    mutating func checkPushTypeFit(_ aps: APS) {
        let visible = [APSKey.alert, APSKey.sound, APSKey.badge].filter { aps.json[$0] != nil }
        let contentAvailable = aps.json[APSKey.contentAvailable].map(Self.isTruthy) ?? false
        let liveActivityKeys = aps.json.keys.filter { APSKey.liveActivity.contains($0) }
        let type = effectivePushType

        switch type {
        case .background:
            if !visible.isEmpty {
                report(.backgroundWithAlert, .warning, path: .aps(visible[0]),
                       "a background push must not carry \(visible.joined(separator: ", ")); iOS may drop or throttle it",
                       fix: "send the visible part as a separate alert push, or send this one as push type alert")
            }
            if !contentAvailable {
                report(.backgroundWithoutContentAvailable, .warning, path: .aps(),
                       "a background push without content-available: 1 does not wake the app",
                       fix: "add \"content-available\": 1")
            }
        case .alert:
            if visible.isEmpty && contentAvailable && pushType != nil {
                report(.silentAlertPush, .warning, header: HeaderName.pushType,
                       "the payload only has content-available (a background push) but apns-push-type is alert",
                       fix: "send apns-push-type: background with apns-priority: 5")
            } else if visible.isEmpty && !contentAvailable && aps.json[APSKey.contentChanged] == nil && liveActivityKeys.isEmpty {
                report(.notificationEmpty, .warning, path: .aps(),
                       "the notification has no alert, sound or badge and no content-available, so it shows nothing and wakes nothing",
                       fix: "add an alert (visible) or content-available: 1 (background)")
            }
            if !liveActivityKeys.isEmpty && pushType != nil {
                report(.pushTypeMismatch, .warning, path: .aps(liveActivityKeys[0]),
                       "the payload has Live Activity keys (\(liveActivityKeys.joined(separator: ", "))) but apns-push-type is alert",
                       fix: "send apns-push-type: liveactivity to <bundle id>.push-type.liveactivity")
            }
        default:
            break
        }
    }
}
