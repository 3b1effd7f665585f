extension LintRun {
    mutating func checkSound(_ aps: APS) {
        let path = JSONPath.aps(APSKey.sound)
        switch aps.sound {
        case .named(let name):
            if name != "default", !name.isEmpty, AttachmentKind.fileExtension(ofURL: "x:/" + name) == nil, !name.contains(".") {
                report(.soundWithoutExtension, .warning, path: path,
                       "sound '\(name)' has no file extension; iOS looks for a file of exactly this name in the app bundle and plays the default sound when it finds none",
                       fix: "give the file name with its extension, e.g. \"\(name).caf\", or \"default\"")
            }
        case .critical(let sound):
            var problems: [String] = []
            if !sound.isCritical { problems.append("critical is not 1") }
            if sound.name == nil { problems.append("name is missing") }
            if let volume = sound.json["volume"] {
                if let number = volume.doubleValue {
                    if number < 0 || number > 1 { problems.append("volume \(volume.jsonString) is outside 0…1") }
                } else {
                    problems.append("volume is a \(volume.typeName), not a number")
                }
            }
            if !problems.isEmpty {
                report(.criticalSoundInvalid, .warning, path: path,
                       "the critical sound dictionary is wrong: \(problems.joined(separator: "; "))",
                       fix: "write {\"critical\": 1, \"name\": \"default\", \"volume\": 1.0}")
            }
        case nil:
            break
        }
    }
}
