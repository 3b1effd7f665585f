extension LintRun {
    mutating func checkAlert(_ aps: APS) {
        let mutable = aps.json[APSKey.mutableContent].map(Self.isTruthy) ?? false
        let alert = aps.alert
        if let alert, !alert.hasVisibleContent {
            report(.alertEmpty, .warning, path: .aps(APSKey.alert),
                   "the alert has no title, subtitle or body, so nothing is shown",
                   fix: "give at least a body, or leave alert out for a badge- or sound-only push")
        }
        if mutable, !(alert?.hasVisibleContent ?? false) {
            report(.mutableContentWithoutAlert, .warning, path: .aps(APSKey.mutableContent),
                   "mutable-content is set but the alert has no title, subtitle or body, so the service extension will not run",
                   fix: "add an alert with a title or body (the extension may rewrite it)")
        }
        guard case .content(let content) = alert else { return }
        let base = JSONPath.aps(APSKey.alert)
        for entry in content.json.effectiveEntries {
            let path = base.appending(entry.key)
            if !AlertKey.all.contains(entry.key) {
                report(.alertUnknownKey, .warning, path: path,
                       "aps.alert has a key Apple does not define, \"\(entry.key)\"; it is not shown",
                       fix: "use title, subtitle, body, launch-image or the *-loc-key / *-loc-args keys")
            } else if entry.key.hasSuffix("-args") {
                continue
            } else if entry.key != AlertKey.summaryArgCount, entry.value.stringValue == nil {
                report(.wrongType, .warning, path: path,
                       "\(entry.key) is a \(entry.value.typeName); the device expects a string and ignores it",
                       fix: "write \(entry.key) as a string")
            }
        }
        for (text, key) in [(AlertKey.title, AlertKey.titleLocKey), (AlertKey.subtitle, AlertKey.subtitleLocKey), (AlertKey.body, AlertKey.locKey)]
        where content.json[text] != nil && content.json[key] != nil {
            report(.alertTextOverridden, .info, path: base.appending(text),
                   "both \(text) and \(key) are given; the device shows the \(key) string from the app's Localizable.strings (falling back to the key itself), not \(text)",
                   fix: "keep \(text) only for systems without the app's strings (e.g. a web dashboard), or drop it")
        }
        for pair in AlertKey.localizationPairs {
            guard let arguments = content.json[pair.arguments] else { continue }
            let path = base.appending(pair.arguments)
            if let elements = arguments.arrayValue {
                for (index, element) in elements.enumerated() where element.stringValue == nil {
                    report(.locArgsInvalid, .warning, path: path.appending(index: index),
                           "\(pair.arguments) must hold strings, but element \(index) is a \(element.typeName); the device drops the arguments",
                           fix: "write it as a string: \(JSONValue.string(element.jsonString).jsonString)")
                }
            } else {
                report(.locArgsInvalid, .warning, path: path,
                       "\(pair.arguments) must be an array of strings, found a \(arguments.typeName)",
                       fix: "write \"\(pair.arguments)\": [\"…\"]")
            }
            if content.json[pair.key] == nil {
                report(.locArgsWithoutKey, .warning, path: path,
                       "\(pair.arguments) is given without \(pair.key), so the arguments fill nothing",
                       fix: "add \"\(pair.key)\" naming a format string in the app's Localizable.strings")
            }
        }
    }

    /// True for values a user means as "on": 1, "1", true.
    static func isTruthy(_ value: JSONValue) -> Bool {
        switch value {
        case .number(let number): number.doubleValue != 0
        case .string(let string): string == "1" || string.lowercased() == "true"
        case .bool(let bool): bool
        default: false
        }
    }
}
