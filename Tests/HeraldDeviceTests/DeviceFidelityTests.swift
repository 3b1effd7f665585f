import Foundation
import HeraldCore
import HeraldDevice
import HeraldShippedExtensions
import Testing

/// iOS rules the simulator used to get wrong, each played as a scenario: the report must pass,
/// and each check in it would have failed before the rule was modelled.
@Suite struct DeviceFidelityTests {
    /// Plays a scenario given as YAML text; paths resolve against a fresh temporary folder.
    static func play(_ text: String, folder: URL? = nil) async throws -> ScenarioReport {
        let base = folder ?? FileManager.default.temporaryDirectory
        let scenario = try ScenarioParser(file: "inline.yaml", baseDirectory: base).parse(text)
        return await ScenarioRunner(extensions: ShippedExtensions()).run(scenario)
    }

    static func expectPasses(_ report: ScenarioReport, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(report.failures.isEmpty, "\(report.failures.joined(separator: "\n"))\n\(report.transcript.map(\.description).joined(separator: "\n"))",
                sourceLocation: sourceLocation)
    }

    static let chatApp = """
        app:
          bundle-id: com.example.chat
          state: background
          content-extensions:
            Chat: {categories: [message], size-ratio: 0.5, answers: {reply: dismiss-and-forward, like: dismiss}}
            Silent: {categories: [order], size-ratio: 0.5}
          categories:
            - {id: message, actions: [{id: reply, title: Reply, text-input: {button: Send}}, {id: like, title: Like}]}
            - {id: order, actions: [{id: track, title: Track}]}
        """

    /// Item 3: an action on a notification with a content extension goes to the extension first.
    @Test func actionTapsGoToTheContentExtensionFirst() async throws {
        let report = try await Self.play(Self.chatApp + """

        steps:
          - push: {"aps":{"alert":"Hi","category":"message"}}
          - tap: {action: like}
          - expect: {event: content-extension, extension: Chat, expanded: "true"}
          - expect: {event: content-extension-response, action: like, answer: dismiss}
          - expect-not: {event: did-receive}
          - push: {"aps":{"alert":"Hi again","category":"message"}}
          - tap: {action: reply, text: on my way}
          - expect: {event: content-extension-response, action: reply, answer: dismiss-and-forward}
          - expect: {event: did-receive, action: reply, text: on my way}
          # An extension without the response method: iOS forwards the action to the app.
          - push: {"aps":{"alert":"Shipped","category":"order"}}
          - tap: {action: track}
          - expect: {event: content-extension-response, action: track, implemented: "false"}
          - expect: {event: did-receive, action: track}
        """)
        Self.expectPasses(report)
    }

    /// Item 4: a content extension is used only for a category the app registered.
    @Test func aContentExtensionNeedsARegisteredCategory() async throws {
        let report = try await Self.play("""
        app:
          bundle-id: com.example.shop
          state: background
          content-extensions:
            Receipt: {categories: [receipt], size-ratio: 0.5}
        steps:
          - push: {"aps":{"alert":"Paid","category":"receipt"}}
          - expect: {event: category-not-found, category: receipt, message: content extension Receipt is not used}
          - expect-not: {event: content-extension}
          - expect: {event: presented, actions: ""}
        """)
        Self.expectPasses(report)
    }

    /// Item 8: one action identifier in two categories is accepted with a warning.
    @Test func aRepeatedActionIdentifierWarnsAndKeepsEveryCategory() async throws {
        let report = try await Self.play("""
        app:
          bundle-id: com.example.shop
          state: background
          categories:
            - {id: order, actions: [{id: open, title: Open order}]}
            - {id: parcel, actions: [{id: open, title: Open parcel}]}
        steps:
          - push: {"aps":{"alert":"Shipped","category":"parcel"}}
          - expect: {event: categories-set, warning: duplicate-action-identifier, message: open is used more than once}
          - expect: {event: presented, category: parcel, actions: open}
          - expect-not: {event: category-not-found}
        """)
        Self.expectPasses(report)
    }

    /// Item 11: a local notification with a bad attachment is refused by add(_:), and the
    /// scenario goes on.
    @Test func anInvalidLocalAttachmentIsAnErrorFromAddAndTheRunGoesOn() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fidelity-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("not a picture".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        let report = try await Self.play("""
        app: {bundle-id: com.example.app, state: background}
        steps:
          - local: {id: bad, title: Photo, attachments: [{file: notes.txt}]}
          - expect: {event: local-rejected, notification: bad, message: Unrecognized attachment file type}
          - local: {id: missing, title: Photo, attachments: [{file: nowhere.png}]}
          - expect: {event: local-rejected, notification: missing, message: does not exist}
          - local: {id: good, title: Plain}
          - expect: {event: presented, notification: good}
        """, folder: folder)
        Self.expectPasses(report)
    }
}
