import ArgumentParser
import Foundation
import HeraldCore
import HeraldDevice
import HeraldShippedExtensions

/// `herald device explain PAYLOAD.json [--app FOLDER]`: what an iPhone does with a payload, and why.
struct DeviceExplainCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explain",
        abstract: "Say step by step what an iPhone would do with a payload, and why.",
        discussion: """
            Without --app, the app is assumed to ship a notification service extension that changes \
            nothing and to have registered the payload's category. Downloads named in the payload are \
            fetched only with --extension download-media.
            """
    )

    @Argument(help: "The payload file, or - for standard input.")
    var payload: String

    @Option(help: "An app folder (Info.plist, entitlements, PlugIns/*.appex).")
    var app: String?

    @Option(help: "Shipped service-extension steps, comma-separated: rewrite-title, download-media, communication.")
    var `extension`: String?

    @Option(help: "The app's state: foreground, background or not-running.")
    var state: String = "background"

    @Flag(help: "The device is locked.")
    var locked = false

    @Option(help: "Notification authorization: granted, denied, provisional or not-determined.")
    var authorization: String = "granted"

    @Option(help: "apns-collapse-id of the push.")
    var collapseID: String?

    @Option(help: "Also draw the banner as SVG into this file.")
    var svg: String?

    @Option(help: "Also draw the banner as PNG into this file (needs rsvg-convert, from Debian's librsvg2-bin).")
    var png: String?

    func run() async throws {
        let bytes = try readInput(payload, command: "device explain")
        let decoded: Payload
        do {
            decoded = try Payload(decoding: bytes)
        } catch {
            throw CommandError("\(payload) is not a payload: \(error)").exit(command: "device explain")
        }
        guard let appState = AppRunState(rawValue: state) else {
            throw CommandError("--state must be foreground, background or not-running").exit(command: "device explain")
        }
        var settings = NotificationSettings.granted
        let statuses = ["granted": NotificationSettings.Authorization.authorized, "denied": .denied, "provisional": .provisional, "not-determined": .notDetermined]
        guard let status = statuses[authorization] else {
            throw CommandError("--authorization must be granted, denied, provisional or not-determined").exit(command: "device explain")
        }
        settings.authorization = status
        var bundle: AppBundle?
        if let app {
            do {
                bundle = try AppBundle.load(from: URL(fileURLWithPath: app))
            } catch {
                throw CommandError("\(error)").exit(command: "device explain")
            }
        }
        var steps: [ServiceExtensionRecipe.Step] = []
        for name in (`extension` ?? "").split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            switch name {
            case "rewrite-title": steps.append(.rewriteTitle(format: "%@ [modified]", subtitle: nil, body: nil))
            case "download-media": steps.append(.downloadMedia(keyPaths: ServiceExtensionRecipe.defaultMediaKeyPaths, attachmentIdentifier: "media"))
            case "communication": steps.append(.communication)
            default: throw CommandError("unknown --extension step \"\(name)\"; use rewrite-title, download-media or communication").exit(command: "device explain")
            }
        }
        let explainer = DeviceExplainer(
            app: bundle,
            serviceExtension: steps.isEmpty ? nil : ShippedExtensions().serviceExtension(
                for: ServiceExtensionRecipe(steps: steps), app: bundle ?? AppBundle(bundleIdentifier: "com.example.app")
            ),
            state: appState, locked: locked, settings: settings
        )
        let explanation = await explainer.explain(decoded, headers: PushHeaders(collapseID: collapseID))
        print("Assuming \(explanation.assumptions.joined(separator: "; ")).")
        for (index, event) in explanation.events.enumerated() {
            print("\(String(format: "%2d", index + 1)). \(event.description)")
        }
        let warnings = PayloadLinter().lint(payload: bytes).filter { $0.severity != .info }
        if !warnings.isEmpty {
            print("herald lint also says:")
            for warning in warnings { print("  \(warning.severity.rawValue): \(warning.path.map { "\($0): " } ?? "")\(warning.message)") }
        }
        if let shown = explanation.shown {
            print("What the user sees:")
            print(BannerRenderer.text(shown))
            let picture = BannerRenderer.svg(shown, app: bundle)
            if let path = svg {
                try picture.write(toFile: path, atomically: true, encoding: .utf8)
                print("SVG written to \(path)")
            }
            if let path = png {
                do {
                    try PNGRasterizer.write(svg: picture, to: path)
                } catch {
                    throw CommandError("\(error)").exit(command: "device explain")
                }
                print("PNG written to \(path)")
            }
        } else {
            print("Nothing is shown.")
        }
    }
}
