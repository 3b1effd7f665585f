import Foundation
import HeraldCore

extension SimulatedDevice {
    /// Presents a delivered notification (local or remote): resolves its category and content
    /// extension, checks its interruption level, asks the delegate in the foreground, applies the
    /// user's settings, sets the badge, plays the sound and shows it.
    func present(_ delivered: DeliveredNotification, app id: String, at time: Date) async {
        guard var installed = apps[id] else { return }
        let identifier = delivered.identifier
        let content = delivered.content
        func note(_ kind: DeviceEvent.Kind, _ details: [String: String] = [:], _ message: String) {
            record(kind, at: time, app: id, notification: identifier, details: details, message)
        }
        /// A notification that is not shown is not in Notification Center either (a fired local
        /// request was put in the delivered list when it fired).
        func notShown(_ details: [String: String], _ message: String) {
            if var current = apps[id], current.center.delivered.contains(where: { $0.request.identifier == identifier }) {
                current.center.removeDelivered(identifiers: [identifier])
                apps[id] = current
            }
            note(.notPresented, details, message)
        }

        // Settings may have changed since a local request was scheduled: the switches apply to
        // local and remote notifications alike.
        guard installed.settings.isAuthorized else {
            notShown(["reason": "not-authorized"],
                     "not shown: notifications are \(installed.settings.authorization.rawValue) for this app, so neither a banner nor the badge changes")
            return
        }
        var category: NotificationCategory?
        let claiming = content.categoryIdentifier.isEmpty
            ? nil : installed.contentConfigurations.first { $0.categories.contains(content.categoryIdentifier) }
        if !content.categoryIdentifier.isEmpty {
            category = installed.center.category(content.categoryIdentifier)
            if category == nil {
                let registered = installed.center.categories.map(\.identifier)
                let nearMiss = registered.first { $0.lowercased() == content.categoryIdentifier.lowercased() }
                note(.categoryNotFound, ["category": content.categoryIdentifier],
                     "category \"\(content.categoryIdentifier)\" is not registered, so no actions are shown"
                        + (claiming.map { " and content extension \($0.extensionName) is not used (the app must register the category with setNotificationCategories)" } ?? "")
                        + (nearMiss.map { "; \"\($0)\" is registered (identifiers are case-sensitive)" }
                            ?? (registered.isEmpty ? "; the app registered no categories" : "; registered: \(registered.joined(separator: ", "))")))
            }
        }
        // iOS uses a content extension only for a category the app registered.
        let contentExtension = category == nil ? nil : claiming
        if let contentExtension {
            note(.contentExtension, ["extension": contentExtension.extensionName, "ratio": String(contentExtension.initialContentSizeRatio),
                                     "default-content-hidden": String(contentExtension.defaultContentHidden)],
                 "content extension \(contentExtension.extensionName) shows category \"\(content.categoryIdentifier)\" when expanded")
        }

        var level = content.interruptionLevel
        let entitlement = level.requiredEntitlement
        if !level.isKnown {
            note(.interruptionLevel, ["level": "active"], "interruption level \"\(level.rawValue)\" is unknown; active is used")
            level = .active
        } else if let entitlement, !installed.bundle.hasEntitlement(entitlement) {
            note(.interruptionLevel, ["level": "active", "requested": level.rawValue],
                 "\(level.rawValue) needs the \(entitlement) entitlement, which the app lacks; shown as active")
            level = .active
        } else if level == .critical, !installed.settings.criticalAlert {
            note(.interruptionLevel, ["level": "active", "requested": level.rawValue],
                 "critical alerts are not allowed for this app (requestAuthorization with .criticalAlert, and the user's yes); shown as active")
            level = .active
        }

        var options: PresentationOptions
        if installed.state == .foreground {
            guard let delegate = installed.delegate else {
                notShown(["reason": "no-delegate"],
                         "not shown: the app is in the foreground and set no UNUserNotificationCenter delegate, so iOS presents nothing")
                return
            }
            let answer = await delegate.willPresent(delivered)
            // The delegate may have used the app's notification center meanwhile.
            guard let current = apps[id] else { return }
            installed = current
            guard let chosen = answer else {
                note(.willPresent, ["implemented": "false"], "the delegate does not implement willPresent")
                notShown(["reason": "foreground"], "not shown: the app is in the foreground and willPresent is not implemented")
                return
            }
            note(.willPresent, ["options": chosen.description, "user-info": String(decoding: JSONValue.object(delivered.userInfo).serialized, as: UTF8.self)],
                 "userNotificationCenter(_:willPresent:) answered [\(chosen)]")
            options = chosen
        } else {
            options = .all
        }
        let settings = installed.settings
        var onLockScreen = locked
        if settings.authorization == .provisional {
            // Delivered quietly: Notification Center only, no banner, sound, badge or lock screen.
            options.formIntersection([.list])
            onLockScreen = false
        }
        if !settings.alert { options.subtract([.banner, .list]) }
        if !settings.notificationCenter { options.remove(.list) }
        if locked, !settings.lockScreen {
            // The lock screen shows nothing; the banner a locked device would show is the lock screen.
            options.remove(.banner)
            onLockScreen = false
        }
        if !settings.badge { options.remove(.badge) }
        let criticalSound = level == .critical && settings.criticalAlert
        if !settings.sound, !criticalSound { options.remove(.sound) }
        if level == .passive { options.subtract([.banner, .sound]) }
        if content.sound == nil { options.remove(.sound) }
        let hasText = content.hasText
        if !hasText { options.subtract([.banner, .list]) }
        if content.badge == nil { options.remove(.badge) }

        if options.contains(.badge), let badge = content.badge {
            installed.badge = max(0, badge)
            note(.badge, ["badge": String(badge)], badge == 0 ? "badge cleared" : "badge set to \(badge)")
        }
        if options.contains(.sound), let sound = content.sound {
            if sound == "default" || installed.bundle.resources.contains(sound) {
                note(.sound, ["sound": sound], "plays \(sound == "default" ? "the default sound" : sound)")
            } else {
                note(.sound, ["sound": "default", "requested": sound], "\(sound) is not in the app bundle, so the default sound plays")
            }
        }
        guard options.contains(.banner) || options.contains(.list) else {
            apps[id] = installed
            if installed.center.delivered.contains(where: { $0.request.identifier == identifier }) {
                installed.center.removeDelivered(identifiers: [identifier])
                apps[id] = installed
            }
            let why = !hasText ? " (no title, subtitle or body: a badge- or sound-only notification)"
                : settings.authorization == .provisional ? " (provisional: Notification Center only, which is off)"
                : !settings.alert ? " (alerts are off in Settings)"
                : locked && !settings.lockScreen && !settings.notificationCenter ? " (lock screen and Notification Center are off in Settings)"
                : !settings.notificationCenter && !options.contains(.banner) ? " (Notification Center is off in Settings)" : ""
            note(.notPresented, ["reason": "options", "options": options.description], "not shown: the options include neither banner nor list\(why)")
            return
        }
        if let index = shown.lastIndex(where: { $0.identifier == identifier && $0.app == id }) {
            shown.remove(at: index)
            note(.replaced, [:], "replaces the earlier notification with the same identifier")
        }
        if options.contains(.list) {
            installed.center.deliver(delivered.request, at: time)
        } else {
            installed.center.removeDelivered(identifiers: [identifier])
        }
        apps[id] = installed
        var item = ShownNotification(
            notification: delivered, app: id, appName: installed.bundle.displayName, options: options, category: category,
            contentExtension: contentExtension, onLockScreen: onLockScreen, interruptionLevel: level
        )
        item.previewsHidden = settings.previews == .never || (settings.previews == .whenUnlocked && onLockScreen)
        if options.contains(.list) {
            // Notification Center stacks an app's notifications by thread identifier.
            item.groupSize = installed.center.delivered.filter { $0.request.content.threadIdentifier == content.threadIdentifier }.count
        }
        shown.append(item)
        var details = ["options": options.description, "title": content.title, "subtitle": content.subtitle, "body": content.body,
                       "actions": item.actions.map(\.identifier).joined(separator: ","), "level": level.rawValue,
                       "attachments": content.attachments.map(\.fileURL.lastPathComponent).joined(separator: ","),
                       "lock-screen": String(onLockScreen), "previews": item.previewsHidden ? "hidden" : "shown",
                       "notification-center": String(options.contains(.list))]
        if !content.categoryIdentifier.isEmpty { details["category"] = content.categoryIdentifier }
        if !content.threadIdentifier.isEmpty { details["thread"] = content.threadIdentifier }
        if options.contains(.list) { details["group-size"] = String(item.groupSize) }
        if let communication = content.communication { details["sender"] = communication.senderName }
        let place = onLockScreen ? "on the lock screen" : options.contains(.banner) ? "as a banner"
            : settings.authorization == .provisional ? "quietly in Notification Center (provisional)" : "in the notification list"
        let hiddenActions = (category?.actions.count ?? 0) - item.actions.count
        note(.presented, details, "shown \(place) [\(options)]"
             + (item.actions.isEmpty ? "" : " with actions \(item.actions.map(\.identifier).joined(separator: ", "))")
             + (hiddenActions > 0 ? "; \(hiddenActions) more action\(hiddenActions == 1 ? " is" : "s are") not shown (iOS shows at most \(NotificationCategory.maximumShownActions))" : ""))
    }
}
