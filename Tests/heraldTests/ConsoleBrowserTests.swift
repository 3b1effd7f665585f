import Foundation
import HeraldCore
import Testing

/// The console used as a new user does, in a real headless Chromium (WebDriver): sign in with the
/// admin key `herald serve` printed, create an app, see its device, compose a payload with a lint
/// error shown inline, fix it, send it to the in-process sandbox and see the delivery report.
/// Screenshots of each page go to `.build/console-screenshots/`.
@Suite(.serialized, .enabled(if: WebDriver.missing == nil, "needs Debian's chromium and chromium-driver (.ci/run installs them)"))
struct ConsoleBrowserTests {
    static let screenshots = HeraldCLI.repository.appendingPathComponent(".build/console-screenshots")

    @Test func aNewUserSignsInCreatesAnAppAndSendsFromCompose() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("herald-console-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await ServeProcess.start(["--database", folder.appendingPathComponent("herald.sqlite").path, "--sandbox-admin-port", "0"])
        defer { server.process.stop() }
        let admin = try #require(server.adminKey)
        let sandboxAdmin = try await server.process.port(after: "its admin API on http://127.0.0.1:")
        let browser = try await WebDriver.start()
        do {
            try await walkThrough(browser, server: server, admin: admin, sandboxAdmin: sandboxAdmin)
        } catch {
            try? await browser.screenshot(to: Self.screenshots.appendingPathComponent("failure.png").path)
            await browser.quit()
            throw error
        }
        #expect(!browser.browserProcesses.isEmpty)
        let left = await browser.quit()
        #expect(left.isEmpty, "still running after quit: \(left)")
        #expect(await server.process.terminate() == 0)
    }

