extension LintRun {
    mutating func checkLiveActivity(_ aps: APS) {
        guard effectivePushType == .liveActivity else { return }
        let json = aps.json
        if json[APSKey.timestamp] == nil {
            report(.liveActivityMissingTimestamp, .warning, path: .aps(),
                   "a Live Activity push needs timestamp; without it the system cannot order updates and may drop this one",
                   fix: "add \"timestamp\": <UNIX seconds now>")
        }
        for key in [APSKey.timestamp, APSKey.staleDate, APSKey.dismissalDate] {
            if let seconds = json[key]?.doubleValue, seconds > 100_000_000_000 {
                report(.liveActivityTimestampUnit, .warning, path: .aps(key),
                       "\(key) \(json[key]!.jsonString) looks like milliseconds; Live Activity dates are UNIX seconds",
                       fix: "divide by 1000")
            }
        }
        guard let eventValue = json[APSKey.event] else {
            report(.liveActivityMissingEvent, .warning, path: .aps(),
                   "a Live Activity push needs event (start, update or end)",
                   fix: "add \"event\": \"update\"")
            return
        }
        guard let event = eventValue.stringValue.map(LiveActivityEvent.init(rawValue:)), event.isKnown else {
            report(.liveActivityEventInvalid, .warning, path: .aps(APSKey.event),
                   "event \(eventValue.jsonString) is not start, update or end",
                   fix: "use \"start\", \"update\" or \"end\"")
            return
        }
        switch event {
        case .start:
            var missing: [String] = []
            for key in [APSKey.attributesType, APSKey.attributes, APSKey.contentState] where json[key] == nil {
                missing.append(key)
            }
            if !(aps.alert?.hasVisibleContent ?? false) { missing.append("alert") }
            if !missing.isEmpty {
                report(.liveActivityStartIncomplete, .warning, path: .aps(),
                       "a start event needs \(missing.joined(separator: ", ")); without them the activity does not start",
                       fix: "add attributes-type (the ActivityAttributes type name), attributes, content-state and an alert with title and body")
            }
        case .update:
            if json[APSKey.contentState] == nil {
                report(.liveActivityMissingContentState, .warning, path: .aps(),
                       "an update event without content-state changes nothing",
                       fix: "add \"content-state\": {…} matching the activity's ContentState")
            }
        default:
            break
        }
    }
}
