import Foundation
import HeraldCore

extension SimulatedDevice {
    /// A provider's push through APNs: APNs's checks first (HeraldCore's rules, as the sandbox
    /// applies them), then ``receive(_:app:headers:)``. A refused push is a `rejected-by-apns`
    /// event with APNs's status and reason, and the device sees nothing; returns `nil` then.
    @discardableResult
    public func send(_ payload: Payload, app id: String, headers: PushHeaders = PushHeaders()) async throws(DeviceError) -> String? {
        _ = try installed(id)
        if let refusal = APNsGate().refusal(of: payload, headers: headers, bundleID: id) {
            let reason = refusal.reason ?? .badPayload
            var details = ["reason": reason.rawValue, "status": reason.status.map(String.init) ?? "400"]
            if let pushType = headers.pushType { details["push-type"] = pushType.rawValue }
            record(.rejectedByAPNs, app: id, notification: headers.collapseID ?? headers.apnsID, details: details,
                   "APNs refuses the push (\(details["status"]!) \(reason.rawValue)): \(refusal.location): \(refusal.message)"
                    + (refusal.fix.map { "; \($0)" } ?? ""))
            return nil
        }
        return try await receive(payload, app: id, headers: headers)
    }

    /// Receives a push for an app, as iOS does: wakes the app for `content-available`, builds the
    /// content (localized), runs the service extension when its rule holds, checks attachments,
    /// then presents it. Returns the notification's identifier (the collapse id, else the apns-id,
    /// else a new UUID).
    @discardableResult
    public func receive(_ payload: Payload, app id: String, headers: PushHeaders = PushHeaders()) async throws(DeviceError) -> String {
        let installed = try installed(id)
        let identifier = headers.collapseID ?? headers.apnsID ?? UUID().uuidString
        let aps = payload.aps
        var details = ["bytes": String(payload.serialized.count)]
        if let pushType = headers.pushType { details["push-type"] = pushType.rawValue }
        if let apnsID = headers.apnsID { details["apns-id"] = apnsID }
        if let collapseID = headers.collapseID { details["collapse-id"] = collapseID }
        record(.received, app: id, notification: identifier, details: details, "push received for \(installed.bundle.displayName)")
        if headers.pushType == .voip {
            await receiveVoIP(payload, app: id, notification: identifier)
            return identifier
        }
        if let pushType = headers.pushType, let destination = Self.nonNotificationDestinations[pushType] {
            record(.notPresented, app: id, notification: identifier, details: ["reason": "push-type"],
                   "a \(pushType.rawValue) push \(destination); it is never shown as a notification")
            return identifier
        }

        let visible = aps.alert?.hasVisibleContent ?? false
        if aps.contentAvailable {
            await wake(id, userInfo: payload.json, notification: identifier, silent: !visible && aps.badge == nil && aps.sound == nil)
        }
        guard visible || aps.badge != nil || aps.sound != nil else {
            if !aps.contentAvailable {
                record(.notPresented, app: id, notification: identifier, details: ["reason": "empty"],
                       "nothing to show: no alert text, badge or sound, and no content-available")
            }
            return identifier
        }
        guard installed.settings.authorization == .authorized || installed.settings.authorization == .provisional else {
            record(.notPresented, app: id, notification: identifier, details: ["reason": "not-authorized"],
                   "not shown: notifications are \(installed.settings.authorization.rawValue) for this app (background pushes still reach it)")
            return identifier
        }
        let made = RemoteContent.make(from: payload, app: installed.bundle, languages: languages)
        for note in made.notes { record(.received, app: id, notification: identifier, details: ["note": "localization"], note) }
        var request = NotificationRequest(identifier: identifier, content: made.content, trigger: nil)
        let receivedAt = now
        var shownAt = now

        switch ServiceExtensionGate.decide(aps, alertsAllowed: installed.settings.allowsAlerts, hasExtension: installed.bundle.serviceExtension != nil) {
        case .skipped(let reason):
            if installed.bundle.serviceExtension != nil || aps.mutableContentAsDevicesRead {
                record(.extensionSkipped, app: id, notification: identifier, details: ["reason": reason], "service extension not run: \(reason)")
            }
        case .runs:
            if aps.json[APSKey.mutableContent]?.stringValue != nil {
                record(.extensionStarted, app: id, notification: identifier, details: ["note": "string-flag"],
                       "mutable-content is the string \"1\"; devices read it as 1, but Apple specifies the number")
            }
            let handler = installed.serviceExtension ?? PassThroughServiceExtension()
            let mark = transcript.count
            let (content, seconds, suppressed) = await runServiceExtension(handler, request: request, payload: payload, app: installed.bundle)
            request.content = content
            shownAt = receivedAt.addingTimeInterval(seconds)
            // One clock for the whole device: what falls due while the extension works happens
            // meanwhile, and the transcript stays in time order.
            await advance(until: shownAt)
            sortTranscript(from: mark)
            if suppressed {
                record(.notPresented, app: id, notification: identifier, details: ["reason": "filtered"],
                       "not shown: the service extension filtered it out (no banner, sound, badge or list entry)")
                return identifier
            }
        }
        request.content.attachments = validateAttachments(request.content.attachments, app: id, notification: identifier, at: shownAt)
        let delivered = DeliveredNotification(request: request, date: shownAt, source: .remote(apnsID: headers.apnsID), userInfo: payload.json)
        await present(delivered, app: id, at: shownAt)
        return identifier
    }