    func walkThrough(_ browser: WebDriver, server: ServeProcess, admin: String, sandboxAdmin: Int) async throws {
        let base = "http://127.0.0.1:\(server.port)"
        func shot(_ name: String) async throws {
            try await browser.screenshot(to: Self.screenshots.appendingPathComponent("\(name).png").path)
        }

        // Sign in: a wrong key is said to be wrong; the admin key gets in.
        try await browser.go(base + "/")
        try await browser.type("input[name=key]", "hk_admin_wrong")
        try await browser.click("form.signin button[type=submit]")
        try await browser.waitForText("form.signin p[role=alert]") { $0.contains("no such API key") }
        try await browser.type("input[name=key]", admin)
        try await shot("01-sign-in")
        try await browser.click("form.signin button[type=submit]")
        try await browser.waitForText("main h1") { $0 == "Apps" }
        try await browser.waitForText("main .empty") { $0.contains("No apps yet") }
        try await shot("02-apps-empty")
        // The key is nowhere a script could read it.
        let storage = try await browser.script("return document.cookie + JSON.stringify(localStorage) + JSON.stringify(sessionStorage)")
        #expect(storage.stringValue?.contains("hk_") == false, "\(storage)")

        // Create an app; its key is shown once.
        try await browser.type("input[name=name]", "Demo")
        try await browser.type("input[name=bundleId]", "com.qishare.demo")
        try await browser.click("main form button.primary")
        let appKey = try await browser.waitForText("[data-secret]") { $0.hasPrefix("hk_app_") }
        try await browser.waitForText("main table") { $0.contains("com.qishare.demo") }
        try await shot("03-app-created")

        // The app registers its device, as an app does on launch.
        let token = String(repeating: "ab", count: 32)
        try await server.call("PUT", "/v1/devices/\(token)", key: appKey, body: #"{"environment": "development", "userId": "alice", "tags": ["news"]}"#, expect: 201)
        try await browser.go(base + "/#/devices")
        try await browser.waitForText("main table") { $0.contains(String(token.prefix(16))) }
        try await shot("04-devices")

        // Compose: a payload with a syntax error is flagged under the editor, with its line.
        try await browser.go(base + "/#/compose")
        try await browser.waitForText("#lint-summary") { $0.contains("No problems") || $0.contains("No errors") }
        try await browser.type("textarea[name=targetValues]", token)
        // The tabs move with the arrow keys, as a tab list does.
        try await browser.press("#tab-form", .arrowRight)
        // The key's handler runs after the key event is dispatched: wait for the tab it selects.
        try await browser.element("#tab-json[aria-selected=true]")
        #expect(try await browser.attribute("#tab-json", "aria-selected") == "true")
        #expect(try await browser.script("return document.activeElement.id").stringValue == "tab-json")
        #expect(try await browser.attribute("#tab-form", "tabindex") == "-1")
        try await browser.element("#pane-json:not([hidden])")
        try await browser.type("textarea[name=payloadText]", "{\n  \"aps\": {\"alert\": {\"title\": \"Hello\", \"body\": \"From the console\"},}\n}")
        // Lint runs as one types: wait for the finding about the whole text, under the editor.
        try await browser.waitForText("[id$=-problem].inline-error:not(:empty)") { $0.contains("line 2") }
        #expect(try await browser.attribute("textarea[name=payloadText]", "aria-invalid") == "true")
        #expect(try await browser.attribute("#send", "disabled") != nil)
        try await shot("05-compose-lint-error")

        // Fixed, with an image for the service extension: no errors, and it goes out.
        let payload = #"{"aps": {"alert": {"title": "Hello", "body": "From the console"}, "mutable-content": 1, "category": "QiShareCategoryIdentifier"}, "media": {"url": "https://example.com/logo.png", "type": "image"}}"#
        try await browser.type("textarea[name=payloadText]", payload)
        try await browser.waitForText("#lint-summary") { !$0.contains("error") && !$0.contains("Checking") }
        #expect(try await browser.attribute("textarea[name=payloadText]", "aria-invalid") == nil)
        #expect(try await browser.text("#curl").contains("/v1/notifications"))
        #expect(try await browser.text("#herald-send").contains("herald send"))
        try await shot("06-compose")
        try await browser.click("#send")

        // The notification's report: sent to the one device, with its apns-id.
        try await browser.waitForText("[data-count=sent]") { $0 == "1" }
        try await browser.waitForText("main h1") { $0.contains("finished") }
        try await browser.waitForText("main table") { $0.contains("sent") }
        try await shot("07-notification")
        let received = try await exchange(method: .GET, host: "127.0.0.1", port: sandboxAdmin, path: "/devices/\(token)/notifications", body: [])
        let notifications = try #require(try JSONValue(parsing: received.body).arrayValue)
        #expect(notifications.count == 1)
        let sent = try JSONValue(parsing: try #require(notifications.first?["payload"]?.stringValue))
        #expect(sent["media"]?["url"]?.stringValue == "https://example.com/logo.png")

        try await browser.go(base + "/#/notifications")
        try await browser.waitForText("main table") { $0.contains("finished") }
        try await shot("08-notifications")
        // A simulated iPhone running seed 000's app: compose to it, see the banner with the
        // service extension's title and picture, tap the text action.
        try await browser.go(base + "/#/iphone")
        try await browser.waitForText("main .empty") { $0.contains("No simulated iPhone") }
        try await browser.click("#add-phone")
        let phoneToken = try await browser.waitForText("[data-phone] [data-token]") { $0.count == 64 }
        try await browser.click("[data-phone] .actions button")
        try await browser.waitForText("#lint-summary") { $0.contains("No problems") || $0.contains("No errors") }
        #expect(try await browser.script("return document.querySelector('textarea[name=targetValues]').value").stringValue == phoneToken)
        try await browser.click("#send")
        try await browser.waitForText("[data-count=sent]") { $0 == "1" }
        try await browser.go(base + "/#/iphone")
        let banner = try await browser.element("[data-phone] .phone-notification img.banner", timeout: 40)
        _ = banner
        let alt = try await browser.attribute("[data-phone] .phone-notification img.banner", "alt") ?? ""
        #expect(alt.contains("[ServiceExtension modified]") && alt.contains("with a picture"), "\(alt)")
        try await shot("09-iphone")
        try await browser.type("[data-phone] input[name=text-ActionD]", "hello from the console")
        try await browser.click("[data-phone] button[data-action=ActionD]")
        try await browser.waitForText("[data-phone] .transcript") { $0.contains("ActionD") }
        try await shot("10-iphone-tapped")
        // Its side button: locked, the lock screen shows what arrived; then unlocked again.
        try await browser.click("[data-phone] button[data-lock]")
        try await browser.waitForText("[data-phone] .phone-status") { $0.contains("Locked") }
        try await browser.waitForText("[data-phone] .transcript") { $0.contains("device locked") }
        #expect(try await browser.attribute("[data-phone] .phone-screen", "aria-label")?.hasPrefix("Lock screen") == true)
        try await shot("14-iphone-locked")
        try await browser.click("[data-phone] button[data-lock]")
        try await browser.waitForText("[data-phone] .phone-status") { $0.contains("Unlocked") }

        try await browser.go(base + "/#/schedules")
        try await browser.waitForText("main .empty") { $0.contains("No schedules") }
        try await shot("11-schedules")

        // The sandbox: its device, what it received, faults to inject.
        try await browser.go(base + "/#/sandbox")
        try await browser.waitForText("main table") { $0.contains(String(token.prefix(16))) && $0.contains("online") }
        try await browser.click("main table button[aria-label='What \(token) received']")
        try await browser.waitForText("#sandbox-received table") { $0.contains("From the console") }
        try await browser.type("main form input[type=number]", "20")
        try await browser.click("main form button.primary")
        try await browser.waitForText("#status") { $0.contains("Faults set") }
        try await shot("12-sandbox")
        let faults = try await exchange(method: .GET, host: "127.0.0.1", port: sandboxAdmin, path: "/faults", body: [])
        #expect(String(decoding: faults.body, as: UTF8.self).contains("\"429\":0.2"), "\(String(decoding: faults.body, as: UTF8.self))")
        try await browser.click("main form button[type=button]")
        try await browser.waitForText("#status") { $0.contains("No faults") }

        // An app's own page: credentials per environment, keys, settings.
        try await browser.go(base + "/#/apps")
        try await browser.click("main table a")
        try await browser.waitForText("main h1") { $0.contains("Demo") }
        try await shot("15-app")
        // Dark mode follows the system.
        try await browser.prefersDark(true)
        try await browser.waitForText("main h1") { $0.contains("Demo") }
        let dark = try await browser.script("return getComputedStyle(document.body).backgroundColor").stringValue
        #expect(dark == "rgb(17, 17, 20)", "\(dark ?? "")")
        try await browser.go(base + "/#/compose")
        try await browser.waitForText("#lint-summary") { !$0.contains("Checking") }
        try await shot("16-compose-dark")
        try await browser.prefersDark(false)

        // Phone width: the same page, one column.
        try await browser.resize(width: 390, height: 844)
        try await browser.go(base + "/#/compose")
        try await browser.waitForText("#lint-summary") { !$0.contains("Checking") }
        try await shot("13-compose-phone-width")
        try await browser.resize(width: 1280, height: 800)

        // Signing out ends the session: a reload shows the sign-in page again.
        try await browser.click("#sign-out")
        try await browser.waitForText("form.signin p[role=alert]") { $0.contains("Signed out") }
        try await browser.go(base + "/")
        try await browser.element("form.signin input[name=key]")
    }
}
