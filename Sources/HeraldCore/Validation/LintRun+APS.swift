extension LintRun {
    /// JSON types the device expects for each `aps` key it reads; a value of another type is ignored.
    static let expectedTypes: [String: Set<String>] = [
        APSKey.alert: ["string", "object"],
        APSKey.sound: ["string", "object"],
        APSKey.threadID: ["string"],
        APSKey.category: ["string"],
        APSKey.targetContentID: ["string"],
        APSKey.interruptionLevel: ["string"],
        APSKey.relevanceScore: ["number"],
        APSKey.filterCriteria: ["string"],
        APSKey.timestamp: ["number"],
        APSKey.event: ["string"],
        APSKey.contentState: ["object"],
        APSKey.staleDate: ["number"],
        APSKey.dismissalDate: ["number"],
        APSKey.attributesType: ["string"],
        APSKey.attributes: ["object"],
        APSKey.inputPushChannel: ["string"],
        APSKey.contentChanged: ["boolean"],
        APSKey.urlArgs: ["array"],
    ]

    static let flags = [APSKey.contentAvailable, APSKey.mutableContent, APSKey.inputPushToken]

    mutating func checkAPS(_ payload: Payload) {
        let aps = payload.aps
        for entry in aps.json.effectiveEntries {
            let path = JSONPath.aps(entry.key)
            if let expected = Self.expectedTypes[entry.key], !expected.contains(entry.value.typeName) {
                report(.wrongType, .warning, path: path,
                       "\(entry.key) is a \(entry.value.typeName); the device expects \(expected.sorted().joined(separator: " or ")) and ignores it",
                       fix: "write \(entry.key) as a \(expected.sorted().joined(separator: " or "))")
            } else if !APSKey.all.contains(entry.key) {
                report(.apsUnknownKey, .warning, path: path,
                       "aps has a key Apple does not define, \"\(entry.key)\"; Apple reserves aps for its own keys",
                       fix: "move \"\(entry.key)\" beside aps (the app reads it from userInfo either way)")
            }
        }
        checkFlags(aps)
        checkBadge(aps)
        checkIdentifiers(aps)
        checkAlert(aps)
        checkSound(aps)
        checkInterruptionLevel(aps)
        checkRelevanceScore(aps)
        checkPushTypeFit(aps)
        checkLiveActivity(aps)
        checkMedia(payload)
    }

    private mutating func checkFlags(_ aps: APS) {
        for key in Self.flags {
            guard let value = aps.json[key] else { continue }
            let path = JSONPath.aps(key)
            switch value {
            case .number(let number) where number.intValue == 1:
                break
            case .number(let number) where number.doubleValue == 0:
                report(.flagZero, .info, path: path, "\(key): 0 has no effect",
                       fix: "leave \(key) out, or set it to 1")
            default:
                report(.flagNotNumber, .warning, path: path,
                       "\(key) is \(value.jsonString) (a \(value.typeName)); Apple specifies the number 1 and other values may be ignored",
                       fix: "write \"\(key)\": 1")
            }
        }
    }

    private mutating func checkBadge(_ aps: APS) {
        guard let value = aps.json[APSKey.badge] else { return }
        let valid = value.numberValue.map { $0.isIntegerLiteral && ($0.intValue ?? -1) >= 0 } ?? false
        guard !valid else { return }
        report(.badgeInvalid, .warning, path: .aps(APSKey.badge),
               "badge is \(value.jsonString); it must be a non-negative integer (0 clears the badge) or the device ignores it",
               fix: "write \"badge\": \(value.stringValue.flatMap(Int.init).map { String(max($0, 0)) } ?? "1")")
    }

    private mutating func checkIdentifiers(_ aps: APS) {
        if aps.json[APSKey.category]?.stringValue?.isEmpty == true {
            report(.categoryEmpty, .warning, path: .aps(APSKey.category),
                   "category is empty, so no registered category (and none of its actions) can match",
                   fix: "give the identifier registered with setNotificationCategories, exactly (it is case-sensitive), or leave category out")
        }
        if let category = aps.category, !category.isEmpty, category.trimmingWhitespace() != category {
            report(.categoryWhitespace, .warning, path: .aps(APSKey.category),
                   "category \(JSONValue.string(category).jsonString) has leading or trailing whitespace; categories match exactly, so no registered one matches",
                   fix: "write \(JSONValue.string(category.trimmingWhitespace()).jsonString)")
        }
        if aps.json[APSKey.threadID]?.stringValue?.isEmpty == true {
            report(.threadIDEmpty, .warning, path: .aps(APSKey.threadID),
                   "thread-id is empty, so the notification is not grouped with anything",
                   fix: "give a conversation or topic identifier, or leave thread-id out")
        }
        if aps.json[APSKey.contentChanged] != nil, effectivePushType != .widgets, effectivePushType != .controls {
            report(.contentChangedPushType, .warning, path: .aps(APSKey.contentChanged),
                   "content-changed reloads widgets and controls only in a widgets or controls push, not a \(effectivePushType) push",
                   fix: "send it with apns-push-type widgets (topic <bundle id>.push-type.widgets) or controls")
        }
    }

    private mutating func checkInterruptionLevel(_ aps: APS) {
        guard let level = aps.interruptionLevel else { return }
        let path = JSONPath.aps(APSKey.interruptionLevel)
        guard level.isKnown else {
            report(.interruptionLevelInvalid, .warning, path: path,
                   "interruption-level '\(level)' is not one iOS knows; it is treated as active",
                   fix: "use passive, active, time-sensitive or critical")
            return
        }
        if level == .critical {
            if case .critical = aps.sound {} else {
                report(.criticalWithoutSoundDictionary, .warning, path: .aps(APSKey.sound),
                       "a critical notification plays its sound through mute only with the critical sound dictionary",
                       fix: "write \"sound\": {\"critical\": 1, \"name\": \"default\", \"volume\": 1.0}")
            }
            report(.entitlementRequired, .info, path: path,
                   "critical alerts need Apple's approved \(InterruptionLevel.critical.requiredEntitlement!) entitlement and the user's permission; without them the notification is shown as active")
        } else if level == .passive, aps.json[APSKey.sound] != nil {
            report(.passiveWithSound, .info, path: .aps(APSKey.sound),
                   "passive notifications arrive silently; the sound is not played",
                   fix: "drop sound, or use interruption-level active")
        } else if level == .timeSensitive {
            report(.entitlementRequired, .info, path: path,
                   "time-sensitive needs the \(InterruptionLevel.timeSensitive.requiredEntitlement!) entitlement; without it the notification is shown as active")
        }
    }

    private mutating func checkRelevanceScore(_ aps: APS) {
        guard let score = aps.relevanceScore, effectivePushType != .liveActivity else { return }
        if score < 0 || score > 1 {
            report(.relevanceScoreRange, .warning, path: .aps(APSKey.relevanceScore),
                   "relevance-score \(aps.json[APSKey.relevanceScore]!.jsonString) is outside 0…1, the range notification summaries use",
                   fix: "give a number from 0 to 1 (any number is allowed only in Live Activity pushes)")
        }
    }
}