    /// `content-available: 1`: the app gets `didReceiveRemoteNotification` (launched in the
    /// background if it is not running, unless the user force-quit it).
    private func wake(_ id: String, userInfo: JSONObject, notification: String, silent: Bool) async {
        guard var installed = apps[id] else { return }
        if installed.state != .foreground, silent {
            // Background pushes are low priority: Low Power Mode holds them, and past the hourly
            // budget iOS throttles them; it keeps the newest for when the user opens the app.
            let hourAgo = now.addingTimeInterval(-3600)
            installed.backgroundWakes.removeAll { $0 <= hourAgo }
            let reason: String? = lowPowerMode ? "low-power-mode"
                : installed.backgroundWakes.count >= Self.backgroundPushesPerHour ? "background-budget" : nil
            if let reason {
                installed.heldBackgroundPush = (userInfo, notification)
                apps[id] = installed
                record(.pushNotDelivered, app: id, notification: notification, details: ["reason": reason, "held": "true"],
                       (reason == "low-power-mode" ? "Low Power Mode is on: the background push does not wake the app"
                        : "the app already had \(installed.backgroundWakes.count) background pushes this hour: iOS throttles this one")
                        + "; iOS keeps the newest and delivers it when the user opens the app")
                return
            }
            installed.backgroundWakes.append(now)
            apps[id] = installed
        }
        switch installed.state {
        case .foreground:
            break
        case .background:
            record(.appWoken, app: id, notification: notification, "app woken in the background (about 30 s to work)")
        case .notRunning where installed.forceQuit:
            record(.appNotWoken, app: id, notification: notification, details: ["reason": "force-quit"],
                   "app not woken: the user force-quit it, so background pushes do not launch it until the user opens it")
            return
        case .notRunning:
            installed.state = .background
            apps[id] = installed
            record(.appLaunched, app: id, notification: notification, details: ["state": "background"],
                   "app launched in the background for the push (about 30 s to work)")
        }
        await callRemoteNotificationHandler(id, userInfo: userInfo, notification: notification)
    }

    /// Where the push types that are not notifications go (Herald models none of these further).
    static let nonNotificationDestinations: [PushType: String] = [
        .liveActivity: "updates a Live Activity (ActivityKit)",
        .location: "goes to the app's Location Push Service Extension",
        .complication: "updates a watchOS complication",
        .fileProvider: "tells a File Provider extension to sync",
        .mdm: "tells the device to contact its MDM server",
        .pushToTalk: "goes to the Push to Talk framework",
        .widgets: "reloads the app's widgets",
        .controls: "reloads the app's controls",
    ]

    /// Background pushes iOS lets wake an app per hour. Apple says only "don't try to send more
    /// than two or three per hour"; three is Herald's assumption.
    public static let backgroundPushesPerHour = 3

    /// Delivers the background push iOS held back, now that the user opened the app.
    func deliverHeldBackgroundPush(_ id: String) async {
        guard var installed = apps[id], let held = installed.heldBackgroundPush else { return }
        installed.heldBackgroundPush = nil
        apps[id] = installed
        record(.appWoken, app: id, notification: held.notification, details: ["reason": "opened", "held": "true"],
               "the user opened the app: iOS delivers the newest background push it held")
        await callRemoteNotificationHandler(id, userInfo: held.userInfo, notification: held.notification)
    }

