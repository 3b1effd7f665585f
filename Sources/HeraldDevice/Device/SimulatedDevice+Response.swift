import Foundation
import HeraldCore

extension SimulatedDevice {
    /// The user long-presses the notification: the content extension's view opens (or the
    /// default expanded interface when no extension shows its category).
    public func expand(_ identifier: String) async throws(DeviceError) {
        guard let index = shown.lastIndex(where: { $0.identifier == identifier }) else { throw .noSuchNotification(identifier) }
        shown[index].expanded = true
        let item = shown[index]
        if let contentExtension = item.contentExtension {
            let handler = apps[item.app]?.contentExtensionHandlers[contentExtension.extensionName]
            await handler?.didReceive(item.notification)
            var details = ["extension": contentExtension.extensionName, "expanded": "true",
                           "default-content-hidden": String(contentExtension.defaultContentHidden)]
            var message = "expanded: \(contentExtension.extensionName)'s view opens at height \(contentExtension.initialContentSizeRatio) × width"
                + (contentExtension.defaultContentHidden ? ", the default title and body hidden" : ", above the default title and body")
            // The header shows the app's name, or the view controller's title when the plist says so.
            let title = contentExtension.overridesDefaultTitle ? (await handler?.title(for: item.notification) ?? "") : item.appName
            details["title"] = title
            message += contentExtension.overridesDefaultTitle
                ? "; the header shows the view controller's title \"\(title)\" (UNNotificationExtensionOverridesDefaultTitle)"
                : "; the header shows the app's name"
            if contentExtension.userInteractionEnabled { message += "; its view takes touches (UNNotificationExtensionUserInteractionEnabled)" }
            if let index = shown.lastIndex(where: { $0.identifier == identifier }) { shown[index].expandedTitle = title }
            record(.contentExtension, app: item.app, notification: identifier, details: details, message)
        } else {
            record(.contentExtension, app: item.app, notification: identifier, details: ["expanded": "true"],
                   "expanded with the system's interface (no content extension shows this category)")
        }
    }

    /// The user taps the notification (`action: nil`, the default action) or one of its action
    /// buttons, typing `text` for a text-input action.
    public func tap(_ identifier: String, action: String? = nil, text: String? = nil) async throws(DeviceError) {
        guard let index = shown.lastIndex(where: { $0.identifier == identifier }) else { throw .noSuchNotification(identifier) }
        let item = shown[index]
        var userText: String?
        var definition: NotificationAction?
        if let action {
            guard let found = item.actions.first(where: { $0.identifier == action }) else {
                if let position = item.category?.actions.firstIndex(where: { $0.identifier == action }) {
                    throw .invalid("\"\(action)\" is action number \(position + 1) of category \(item.content.categoryIdentifier); "
                        + "iOS shows at most \(NotificationCategory.maximumShownActions), so it cannot be tapped")
                }
                let available = item.actions.map(\.identifier)
                throw .invalid("\"\(action)\" is not an action of notification \(identifier); "
                    + (available.isEmpty ? "it has no actions (its category is \(item.content.categoryIdentifier.isEmpty ? "not set" : "not registered"))"
                        : "its actions are \(available.joined(separator: ", "))"))
            }
            definition = found
            if found.textInput != nil {
                userText = text ?? ""
            } else if text != nil {
                throw .invalid("\"\(action)\" is not a text-input action; typed text cannot be sent with it")
            }
            if found.options.contains(.authenticationRequired), locked {
                record(.actionRefused, app: item.app, notification: identifier, details: ["action": action, "reason": "locked"],
                       "\(action) requires authentication: iOS asks to unlock the device first and does not perform it while locked")
                return
            }
        }
        // With user interaction enabled, a tap on the expanded custom view is the view's own: the
        // app opens only if the extension calls performNotificationDefaultAction().
        if action == nil, item.expanded, let contentExtension = item.contentExtension, contentExtension.userInteractionEnabled {
            record(.contentExtension, app: item.app, notification: identifier,
                   details: ["extension": contentExtension.extensionName, "expanded": "true", "reason": "user-interaction"],
                   "the tap goes to \(contentExtension.extensionName)'s view (UNNotificationExtensionUserInteractionEnabled); "
                    + "the app opens only when the extension calls performNotificationDefaultAction()")
            return
        }
        let actionIdentifier = action ?? NotificationAction.defaultActionIdentifier
        let response = NotificationResponse(notification: item.notification, actionIdentifier: actionIdentifier, userText: userText)

        // With a content extension the buttons belong to its expanded interface: the extension
        // hears of the action first and decides whether the app does.
        if action != nil, let contentExtension = item.contentExtension {
            if !item.expanded { try await expand(identifier) }
            let handler = apps[item.app]?.contentExtensionHandlers[contentExtension.extensionName]
            if let answer = await handler?.didReceive(response) {
                record(.contentExtensionResponse, app: item.app, notification: identifier, details: ["action": actionIdentifier, "answer": answer.rawValue],
                       "\(contentExtension.extensionName) handled \(actionIdentifier) and answered \(answer.rawValue)"
                        + (answer == .dismissAndForward ? ": the app gets the action" : ": the app is not told"))
                switch answer {
                case .doNotDismiss:
                    return
                case .dismiss:
                    removeShown(item)
                    return
                case .dismissAndForward:
                    break
                }
            } else {
                record(.contentExtensionResponse, app: item.app, notification: identifier,
                       details: ["action": actionIdentifier, "answer": ContentExtensionAnswer.dismissAndForward.rawValue, "implemented": "false"],
                       "\(contentExtension.extensionName) does not implement didReceive(_:completionHandler:), so iOS dismisses the notification and forwards \(actionIdentifier) to the app")
            }
        }
        removeShown(item)
        let launchesForeground = action == nil || definition?.options.contains(.foreground) == true
        await deliverResponse(response, app: item.app, foreground: launchesForeground)
    }

