import Foundation
import HeraldCore
import NIOHTTP1
import Synchronization

/// A headless Chromium driven through chromedriver's W3C WebDriver API (plain HTTP and JSON on
/// loopback), for tests that use the console as a person does. `start()` is nil when Debian's
/// `chromium` and `chromium-driver` are not installed (`.ci/run` installs them).
final class WebDriver: Sendable {
    static let chromium = "/usr/bin/chromium"
    static let chromedriver = "/usr/bin/chromedriver"

    private let process: Process
    let port: Int
    let session: String

    private init(process: Process, port: Int, session: String) {
        self.process = process
        self.port = port
        self.session = session
    }

    /// Why the browser tests cannot run here, if they cannot.
    static var missing: String? {
        for program in [chromium, chromedriver] where !FileManager.default.isExecutableFile(atPath: program) {
            return "\(program) is not installed (apt-get install chromium chromium-driver; .ci/run does)"
        }
        return nil
    }

    /// chromedriver on a free port and a headless browser window of `width`×`height`.
    static func start(width: Int = 1280, height: Int = 800) async throws -> WebDriver {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromedriver)
        process.arguments = ["--port=0"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        // "ChromeDriver was started successfully on port 44193."
        let printed = Mutex("")
        let port: Int? = await withCheckedContinuation { continuation in
            let resumed = Mutex(false)
            let finish: @Sendable (Int?) -> Void = { port in
                if resumed.withLock({ let was = $0; $0 = true; return !was }) { continuation.resume(returning: port) }
            }
            pipe.fileHandleForReading.readabilityHandler = { handle in
                let data = handle.availableData
                if data.isEmpty { handle.readabilityHandler = nil; finish(nil); return }
                let text = printed.withLock { $0 += String(decoding: data, as: UTF8.self); return $0 }
                if let range = text.range(of: "started successfully on port ") {
                    let digits = text[range.upperBound...].prefix(while: \.isNumber)
                    if let port = Int(digits), text[range.upperBound...].dropFirst(digits.count).first != nil {
                        handle.readabilityHandler = nil
                        finish(port)
                    }
                }
            }
            DispatchQueue.global().asyncAfter(deadline: .now() + 20) { finish(nil) }
        }
        guard let port else {
            process.terminate()
            throw RunningHerald.Failure("chromedriver did not start: \(printed.withLock { $0 })")
        }
        let capabilities: JSONValue = [
            "capabilities": [
                "alwaysMatch": [
                    "browserName": "chrome",
                    // A page that does not load fails the command within seconds, not minutes.
                    "timeouts": ["pageLoad": 20000, "script": 10000, "implicit": 0],
                    "goog:chromeOptions": [
                        "binary": .string(chromium),
                        "args": [
                            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                            .string("--window-size=\(width),\(height)"), "--force-prefers-reduced-motion", "--lang=en-US",
                        ],
                    ],
                ],
            ],
        ]
        do {
            let answer = try await call(port: port, .POST, "/session", capabilities)
            guard let session = answer["value"]?["sessionId"]?.stringValue else {
                throw RunningHerald.Failure("chromedriver made no session: \(answer)")
            }
            return WebDriver(process: process, port: port, session: session)
        } catch {
            process.terminate()
            throw error
        }
    }

