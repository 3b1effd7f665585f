import Foundation
import HeraldCore
import Yams

/// Reads a scenario from YAML. Paths in it (app folders, payload files, attachments, SVG output)
/// are relative to the scenario file's folder.
public struct ScenarioParser {
    let reader: YAMLReader
    let baseDirectory: URL
    /// Values for `${NAME}` in the text; the process environment fills the rest.
    let variables: [String: String]

    public init(file: String, baseDirectory: URL, variables: [String: String] = [:]) {
        self.reader = YAMLReader(file: file)
        self.baseDirectory = baseDirectory
        self.variables = variables
    }

    /// Reads a scenario file; `${NAME}` is replaced by `variables[NAME]` or the environment.
    public static func load(contentsOf url: URL, variables: [String: String] = [:]) throws -> Scenario {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw ScenarioError(file: url.path, line: nil, "cannot be read: \(error.localizedDescription)")
        }
        return try ScenarioParser(file: url.path, baseDirectory: url.deletingLastPathComponent(), variables: variables).parse(text)
    }

    static let topKeys = ["name", "start", "time-zone", "languages", "low-power-mode", "locked", "network-latency", "app", "apps", "steps"]

    public func parse(_ text: String) throws(ScenarioError) -> Scenario {
        let text = try substitute(text)
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: text) else { throw reader.fail(nil, "the scenario is empty") }
            root = node
        } catch let error as ScenarioError {
            throw error
        } catch {
            throw reader.fail(nil, "is not valid YAML: \(error)")
        }
        let top = try reader.mapping(root, "the scenario")
        try reader.checkKeys(top, allowed: Self.topKeys, in: "the scenario")
        var start = Date(timeIntervalSince1970: 1_767_258_000) // 2026-01-01 09:00 UTC
        if let node = top["start"] {
            let text = try reader.string(node, "start")
            guard let date = ISO8601DateFormatter().date(from: text) else { throw reader.fail(node, "start must be an ISO 8601 time like 2026-01-01T09:00:00Z") }
            start = date
        }
        let timeZone = try top["time-zone"].map(self.timeZone) ?? TimeZone(identifier: "UTC")!
        var apps: [Scenario.App] = []
        if let node = top["app"] { apps.append(try app(node)) }
        if let node = top["apps"] {
            guard let sequence = node.sequence else { throw reader.fail(node, "apps must be a list") }
            for element in sequence { apps.append(try app(element)) }
        }
        guard !apps.isEmpty else { throw reader.fail(root, "the scenario installs no app; add app: with bundle-id: or folder:") }
        var steps: [Scenario.Step] = []
        if let node = top["steps"] {
            guard let sequence = node.sequence else { throw reader.fail(node, "steps must be a list (lines starting with -)") }
            let installed = apps.map(\.bundle.bundleIdentifier)
            for element in sequence {
                let action = try step(element)
                // A step or an expectation for an app the scenario does not install can never
                // mean what it says (an expect-not would pass for ever).
                if let app = action.appReference, !installed.contains(app) {
                    throw reader.fail(element, "app \"\(app)\" is not installed by this scenario; its apps: \(installed.joined(separator: ", "))")
                }
                steps.append(Scenario.Step(line: element.mark?.line ?? 0, action: action))
            }
        }
        var scenario = Scenario(
            name: try top["name"].map { node throws(ScenarioError) in try reader.string(node, "name") } ?? reader.file,
            start: start, timeZone: timeZone, locked: try top["locked"].map { node throws(ScenarioError) in try reader.bool(node, "locked") } ?? false,
            networkLatency: try top["network-latency"].map { node throws(ScenarioError) in try reader.seconds(node, "network-latency") } ?? 0,
            apps: apps, steps: steps
        )
        if let node = top["languages"] {
            scenario.languages = try reader.strings(node, "languages")
            guard !scenario.languages.isEmpty else { throw reader.fail(node, "languages needs at least one language, e.g. [zh-Hans, en]") }
        }
        if let node = top["low-power-mode"] { scenario.lowPowerMode = try reader.bool(node, "low-power-mode") }
        return scenario
    }

    func timeZone(_ node: Node) throws(ScenarioError) -> TimeZone {
        let name = try reader.string(node, "time-zone")
        guard let zone = TimeZone(identifier: name) else { throw reader.fail(node, "unknown time zone \"\(name)\"; use an IANA name like Asia/Shanghai") }
        return zone
    }

    /// A path from the scenario: absolute as written, else relative to the scenario's folder.
    func resolve(_ path: String) -> URL {
        path.hasPrefix("/") ? URL(fileURLWithPath: path) : baseDirectory.appendingPathComponent(path)
    }

    /// Replaces each `${NAME}`; an unknown name is an error that says which line needs it.
    func substitute(_ text: String) throws(ScenarioError) -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.range(of: "${") {
            result += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].firstIndex(of: "}") else { break }
            let name = String(rest[open.upperBound..<close])
            guard let value = variables[name] ?? ProcessInfo.processInfo.environment[name] else {
                let line = text[..<open.lowerBound].filter { $0 == "\n" }.count + 1
                throw ScenarioError(file: reader.file, line: line, "${\(name)} is not set; set the environment variable \(name)")
            }
            result += value
            rest = rest[rest.index(after: close)...]
        }
        return result + rest
    }

    // MARK: Apps

    static let appKeys = [
        "folder", "bundle-id", "name", "entitlements", "user-activity-types", "resources", "strings", "service-extension",
        "content-extensions", "categories", "state", "force-quit", "delegate", "transport-security", "pushkit",
    ] + settingsKeys

    func app(_ node: Node) throws(ScenarioError) -> Scenario.App {
        let map = try reader.mapping(node, "an app")
        try reader.checkKeys(map, allowed: Self.appKeys, in: "an app")
        var bundle: AppBundle
        if let folder = map["folder"] {
            let url = resolve(try reader.string(folder, "folder"))
            do {
                bundle = try AppBundle.load(from: url)
            } catch {
                throw reader.fail(folder, error.description)
            }
        } else if let id = map["bundle-id"] {
            bundle = AppBundle(bundleIdentifier: try reader.string(id, "bundle-id"))
        } else {
            throw reader.fail(node, "an app needs folder: (a folder with Info.plist) or bundle-id:")
        }
        if let name = map["name"] { bundle.displayName = try reader.string(name, "name") }
        if let entitlements = map["entitlements"] {
            for (key, value) in try reader.mapping(entitlements, "entitlements") {
                bundle.entitlements[try reader.string(key, "an entitlement")] = try reader.plist(value)
            }
        }
        if let types = map["user-activity-types"] {
            bundle.infoPlist["NSUserActivityTypes"] = .array(try reader.strings(types, "user-activity-types").map(PropertyListValue.string))
        }
        if let resources = map["resources"] { bundle.resources.formUnion(try reader.strings(resources, "resources")) }
        if let strings = map["strings"] {
            for (language, table) in try reader.mapping(strings, "strings") {
                var values: [String: String] = [:]
                for (key, value) in try reader.mapping(table, "a strings table") {
                    values[try reader.string(key, "a string key")] = try reader.string(value, "a string")
                }
                bundle.localizations[try reader.string(language, "a language")] = values
            }
        }
        var service: ServiceExtensionRecipe?
        if let node = map["service-extension"] { service = try serviceExtension(node) }
        if service != nil, let types = map["user-activity-types"] {
            var declared = AppExtensionBundle.serviceExtension(userActivityTypes: try reader.strings(types, "user-activity-types"))
            if let existing = bundle.serviceExtension { declared = existing }
            bundle.extensions.removeAll { $0.kind == .notificationService }
            bundle.extensions.append(declared)
        }
        if let node = map["transport-security"] {
            // The service extension's NSAppTransportSecurity, as in its Info.plist.
            guard case .dictionary = try reader.plist(node) else { throw reader.fail(node, "transport-security must be a mapping (NSAllowsArbitraryLoads, NSExceptionDomains, …)") }
            if bundle.serviceExtension == nil { bundle.extensions.append(.serviceExtension(userActivityTypes: bundle.userActivityTypes)) }
            if let index = bundle.extensions.firstIndex(where: { $0.kind == .notificationService }) {
                bundle.extensions[index].infoPlist["NSAppTransportSecurity"] = try reader.plist(node)
            }
        }
        var contentHandlers: [String: ScriptedContentExtension] = [:]
        if let node = map["content-extensions"] {
            for (key, value) in try reader.mapping(node, "content-extensions") {
                let name = try reader.string(key, "a content extension name")
                let (handler, declared) = try contentExtension(value, name: name)
                contentHandlers[name] = handler
                if let declared, !bundle.extensions.contains(where: { $0.name == name }) { bundle.extensions.append(declared) }
                guard bundle.contentExtensions.contains(where: { $0.name == name }) else {
                    let names = bundle.contentExtensions.map(\.name)
                    throw reader.fail(key, "the app has no content extension \"\(name)\" (" + (names.isEmpty ? "it ships none" : "it ships \(names.joined(separator: ", "))")
                        + "); give categories: to declare one inline")
                }
            }
        }
        var categories: [NotificationCategory] = []
        if let node = map["categories"] {
            guard let sequence = node.sequence else { throw reader.fail(node, "categories must be a list") }
            for element in sequence { categories.append(try category(element)) }
        }
        let settings = try settingsChange(map).applied(to: .granted)
        return Scenario.App(
            bundle: bundle, settings: settings, state: try map["state"].map(appState) ?? .notRunning,
            forceQuit: try map["force-quit"].map { node throws(ScenarioError) in try reader.bool(node, "force-quit") } ?? false,
            delegate: try map["delegate"].map(delegate) ?? .withoutWillPresent,
            pushKitReportsCall: try map["pushkit"].map { node throws(ScenarioError) -> Bool in
                switch try reader.string(node, "pushkit") {
                case "reports-call": return true
                case "no-call": return false
                default: throw reader.fail(node, "pushkit must be reports-call (the app reports each VoIP push to CallKit) or no-call")
                }
            },
            serviceExtension: service, contentExtensions: contentHandlers, categories: categories
        )
    }

    func appState(_ node: Node) throws(ScenarioError) -> AppRunState {
        let text = try reader.string(node, "state")
        guard let state = AppRunState(rawValue: text) else { throw reader.fail(node, "state must be foreground, background or not-running") }
        return state
    }

    func delegate(_ node: Node) throws(ScenarioError) -> Scenario.Delegate {
        if let text = node.string, text == "none" { return .none }
        let map = try reader.mapping(node, "delegate")
        try reader.checkKeys(map, allowed: ["will-present"], in: "delegate")
        guard let options = map["will-present"] else { return .withoutWillPresent }
        if options.string == "not-implemented" { return .withoutWillPresent }
        var set: PresentationOptions = []
        for name in try reader.strings(options, "will-present") {
            do {
                set.formUnion(try PresentationOptions(name: name))
            } catch {
                throw reader.fail(options, error.description)
            }
        }
        return .willPresent(set)
    }

    static let stepNames = ["rewrite-title", "set-category", "download-media", "decrypt", "communication", "wait", "register-categories", "suppress", "never-answer"]

    func serviceExtension(_ node: Node) throws(ScenarioError) -> ServiceExtensionRecipe {
        let elements: [Node] = node.sequence.map(Array.init) ?? [node]
        var steps: [ServiceExtensionRecipe.Step] = []
        var answers = true
        for element in elements {
            let name: String
            let argument: Node?
            if let text = element.string {
                (name, argument) = (text, nil)
            } else if let map = element.mapping, map.count == 1, let first = map.first {
                (name, argument) = (try reader.string(first.key, "a step name"), first.value)
            } else {
                throw reader.fail(element, "each service-extension step is a name or name: argument; steps: \(Self.stepNames.joined(separator: ", "))")
            }
            if let argument, ["rewrite-title", "download-media"].contains(name), argument.scalar == nil, argument.mapping == nil {
                throw reader.fail(argument, "\(name) takes a value or a mapping, not a list")
            }
            switch name {
            case "rewrite-title":
                if let argument, let map = argument.mapping {
                    try reader.checkKeys(map, allowed: ["title", "subtitle", "body"], in: "rewrite-title")
                    steps.append(.rewriteTitle(
                        format: try map["title"].map { node throws(ScenarioError) in try reader.string(node, "title") } ?? "%@",
                        subtitle: try map["subtitle"].map { node throws(ScenarioError) in try reader.string(node, "subtitle") },
                        body: try map["body"].map { node throws(ScenarioError) in try reader.string(node, "body") }))
                } else {
                    steps.append(.rewriteTitle(
                        format: try argument.map { node throws(ScenarioError) in try reader.string(node, "rewrite-title") } ?? "%@ [modified]",
                        subtitle: nil, body: nil))
                }
            case "set-category":
                guard let argument else { throw reader.fail(element, "set-category needs the category identifier") }
                steps.append(.setCategory(try reader.string(argument, "set-category")))
            case "download-media":
                var keyPaths = ServiceExtensionRecipe.defaultMediaKeyPaths
                var identifier = "media"
                if let argument, let map = argument.mapping {
                    try reader.checkKeys(map, allowed: ["key-paths", "identifier"], in: "download-media")
                    if let paths = map["key-paths"] { keyPaths = try reader.strings(paths, "key-paths") }
                    if let node = map["identifier"] { identifier = try reader.string(node, "identifier") }
                }
                if let argument, argument.mapping == nil { throw reader.fail(argument, "download-media takes {key-paths: [...], identifier: ...} or nothing") }
                steps.append(.downloadMedia(keyPaths: keyPaths, attachmentIdentifier: identifier))
            case "decrypt":
                guard let argument, let map = argument.mapping, let keyNode = map["key"] else {
                    throw reader.fail(element, "decrypt needs key: (the device's Curve25519 private key, base64 of 32 bytes)")
                }
                try reader.checkKeys(map, allowed: ["key"], in: "decrypt")
                let text = try reader.string(keyNode, "key")
                guard let data = Data(base64Encoded: text), data.count == 32 else {
                    throw reader.fail(keyNode, "key must be the device's Curve25519 private key: base64 of 32 bytes")
                }
                steps.append(.decrypt(privateKey: data))
            case "communication":
                if argument != nil { throw reader.fail(element, "communication takes no argument: it reads sender or sender_image_url") }
                steps.append(.communication)
            case "wait":
                guard let argument else { throw reader.fail(element, "wait needs seconds, e.g. wait: 40") }
                steps.append(.wait(seconds: try reader.seconds(argument, "wait")))
            case "register-categories":
                guard let argument, let sequence = argument.sequence else {
                    throw reader.fail(element, "register-categories needs a list of categories ({id, actions, options})")
                }
                var categories: [NotificationCategory] = []
                for node in sequence { categories.append(try category(node)) }
                steps.append(.registerCategories(categories))
            case "suppress":
                if argument != nil { throw reader.fail(element, "suppress takes no argument: it delivers empty content") }
                steps.append(.suppress)
            case "never-answer":
                if argument != nil { throw reader.fail(element, "never-answer takes no argument: the extension never calls its content handler") }
                answers = false
            default:
                throw reader.fail(element, "unknown service-extension step \"\(name)\"; steps: \(Self.stepNames.joined(separator: ", "))")
            }
        }
        return ServiceExtensionRecipe(steps: steps, answers: answers)
    }

    static let contentExtensionKeys = ["categories", "size-ratio", "default-content-hidden", "overrides-default-title", "user-interaction-enabled", "answers", "otherwise", "title"]

    /// A content extension's answers, and its declaration when the scenario gives its plist inline.
    func contentExtension(_ node: Node, name: String) throws(ScenarioError) -> (ScriptedContentExtension, AppExtensionBundle?) {
        let map = try reader.mapping(node, "a content extension")
        try reader.checkKeys(map, allowed: Self.contentExtensionKeys, in: "content extension \(name)")
        var handler = ScriptedContentExtension()
        if let answers = map["answers"] {
            for (key, value) in try reader.mapping(answers, "answers") {
                let text = try reader.string(value, "an answer")
                guard let answer = ContentExtensionAnswer(rawValue: text) else { throw reader.fail(value, "an answer is do-not-dismiss, dismiss or dismiss-and-forward") }
                handler.answers[try reader.string(key, "an action identifier")] = answer
            }
        }
        if let otherwise = map["otherwise"] {
            let text = try reader.string(otherwise, "otherwise")
            guard let answer = ContentExtensionAnswer(rawValue: text) else { throw reader.fail(otherwise, "otherwise is do-not-dismiss, dismiss or dismiss-and-forward") }
            handler.otherwise = answer
        }
        handler.title = try map["title"].map { node throws(ScenarioError) in try reader.string(node, "title") }
        guard let categories = map["categories"] else {
            // Without categories: the extension is the app folder's, whose Info.plist says the rest.
            let plistKeys = ["size-ratio", "default-content-hidden", "overrides-default-title", "user-interaction-enabled"]
            if let key = map.keys.first(where: { plistKeys.contains($0.string ?? "") }) {
                throw reader.fail(key, "\(key.string ?? "") belongs to an inline Info.plist, which needs categories:; an app folder's extension takes these from its own Info.plist")
            }
            return (handler, nil)
        }
        var attributes: [String: PropertyListValue] = [
            ContentExtensionConfiguration.categoryKey: .array(try reader.strings(categories, "categories").map(PropertyListValue.string)),
        ]
        let pairs = [("size-ratio", ContentExtensionConfiguration.sizeRatioKey), ("default-content-hidden", ContentExtensionConfiguration.defaultContentHiddenKey),
                     ("overrides-default-title", ContentExtensionConfiguration.overridesDefaultTitleKey),
                     ("user-interaction-enabled", ContentExtensionConfiguration.userInteractionEnabledKey)]
        for (key, plistKey) in pairs {
            if let value = map[key] { attributes[plistKey] = try reader.plist(value) }
        }
        let plist: [String: PropertyListValue] = ["NSExtension": .dictionary([
            "NSExtensionPointIdentifier": .string(AppExtensionBundle.Kind.contentIdentifier),
            "NSExtensionMainStoryboard": .string("MainInterface"),
            "NSExtensionAttributes": .dictionary(attributes),
        ])]
        return (handler, AppExtensionBundle(name: name, kind: .notificationContent, infoPlist: plist))
    }

    func category(_ node: Node) throws(ScenarioError) -> NotificationCategory {
        let map = try reader.mapping(node, "a category")
        try reader.checkKeys(map, allowed: ["id", "actions", "options", "intent-identifiers", "hidden-previews-body-placeholder"], in: "a category")
        guard let id = map["id"] else { throw reader.fail(node, "a category needs id:") }
        var options: NotificationCategory.Options = []
        let names: [String: NotificationCategory.Options] = ["custom-dismiss-action": .customDismissAction, "allow-in-car-play": .allowInCarPlay,
                                                            "hidden-previews-show-title": .hiddenPreviewsShowTitle, "hidden-previews-show-subtitle": .hiddenPreviewsShowSubtitle]
        for name in try map["options"].map({ node throws(ScenarioError) in try reader.strings(node, "options") }) ?? [] {
            guard let option = names[name] else { throw reader.fail(map["options"], "unknown category option \"\(name)\"; use \(names.keys.sorted().joined(separator: ", "))") }
            options.insert(option)
        }
        var actions: [NotificationAction] = []
        if let list = map["actions"] {
            guard let sequence = list.sequence else { throw reader.fail(list, "actions must be a list") }
            for element in sequence { actions.append(try action(element)) }
        }
        return NotificationCategory(
            identifier: try reader.string(id, "id"), actions: actions,
            intentIdentifiers: try map["intent-identifiers"].map { node throws(ScenarioError) in try reader.strings(node, "intent-identifiers") } ?? [],
            options: options,
            hiddenPreviewsBodyPlaceholder: try map["hidden-previews-body-placeholder"].map { node throws(ScenarioError) in
                try reader.string(node, "hidden-previews-body-placeholder")
            }
        )
    }

    func action(_ node: Node) throws(ScenarioError) -> NotificationAction {
        let map = try reader.mapping(node, "an action")
        try reader.checkKeys(map, allowed: ["id", "title", "options", "text-input"], in: "an action")
        guard let id = map["id"] else { throw reader.fail(node, "an action needs id:") }
        var options: NotificationAction.Options = []
        let names: [String: NotificationAction.Options] = ["authentication-required": .authenticationRequired, "destructive": .destructive, "foreground": .foreground]
        for name in try map["options"].map({ node throws(ScenarioError) in try reader.strings(node, "options") }) ?? [] {
            guard let option = names[name] else { throw reader.fail(map["options"], "unknown action option \"\(name)\"; use authentication-required, destructive or foreground") }
            options.insert(option)
        }
        var textInput: NotificationAction.TextInput?
        if let input = map["text-input"] {
            let inputMap = try reader.mapping(input, "text-input")
            try reader.checkKeys(inputMap, allowed: ["button", "placeholder"], in: "text-input")
            textInput = NotificationAction.TextInput(
                buttonTitle: try inputMap["button"].map { node throws(ScenarioError) in try reader.string(node, "button") } ?? "Send",
                placeholder: try inputMap["placeholder"].map { node throws(ScenarioError) in try reader.string(node, "placeholder") } ?? "")
        }
        let identifier = try reader.string(id, "id")
        return NotificationAction(
            identifier: identifier, title: try map["title"].map { node throws(ScenarioError) in try reader.string(node, "title") } ?? identifier,
            options: options, textInput: textInput
        )
    }
}
