extension LintRun {
    mutating func checkPayload(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else {
            report(.payloadEmpty, .error, "the payload is empty",
                   fix: "send a JSON object such as {\"aps\":{\"alert\":\"Hello\"}}", reason: .payloadEmpty)
            return
        }
        let value: JSONValue
        do {
            value = try JSONParser().parse(bytes)
        } catch {
            // APNs checks the size before it reads the JSON: an oversized body is 413 whatever it holds.
            checkSize(payload: nil)
            diagnostics.append(Diagnostic(
                code: .invalidJSON, severity: .error, line: error.line, column: error.column,
                message: "the payload is not valid JSON: \(error.message)",
                fix: "correct the JSON at line \(error.line), column \(error.column); a JSON validator or `herald lint` after each edit shows the next problem",
                reason: .badPayload
            ))
            return
        }
        guard case .object(let root) = value else {
            checkSize(payload: nil)
            report(.payloadNotObject, .error, path: .root,
                   "the payload must be a JSON object, but its top level is \(value.typeName == "array" ? "an" : "a") \(value.typeName)",
                   fix: "wrap it as {\"aps\": {…}}", reason: .badPayload)
            return
        }
        let payload = Payload(json: root)
        if pushType == nil {
            inferredPushType = PushType.inferred(from: payload)
            if headersGiven {
                report(.pushTypeInferred, .info, header: HeaderName.pushType,
                       "checked as a \(effectivePushType) push, the type this payload calls for")
            }
        }
        checkSize(payload: payload)
        checkDuplicateKeys(.object(root), at: .root)

        switch effectivePushType.payloadRule {
        case .apsDictionary:
            break
        case .mdmPushMagic:
            return checkMDM(root)
        case .fileProviderContainer:
            return checkFileProvider(root)
        case .pushKitData:
            // Handed to the app's PushKit delegate as it is: aps is optional.
            if root["aps"] == nil { return }
        }

        guard let apsValue = root["aps"] else {
            if let wrapper = root.entries.first(where: { $0.value["aps"]?.objectValue != nil }) {
                report(.payloadWrapped, .error, path: JSONPath([.key(wrapper.key)]),
                       "aps is inside \"\(wrapper.key)\"; APNs expects aps at the top level, so the device sees no aps",
                       fix: "send the value of \"\(wrapper.key)\" itself as the payload (that wrapper belongs to a push tool's request format, not to APNs)",
                       reason: .badPayload)
            } else {
                report(.apsMissing, .error, path: .root,
                       "the payload has no aps dictionary; the device shows nothing and does not wake the app",
                       fix: "add \"aps\": {\"alert\": …} for a visible notification or \"aps\": {\"content-available\": 1} for a background one",
                       reason: .badPayload)
            }
            return
        }
        guard case .object = apsValue else {
            report(.apsNotObject, .error, path: .aps(),
                   "aps must be a dictionary, found a \(apsValue.typeName)",
                   fix: "write \"aps\": {\"alert\": \"…\"}", reason: .badPayload)
            return
        }
        checkAPS(payload)
    }

    /// An MDM push: `{"mdm": "<PushMagic>"}`, the PushMagic string from the device's check-in.
    mutating func checkMDM(_ root: JSONObject) {
        guard let magic = root[PushType.mdmKey]?.stringValue, !magic.isEmpty else {
            report(.mdmPushMagicMissing, .error, path: JSONPath([.key(PushType.mdmKey)]),
                   "an mdm push carries the device's PushMagic string as the value of \"mdm\"\(root[PushType.mdmKey] == nil ? ", and this payload has none" : ", and this one is not a non-empty string")",
                   fix: "send {\"mdm\": \"<PushMagic from the device's TokenUpdate check-in>\"}", reason: .badPayload)
            return
        }
        let others = root.keys.filter { $0 != PushType.mdmKey }
        if let first = others.first {
            report(.mdmExtraKeys, .warning, path: JSONPath([.key(first)]),
                   "an mdm push should hold only the PushMagic; \(others.joined(separator: ", ")) \(others.count == 1 ? "is" : "are") ignored by the device",
                   fix: "send {\"mdm\": \"\(magic)\"} alone")
        }
    }

    /// A File Provider push: `{"container-identifier": …, "domain": …}`, which tells the system
    /// which container to enumerate again.
    mutating func checkFileProvider(_ root: JSONObject) {
        if root[PushType.containerIdentifierKey]?.stringValue == nil {
            report(.fileProviderContainerMissing, .warning, path: .root,
                   "a fileprovider push names the changed container in \"container-identifier\"; without it the system does not know what to enumerate",
                   fix: "send {\"container-identifier\": \"NSFileProviderWorkingSetContainerItemIdentifier\", \"domain\": \"<domain identifier>\"}")
        }
    }

    mutating func checkSize(payload: Payload?) {
        let type = effectivePushType
        let limit = type.maximumPayloadSize
        if byteCount > limit {
            var message = "the payload is \(byteCount) bytes; APNs allows \(limit) for push type \(type)"
            if let payload {
                let compact = payload.serialized.count
                if compact < byteCount { message += " (\(compact) bytes without whitespace)" }
            }
            report(.payloadTooLarge, .error, path: .root, message,
                   fix: compactFix(payload: payload, limit: limit), reason: .payloadTooLarge)
        } else if byteCount * 10 > limit * 9 {
            report(.payloadNearLimit, .info, path: .root,
                   "the payload is \(byteCount) of \(limit) bytes allowed for push type \(type)",
                   fix: "keep room for localized text that is longer than this sample")
        }
    }

    private func compactFix(payload: Payload?, limit: Int) -> String {
        if let payload, payload.serialized.count <= limit {
            return "send it without whitespace (Herald's serializer does), or shorten the texts"
        }
        return "shorten the texts, or send an identifier and let the service extension fetch the content"
    }

    mutating func checkDuplicateKeys(_ value: JSONValue, at path: JSONPath) {
        switch value {
        case .object(let object):
            for key in object.duplicateKeys {
                report(.duplicateKey, .warning, path: path.appending(key),
                       "the key \"\(key)\" appears more than once; the device keeps only the last one",
                       fix: "keep one \"\(key)\"")
            }
            for entry in object.effectiveEntries { checkDuplicateKeys(entry.value, at: path.appending(entry.key)) }
        case .array(let elements):
            for (index, element) in elements.enumerated() { checkDuplicateKeys(element, at: path.appending(index: index)) }
        default:
            break
        }
    }
}
