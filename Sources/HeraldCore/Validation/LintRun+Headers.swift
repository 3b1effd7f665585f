import Foundation

extension LintRun {
    mutating func checkHeaders(_ fields: [(name: String, value: String)]) {
        headersGiven = true
        var seen: [String: String] = [:]
        for field in fields {
            // HTTP/2 field names arrive in lowercase; only others are lowered.
            let name = field.name.utf8.contains { $0 >= 0x41 && $0 <= 0x5A } ? field.name.lowercased() : field.name
            guard HeaderName.request.contains(name) else {
                if name.hasPrefix("apns-") {
                    report(.headerUnknown, .warning, header: name,
                           "APNs does not define the header \(name); it is ignored",
                           fix: "APNs request headers are \(HeaderName.request.joined(separator: ", "))")
                }
                continue
            }
            if seen[name] != nil {
                report(.duplicateHeader, .error, header: name,
                       "the header \(name) is given more than once",
                       fix: "send each APNs header once", reason: .duplicateHeaders)
                continue
            }
            seen[name] = field.value
        }

        if let value = seen[HeaderName.pushType] {
            let type = PushType(rawValue: value)
            if type.isKnown {
                pushType = type
            } else {
                report(.pushTypeInvalid, .error, header: HeaderName.pushType,
                       "'\(value)' is not a push type APNs knows",
                       fix: "use one of \(PushType.known.map(\.rawValue).joined(separator: ", "))",
                       reason: .invalidPushType)
            }
        } else {
            report(.pushTypeMissing, .warning, header: HeaderName.pushType,
                   "no apns-push-type; watchOS requires it and Apple recommends it everywhere",
                   fix: "add apns-push-type (alert for visible notifications, background for content-available only)")
        }

        if let value = seen[HeaderName.priority] {
            if let parsed = Priority(headerValue: value) {
                priority = parsed
            } else {
                report(.priorityInvalid, .error, header: HeaderName.priority,
                       "'\(value)' is not a priority APNs accepts",
                       fix: "use 10 (immediate), 5 (power-considerate) or 1 (low)", reason: .badPriority)
            }
        }

        checkTopic(seen[HeaderName.topic])

        if let value = seen[HeaderName.collapseID] {
            do {
                _ = try CollapseID(value)
            } catch {
                report(.collapseIDInvalid, .error, header: HeaderName.collapseID, error.description,
                       fix: "use a shorter identifier, e.g. a hash of the longer one", reason: .badCollapseID)
            }
        }

        if let value = seen[HeaderName.expiration] {
            if let expiration = Expiration(headerValue: value) {
                if let seconds = Int64(value), seconds > 100_000_000_000 {
                    report(.expirationUnit, .warning, header: HeaderName.expiration,
                           "apns-expiration \(value) looks like milliseconds; APNs reads it as seconds, thousands of years ahead, and stores the notification for its longest time",
                           fix: "divide by 1000: \(seconds / 1000)")
                } else if let now = options.now, expiration.hasExpired(at: now) {
                    report(.expirationPast, .warning, header: HeaderName.expiration,
                           "apns-expiration \(value) is already past; APNs will try once and not store it",
                           fix: "give a future UNIX time in seconds (not milliseconds), or 0 for deliver-now-or-never")
                }
            } else {
                report(.expirationInvalid, .error, header: HeaderName.expiration,
                       "'\(value)' is not a UNIX time in seconds",
                       fix: "give whole seconds since 1970, e.g. \(Int((options.now ?? Date()).timeIntervalSince1970) + 3600), or 0",
                       reason: .badExpirationDate)
            }
        }

        if let value = seen[HeaderName.id] {
            do {
                _ = try NotificationID(value)
            } catch {
                report(.apnsIDInvalid, .error, header: HeaderName.id, error.description,
                       fix: "leave apns-id out (APNs makes one) or send a UUID", reason: .badMessageID)
            }
        }

        if let pushType, pushType.requiresTokenAuthentication, options.authentication == .certificate {
            report(.pushTypeNeedsTokenAuth, .error, header: HeaderName.pushType,
                   "\(pushType) pushes are accepted only with token (JWT) authentication, not with a certificate",
                   fix: "send with a .p8 key, key id and team id", reason: .topicDisallowed)
        }

        // Apple's MDM protocol sends with the MDM push certificate, whose UID is the topic; Apple
        // documents no answer for a provider token, so this warns rather than naming one.
        if pushType == .mdm, options.authentication == .token {
            report(.mdmNeedsCertificate, .warning, header: HeaderName.authorization,
                   "mdm pushes are sent with the MDM push certificate (its UID is the topic), not a provider token",
                   fix: "send with the MDM push certificate (herald send --cert mdm-push.p12)")
        }

        // Background pushes and priority. Apple ("Sending background updates to your app"):
        // "Specifying [priority 10] for a notification that has a payload containing the
        // content-available key causes an error", and without apns-priority "APNs sets the
        // notification priority to 10". Apple does not say that leaving the header out is an
        // error, and the field says it is not: node-apn, gorush (sideshow/apns2) and aioapns
        // send no apns-priority unless asked, their users' background pushes are accepted
        // (node-apn issue #241, parse-community/node-apn PR #14: 200, then a device that may
        // not wake). So: priority 10 given is the documented error; no header is a warning.
        if pushType == .background, priority == .immediate {
            report(.backgroundPriority, .error, header: HeaderName.priority,
                   "background pushes must have priority 5; Apple documents priority 10 as an error for them",
                   fix: "send apns-priority: 5", reason: .badPriority)
        } else if pushType == .background, priority == nil {
            report(.backgroundPriorityDefault, .warning, header: HeaderName.priority,
                   "background push without apns-priority: APNs accepts it but uses priority 10, which Apple says background pushes must not have; the device may throttle or drop it",
                   fix: "send apns-priority: 5")
        }
    }

    private mutating func checkTopic(_ value: String?) {
        guard let value else {
            if options.authentication == .token {
                report(.topicMissing, .error, header: HeaderName.topic,
                       "apns-topic is required with token authentication",
                       fix: "send the app's bundle id\(pushType?.topicSuffix.map { " followed by \($0)" } ?? "")",
                       reason: .missingTopic)
            }
            return
        }
        topic = value
        // Printable ASCII (the usual bundle id) cannot hold whitespace; only other text is searched.
        let plainASCII = value.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
        if value.isEmpty || (!plainASCII && value.contains(where: { $0.isWhitespace })) {
            report(.topicInvalid, .error, header: HeaderName.topic,
                   "apns-topic '\(value)' is empty or contains whitespace",
                   fix: "send the bundle id, e.g. com.example.app", reason: .badTopic)
            return
        }
        guard let pushType, pushType != .mdm else { return }
        let bundleID = PushType.bundleID(strippingAnySuffixFrom: value)
        if let suffix = pushType.topicSuffix, !value.hasSuffix(suffix) {
            report(.topicSuffix, .error, header: HeaderName.topic,
                   "\(pushType) pushes go to the topic <bundle id>\(suffix), but apns-topic is '\(value)'",
                   fix: "send apns-topic: \(pushType.topic(forBundleID: bundleID))", reason: .deviceTokenNotForTopic)
        } else if pushType.topicSuffix == nil, bundleID != value {
            report(.topicSuffix, .error, header: HeaderName.topic,
                   "\(pushType) pushes go to the bare bundle id, but apns-topic '\(value)' carries another push type's suffix",
                   fix: "send apns-topic: \(bundleID)", reason: .deviceTokenNotForTopic)
        }
    }
}
