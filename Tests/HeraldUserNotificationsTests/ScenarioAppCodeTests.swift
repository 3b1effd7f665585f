import Foundation
import HeraldCore
import HeraldDevice
import HeraldShippedExtensions
import HeraldTestSupport
import HeraldUserNotifications
import Testing
@testable import Seed000NotificationContent
@testable import Seed000NotificationService

extension AppCodeTests {
    /// A `herald device run` scenario played from a test against the developer's own types,
    /// registered under the names the app folder uses.
    @Suite struct ScenarioAppCodeTests {
        @Test func theScenariosAppRunsTheDevelopersExtensions() async throws {
            let media = try await MediaServer.start()
            defer { Task { await media.stop() } }
            let text = """
            app:
              folder: apps/QiShare
              state: background
            steps:
              - push: {"aps":{"alert":{"title":"Hi","subtitle":"Sub","body":"Body"},"mutable-content":1},"media":{"url":"${MEDIA_URL}/photo","type":"image"}}
              - expect: {event: extension-log, message: NotificationService.didReceive}
              - expect: {event: presented, title: "Hi [ServiceExtension modified]", actions: [ActionA, ActionB, ActionC, ActionD]}
              - expand: last
              - expect: {event: app-code, message: "label: Sub [ContentExtension modified]"}
              - tap: {action: ActionA}
              - expect: {event: content-extension-response, answer: do-not-dismiss}
            """
            let scenario = try ScenarioParser(file: "inline.yaml", baseDirectory: AppFolders.root.appendingPathComponent("Scenarios"))
                .parse(text.replacingOccurrences(of: "${MEDIA_URL}", with: media.baseURL))
            let code = AppCode(
                serviceExtensions: ["NotificationService": { NotificationService() }],
                contentExtensions: ["NotificationContent": { NotificationViewController() }]
            )
            let report = await ScenarioRunner(extensions: ShippedExtensions(), appCode: code).run(scenario)
            #expect(report.failures.isEmpty, "\(report.failures.joined(separator: "\n"))")
        }
    }
}