    /// `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`, recorded.
    private func callRemoteNotificationHandler(_ id: String, userInfo: JSONObject, notification: String) async {
        guard let installed = apps[id] else { return }
        guard let delegate = installed.delegate else {
            record(.didReceiveRemoteNotification, app: id, notification: notification, details: ["implemented": "false"],
                   "the app has no delegate for didReceiveRemoteNotification; the push is not handled")
            return
        }
        guard await delegate.didReceiveRemoteNotification(userInfo) else {
            record(.didReceiveRemoteNotification, app: id, notification: notification, details: ["implemented": "false"],
                   "the app delegate does not implement application(_:didReceiveRemoteNotification:fetchCompletionHandler:); the push is not handled")
            return
        }
        record(.didReceiveRemoteNotification, app: id, notification: notification,
               details: ["state": installed.state.rawValue, "user-info": String(decoding: JSONValue.object(userInfo).serialized, as: UTF8.self)],
               "application(_:didReceiveRemoteNotification:fetchCompletionHandler:) called (app \(installed.state.rawValue))")
    }

    /// Runs the extension with its 30 s; returns the content to show and the virtual seconds used.
    private func runServiceExtension(
        _ handler: any NotificationServiceExtension, request: NotificationRequest, payload: Payload, app: AppBundle
    ) async -> (NotificationContent, Double, suppressed: Bool) {
        let id = app.bundleIdentifier
        let started = now
        record(.extensionStarted, app: id, notification: request.identifier, details: ["extension": handler.name],
               "service extension \(handler.name) started with 30 s")
        let context = ServiceExtensionContext(
            request: request, payload: payload, app: app,
            temporaryDirectory: workDirectory.appendingPathComponent(UUID().uuidString.prefix(8).description),
            budget: ServiceExtensionRunner.budget, fetcher: fetcher,
            categoryRegistrar: { [weak self] categories in try? await self?.setCategories(categories, app: id) }
        )
        let outcome = await ServiceExtensionRunner(realTimeLimit: extensionRealTimeLimit).run(handler, context: context)
        for line in context.logLines {
            record(.extensionLog, at: started.addingTimeInterval(min(line.at, ServiceExtensionRunner.budget)), app: id,
                   notification: request.identifier, details: ["extension": handler.name], line.message)
        }
        let budget = ServiceExtensionRunner.budget
        switch outcome {
        case .finished(let content, let seconds):
            let message = "service extension called its content handler after \(seconds.formattedSeconds)"
            var details = ["seconds": String(format: "%.2f", seconds)]
            guard content.title.isEmpty, content.subtitle.isEmpty, content.body.isEmpty, request.content.hasText else {
                record(.extensionFinished, at: started.addingTimeInterval(seconds), app: id, notification: request.identifier, details: details, message)
                return (content, seconds, false)
            }
            // Content without alert text: a filter with Apple's entitlement hides the
            // notification; without it iOS ignores the changes.
            let entitled = app.hasEntitlement(Entitlement.notificationFiltering)
                || app.serviceExtension?.entitlements[Entitlement.notificationFiltering]?.boolValue == true
            details["suppressed"] = entitled ? "true" : "ignored"
            record(.extensionFinished, at: started.addingTimeInterval(seconds), app: id, notification: request.identifier, details: details,
                   message + (entitled
                    ? " with empty content: the filtering entitlement lets it suppress the notification"
                    : " with content that has no alert text; without the \(Entitlement.notificationFiltering) entitlement iOS ignores its changes and shows the original"))
            return (entitled ? content : request.content, seconds, entitled)
        case .bestAttempt(let content):
            record(.extensionTimeWillExpire, at: started.addingTimeInterval(budget), app: id, notification: request.identifier,
                   details: ["result": "best-attempt"], "30 s used up: serviceExtensionTimeWillExpire delivered the best attempt")
            return (content, budget, false)
        case .original:
            record(.extensionGaveNoAnswer, at: started.addingTimeInterval(budget), app: id, notification: request.identifier,
                   details: ["result": "original"], "the extension never called its content handler: the original content is shown")
            return (request.content, budget, false)
        }
    }

    /// The system's check after the extension: each attachment must be a local file with a known
    /// extension within its kind's size limit; others are dropped.
    private func validateAttachments(_ attachments: [NotificationAttachment], app: String, notification: String, at time: Date) -> [NotificationAttachment] {
        attachments.compactMap { attachment in
            do {
                let valid = try attachment.validated()
                record(.attachmentAdded, at: time, app: app, notification: notification,
                       details: ["identifier": valid.identifier, "file": valid.fileURL.lastPathComponent, "kind": valid.kind?.rawValue ?? ""],
                       "attachment \(valid.fileURL.lastPathComponent) accepted as \(valid.kind?.rawValue ?? "media")")
                return valid
            } catch {
                record(.attachmentRejected, at: time, app: app, notification: notification,
                       details: ["identifier": attachment.identifier, "file": attachment.fileURL.lastPathComponent], "attachment dropped: \(error)")
                return nil
            }
        }
    }
}