    /// Closes the browser and stops chromedriver, and then every process it started that is
    /// still there (a browser that hung on closing, its renderers and zygotes).
    /// Returns those that were still running two seconds later (none, normally).
    @discardableResult
    func quit() async -> [pid_t] {
        _ = try? await Self.call(port: port, .DELETE, "/session/\(session)", nil)
        let started = Self.descendants(of: process.processIdentifier)
        process.terminate()
        for _ in 0..<50 where process.isRunning { try? await Task.sleep(for: .milliseconds(100)) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        for pid in started { kill(pid, SIGKILL) }
        var running = started
        for _ in 0..<20 where !running.isEmpty {
            try? await Task.sleep(for: .milliseconds(100))
            running = running.filter(Self.isRunning)
        }
        return running
    }

    /// Whether `pid` runs (a zombie, dead but not yet reaped, does not).
    static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(after: close)...].split(separator: " ").first != "Z"
    }

    /// The processes chromedriver started that run now.
    var browserProcesses: [pid_t] { Self.descendants(of: process.processIdentifier) }

    /// The processes below `root`, read from `/proc` (each one's parent is the fourth field of
    /// its `stat`, after the command name in parentheses).
    static func descendants(of root: pid_t) -> [pid_t] {
        var children: [pid_t: [pid_t]] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(name), let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, let parent = pid_t(fields[1]) { children[parent, default: []].append(pid) }
        }
        var found: [pid_t] = []
        var next = [root]
        while let pid = next.popLast() {
            for child in children[pid] ?? [] where !found.contains(child) {
                found.append(child)
                next.append(child)
            }
        }
        return found
    }

    // MARK: Commands

    func go(_ url: String) async throws {
        try await command(.POST, "/url", ["url": .string(url)])
    }

    /// The first element `css` selects, waiting up to `timeout` seconds for it.
    @discardableResult
    func element(_ css: String, timeout: Double = 10) async throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let answer = try await Self.call(port: port, .POST, "/session/\(session)/element", ["using": "css selector", "value": .string(css)], acceptErrors: true)
            if let id = answer["value"]?.objectValue?.entries.first(where: { $0.key.hasPrefix("element-") })?.value.stringValue { return id }
            if Date() > deadline { throw RunningHerald.Failure("no element '\(css)' after \(timeout) s") }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    func click(_ css: String) async throws {
        let id = try await element(css)
        try await command(.POST, "/element/\(id)/click", [:])
    }

    /// Types `text` into the element (after what it holds, unless `replacing`).
    func type(_ css: String, _ text: String, replacing: Bool = true) async throws {
        let id = try await element(css)
        if replacing { try await command(.POST, "/element/\(id)/clear", [:]) }
        try await command(.POST, "/element/\(id)/value", ["text": .string(text)])
    }

    /// A key pressed on the element, such as ``Key/arrowRight``.
    func press(_ css: String, _ key: Key) async throws {
        let id = try await element(css)
        try await command(.POST, "/element/\(id)/value", ["text": .string(key.rawValue)])
    }

    /// Keys by their WebDriver code points.
    enum Key: String {
        case arrowLeft = "\u{E012}", arrowRight = "\u{E014}", home = "\u{E011}", end = "\u{E010}"
    }

    /// The page as the system's dark mode (`prefers-color-scheme: dark`) or light mode shows it,
    /// through Chromium's DevTools protocol (chromedriver's `goog/cdp/execute`).
    func prefersDark(_ dark: Bool) async throws {
        let features: JSONValue = [["name": "prefers-color-scheme", "value": .string(dark ? "dark" : "light")]]
        try await command(.POST, "/goog/cdp/execute", ["cmd": "Emulation.setEmulatedMedia", "params": ["features": features]])
    }

    /// Picks the option whose value is `value` in a select.
    func select(_ css: String, value: String) async throws {
        try await click("\(css) option[value=\"\(value)\"]")
    }

    func text(_ css: String) async throws -> String {
        let id = try await element(css)
        return try await command(.GET, "/element/\(id)/text", nil)["value"]?.stringValue ?? ""
    }

    func attribute(_ css: String, _ name: String) async throws -> String? {
        let id = try await element(css)
        return try await command(.GET, "/element/\(id)/attribute/\(name)", nil)["value"]?.stringValue
    }

    /// Runs a script in the page; its return value.
    @discardableResult
    func script(_ source: String) async throws -> JSONValue {
        try await command(.POST, "/execute/sync", ["script": .string(source), "args": []])["value"] ?? .null
    }

    /// Waits until the element's text satisfies `condition`; its text then.
    @discardableResult
    func waitForText(_ css: String, timeout: Double = 15, _ condition: (String) -> Bool) async throws -> String {
        let deadline = Date().addingTimeInterval(timeout)
        var last = ""
        while true {
            last = (try? await text(css)) ?? ""
            if condition(last) { return last }
            if Date() > deadline { throw RunningHerald.Failure("'\(css)' still read '\(last)' after \(timeout) s") }
            try await Task.sleep(for: .milliseconds(150))
        }
    }

    /// Sets the window's size (a phone-width window, for instance).
    func resize(width: Int, height: Int) async throws {
        try await command(.POST, "/window/rect", ["width": .number(JSONNumber(width)), "height": .number(JSONNumber(height))])
    }

    /// A PNG of the window, written to `path`.
    func screenshot(to path: String) async throws {
        let answer = try await command(.GET, "/screenshot", nil)
        guard let base64 = answer["value"]?.stringValue, let data = Data(base64Encoded: base64) else {
            throw RunningHerald.Failure("no screenshot: \(answer)")
        }
        try FileManager.default.createDirectory(at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: path))
    }

    @discardableResult
    private func command(_ method: HTTPMethod, _ path: String, _ body: JSONValue?) async throws -> JSONValue {
        try await Self.call(port: port, method, "/session/\(session)\(path)", body)
    }

    private static func call(port: Int, _ method: HTTPMethod, _ path: String, _ body: JSONValue?, acceptErrors: Bool = false) async throws -> JSONValue {
        let bytes = body?.serialized ?? []
        let headers = body == nil ? [] : [(name: "content-type", value: "application/json")]
        // Every command has a deadline: a browser that hangs fails the test instead of stopping it.
        let answer = try await withThrowingTaskGroup(of: (status: Int, body: [UInt8])?.self) { group in
            group.addTask { try await exchange(method: method, host: "127.0.0.1", port: port, path: path, headers: headers, body: bytes) }
            group.addTask { try await Task.sleep(for: .seconds(60)); return nil }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let answer = first else {
                throw RunningHerald.Failure("WebDriver \(method) \(path) did not answer within 60 s")
            }
            return answer
        }
        let json = (try? JSONValue(parsing: answer.body)) ?? .null
        if answer.status >= 400 && !acceptErrors {
            throw RunningHerald.Failure("WebDriver \(method) \(path) answered \(answer.status): \(String(decoding: answer.body, as: UTF8.self).prefix(600))")
        }
        return json
    }
}