    /// The user clears the notification. The app hears of it only when the category has the
    /// `customDismissAction` option.
    public func dismiss(_ identifier: String) async throws(DeviceError) {
        guard let index = shown.lastIndex(where: { $0.identifier == identifier }) else { throw .noSuchNotification(identifier) }
        let item = shown[index]
        removeShown(item)
        guard item.category?.options.contains(.customDismissAction) == true else {
            record(.dismissed, app: item.app, notification: identifier, details: ["sent": "false"],
                   "dismissed; the app is not told (its category lacks the customDismissAction option)")
            return
        }
        record(.dismissed, app: item.app, notification: identifier, details: ["sent": "true"], "dismissed; customDismissAction sends it to the app")
        let response = NotificationResponse(notification: item.notification, actionIdentifier: NotificationAction.dismissActionIdentifier)
        await deliverResponse(response, app: item.app, foreground: false)
    }

    /// Takes a notification off the screen and out of the app's delivered list.
    private func removeShown(_ item: ShownNotification) {
        shown.removeAll { $0.identifier == item.identifier && $0.app == item.app }
        guard var installed = apps[item.app] else { return }
        installed.center.removeDelivered(identifiers: [item.identifier])
        apps[item.app] = installed
    }

    /// Launches or brings the app forward as the action asks, then calls `didReceive`.
    private func deliverResponse(_ response: NotificationResponse, app id: String, foreground: Bool) async {
        guard var installed = apps[id] else { return }
        let identifier = response.notification.identifier
        if foreground {
            if locked {
                locked = false
                record(.lockChanged, app: nil, details: ["locked": "false"], "device unlocked to open the app")
            }
            switch installed.state {
            case .notRunning:
                record(.appLaunched, app: id, notification: identifier, details: ["state": "foreground"],
                       "app launched into the foreground; its launch options carry the notification")
            case .background:
                record(.stateChanged, app: id, details: ["state": "foreground"], "app brought to the foreground")
            case .foreground:
                break
            }
            installed.state = .foreground
            installed.forceQuit = false
        } else if installed.state == .notRunning {
            installed.state = .background
            record(.appLaunched, app: id, notification: identifier, details: ["state": "background"], "app launched in the background to handle the action")
        }
        apps[id] = installed
        var details = ["action": response.actionIdentifier, "state": installed.state.rawValue,
                       "user-info": String(decoding: JSONValue.object(response.notification.userInfo).serialized, as: UTF8.self)]
        if let text = response.userText { details["text"] = text }
        guard let delegate = installed.delegate else {
            record(.didReceive, app: id, notification: identifier, details: details.merging(["implemented": "false"]) { $1 },
                   "the app set no notification delegate, so the response to \(response.actionIdentifier) is lost")
            return
        }
        guard await delegate.didReceive(response) else {
            record(.didReceive, app: id, notification: identifier, details: details.merging(["implemented": "false"]) { $1 },
                   "the notification delegate does not implement userNotificationCenter(_:didReceive:withCompletionHandler:), so the response to \(response.actionIdentifier) is lost")
            return
        }
        record(.didReceive, app: id, notification: identifier, details: details,
               "userNotificationCenter(_:didReceive:) with \(response.actionIdentifier)" + (response.userText.map { " and text \"\($0)\"" } ?? ""))
    }
}
