import ArgumentParser
import Foundation
import HeraldAPNs
import HeraldCore

/// `herald send`: sends one payload to one or many device tokens through APNs or a Herald
/// sandbox, after linting it, and reports each answer.
struct SendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "send",
        abstract: "Send a notification to device tokens (APNs or a Herald sandbox).",
        discussion: """
            The payload comes from --payload (a file, or - for standard input) or from the payload \
            flags. It is linted first; errors stop the send unless --force. Tokens come from --token, \
            --tokens-file, or standard input (one per line). Credentials may also come from \
            HERALD_KEY, HERALD_KEY_ID and HERALD_TEAM_ID. The exit status is 0 only when every \
            notification was accepted.

            Example against `herald sandbox --auto-accept`:
              herald send --url https://127.0.0.1:2197 --cacert /tmp/herald-sandbox-….pem \\
                --key AuthKey_ABC123DEFG.p8 --team-id DEF123GHIJ --bundle-id com.example.app \\
                --title Hello --body World --token 740f4707bebcf74f9b7c25d48e3358945f6aa01da5ddb387462c7eaf61bb78ad
            """
    )

    @Flag(help: "Send to Apple's development APNs (api.sandbox.push.apple.com).")
    var sandbox = false

    @Flag(help: "Send to Apple's production APNs (api.push.apple.com).")
    var production = false

    @Option(help: "Send to this server instead: https://host:port (TLS) or http://host:port (cleartext HTTP/2).")
    var url: String?

    @Option(help: "Trust this PEM certificate (e.g. the sandbox's) instead of the system's roots.")
    var cacert: String?

    @OptionGroup(title: "Credentials")
    var credentials: CredentialOptions

    @Option(help: "Take credentials, target and bundle id from a saved profile (herald profile add); flags given here win.")
    var profile: String?

    @Option(help: "apns-topic, as sent.")
    var topic: String?

    @Option(help: "The app's bundle id; the topic is derived from it and the push type (.voip, .push-type.liveactivity, …).")
    var bundleID: String?

    @Option(help: "apns-push-type (default: inferred from the payload).")
    var pushType: String?

    @Option(help: "apns-priority: 10, 5 or 1 (default: 5 for background, 10 otherwise).")
    var priority: Int?

    @Option(help: "apns-expiration: UNIX seconds, or 0 to deliver now or never.")
    var expiration: String?

    @Option(help: "apns-collapse-id (at most 64 bytes).")
    var collapseID: String?

    @Option(help: "apns-id (a UUID, sent as spelt; default: a new UUID per notification, kept across its retries).")
    var apnsID: String?

    @Option(name: .customLong("token"), help: "A device token (hex); repeatable.")
    var tokens: [String] = []

    @Option(help: "A file of device tokens, one per line (# starts a comment).")
    var tokensFile: String?

    @Flag(help: "Send once to a token listed several times (by default each listing is sent, with a warning).")
    var unique = false

    @Option(help: "The payload: a JSON file, or - for standard input.")
    var payload: String?

    @OptionGroup(title: "Payload flags")
    var fields: PayloadOptions

    @Flag(help: "Send even when lint finds errors.")
    var force = false

    @Flag(help: "Print one JSON object per notification, then a JSON summary.")
    var json = false

    @Option(help: "Also write an .apns file for `xcrun simctl push` (needs --bundle-id or --topic).")
    var saveApns: String?

    @Option(help: "Connections to open.")
    var connections = 2

    @Option(help: "Seconds to wait for each answer.")
    var timeout = 10.0

    @Option(help: "Attempts per notification for 429, 5xx and transport failures.")
    var attempts = 3

    @Option(help: "Seconds to wait for a connection: TCP, TLS and the server's HTTP/2 settings.")
    var connectTimeout = 10.0

    func validate() throws {
        let targets = [sandbox, production, url != nil].filter { $0 }.count
        if targets > 1 { throw ValidationError("choose one of --sandbox, --production and --url") }
        if payload != nil && fields.isGiven { throw ValidationError("give the payload as --payload or as payload flags, not both") }
        if topic != nil && bundleID != nil { throw ValidationError("give --topic or --bundle-id, not both") }
        if connections < 1 || attempts < 1 || timeout <= 0 || connectTimeout <= 0 {
            throw ValidationError("--connections and --attempts must be at least 1, --timeout and --connect-timeout above 0")
        }
    }

    func run() async throws {
        var resolved = self
        if let profile {
            do {
                resolved.apply(try ProfileStore(home: HeraldHome()).profile(named: profile))
            } catch let error as CommandError {
                throw error.exit(command: "send")
            }
        }
        try await resolved.execute()
    }

    /// Fills what the command line left out from a profile.
    mutating func apply(_ saved: Profile) {
        if !sandbox && !production && url == nil {
            switch saved.target {
            case "production": production = true
            case nil, "sandbox": sandbox = true
            case let target?: url = target
            }
        }
        if cacert == nil { cacert = saved.cacert }
        if bundleID == nil && topic == nil { bundleID = saved.bundleID }
        credentials.fill(from: saved)
    }

    private func execute() async throws {
        let environment = ProcessInfo.processInfo.environment
        let body = try payloadBytes()
        let headers = try notificationHeaders(for: body)
        let authentication: AuthenticationMethod = credentials.usesCertificate ? .certificate : .token

        // Lint first: APNs would refuse what lint calls an error.
        let diagnostics = PayloadLinter(options: LintOptions(authentication: authentication, now: Date())).lint(payload: body, headers: headers.fields())
        if !diagnostics.isEmpty {
            FileHandle.standardError.write(Data((DiagnosticFormatter(source: payload ?? "payload").format(diagnostics) + "\n").utf8))
        }
        if diagnostics.hasErrors && !force {
            throw CommandError("lint found errors; nothing was sent (--force sends anyway)").exit(command: "send", status: 1)
        }

        if let saveApns { try writeSimulatorFile(saveApns, body: body, topic: headers.topic) }

        let tokenTexts = try deviceTokenTexts()
        if tokenTexts.isEmpty {
            if saveApns != nil { return }
            throw CommandError("no device token: give --token, --tokens-file, or tokens on standard input").exit(command: "send")
        }
        var notifications: [PushNotification] = []
        var rejected: [(String, String)] = []
        // One apns-id per notification, made here so that every attempt carries the same one
        // (APNs would make a new id per attempt) and a result can be matched with what was sent.
        var random = FastRandomGenerator()
        var listed: [DeviceToken: Int] = [:]
        for text in tokenTexts {
            do {
                let token = try DeviceToken(parsing: text)
                listed[token, default: 0] += 1
                if unique, listed[token]! > 1 { continue }
                var itemHeaders = headers
                if itemHeaders.id == nil { itemHeaders.id = NotificationID(using: &random) }
                notifications.append(PushNotification(deviceToken: token, body: .raw(body), headers: itemHeaders))
            } catch {
                if unique, rejected.contains(where: { $0.0 == text }) { continue }
                rejected.append((text, error.description))
            }
        }
        Self.warnAboutRepeats(listed, unique: unique)
        if apnsID != nil, notifications.count > 1 {
            throw CommandError(
                "--apns-id names one notification, and this send makes \(notifications.count) (one per token); leave it out and each gets its own UUID, kept across its retries"
            ).exit(command: "send")
        }

        let (endpoint, transport) = try server()
        let client: APNsClient
        do {
            client = try APNsClient(configuration: APNsClientConfiguration(
                endpoint: endpoint, transport: transport,
                authentication: try clientAuthentication(environment: environment), connections: connections,
                requestTimeout: .milliseconds(Int64(timeout * 1000)), connectTimeout: .milliseconds(Int64(connectTimeout * 1000)),
                retry: RetryPolicy(maximumAttempts: attempts)
            ))
        } catch let error as APNsClientError {
            throw CommandError(error.description).exit(command: "send")
        }

        let printer = SendReportPrinter(json: json)
        for (text, why) in rejected { printer.rejected(token: text, why: why) }
        let start = ContinuousClock.now
        var results: [APNsResult] = []
        let stream = client.send(all: AsyncStream { continuation in
            notifications.forEach { continuation.yield($0) }
            continuation.finish()
        })
        var progress = ProgressLine.wanted(total: notifications.count, json: json) ? ProgressLine(total: notifications.count) : nil
        for try await result in stream {
            progress?.clear()
            printer.print(result)
            results.append(result)
            progress?.update(done: results.count, elapsed: ContinuousClock.now - start)
        }
        progress?.clear()
        try await client.shutdown()
        if case .token(let source) = client.configuration.authentication { TokenCache(home: HeraldHome()).keep(source) }
        printer.summary(results: results, rejected: rejected.count, elapsed: ContinuousClock.now - start)
        recordHistory(body: body, headers: headers, tokens: tokenTexts, accepted: results.filter(\.isSuccess).count,
                      failed: results.count - results.filter(\.isSuccess).count + rejected.count)
        if !rejected.isEmpty || !results.allSatisfy(\.isSuccess) { throw ExitCode(1) }
    }

    // MARK: Pieces

    /// Appends this send to `herald history` (a failure to write it is reported, not fatal).
    private func recordHistory(body: [UInt8], headers: NotificationHeaders, tokens: [String], accepted: Int, failed: Int) {
        // Absolute paths, so a replay works from any folder.
        let absolute = { (path: String?) in path.map { URL(fileURLWithPath: $0).standardizedFileURL.path } }
        let entry = HistoryEntry(
            date: Date(), target: url ?? (production ? "production" : "sandbox"), cacert: absolute(cacert),
            key: absolute(credentials.key ?? ProcessInfo.processInfo.environment["HERALD_KEY"]),
            keyID: credentials.keyID, teamID: credentials.teamID ?? ProcessInfo.processInfo.environment["HERALD_TEAM_ID"],
            cert: absolute(credentials.cert), certKey: absolute(credentials.certKey),
            pushType: headers.pushType?.rawValue, topic: headers.topic, priority: headers.priority?.rawValue,
            expiration: headers.expiration.headerValue, collapseID: headers.collapseID?.value,
            payload: String(decoding: body, as: UTF8.self), tokens: tokens, accepted: accepted, failed: failed
        )
        do {
            try HistoryStore(home: HeraldHome()).append(entry)
        } catch {
            FileHandle.standardError.write(Data("herald send: could not record the history: \(error.localizedDescription)\n".utf8))
        }
    }

    private func payloadBytes() throws -> [UInt8] {
        if let payload { return try readInput(payload, command: "send") }
        guard fields.isGiven else {
            throw CommandError("no payload: give --payload FILE (or -), or payload flags such as --title and --body").exit(command: "send")
        }
        return try fields.payload().serialized
    }

    private func notificationHeaders(for body: [UInt8]) throws -> NotificationHeaders {
        let parsed = try? Payload(decoding: body)
        let type = pushType.map(PushType.init(rawValue:)) ?? parsed.map(PushType.inferred(from:)) ?? .alert
        var headers = NotificationHeaders(pushType: type, topic: topic ?? bundleID.map(type.topic(forBundleID:)))
        headers.priority = priority.map(Priority.init(rawValue:)) ?? type.recommendedPriority
        if let expiration {
            guard let value = Expiration(headerValue: expiration) else {
                throw CommandError("--expiration takes UNIX seconds, or 0 for deliver now or never; got '\(expiration)'").exit(command: "send")
            }
            headers.expiration = value
        }
        do {
            if let collapseID { headers.collapseID = try CollapseID(collapseID) }
            if let apnsID { headers.id = try NotificationID(apnsID) }
        } catch {
            throw CommandError(error.description).exit(command: "send")
        }
        return headers
    }

    private func deviceTokenTexts() throws -> [String] {
        var texts = tokens
        if let tokensFile { texts += Self.tokenLines(String(decoding: try readInput(tokensFile, command: "send"), as: UTF8.self)) }
        if texts.isEmpty, payload != "-", isatty(FileHandle.standardInput.fileDescriptor) == 0 {
            texts = Self.tokenLines(String(decoding: try readInput("-", command: "send"), as: UTF8.self))
        }
        return texts
    }

    /// Says which tokens were listed more than once, and what was done about it.
    static func warnAboutRepeats(_ listed: [DeviceToken: Int], unique: Bool) {
        let repeated = listed.filter { $0.value > 1 }.sorted { $0.key.hex < $1.key.hex }
        guard !repeated.isEmpty else { return }
        let examples = repeated.prefix(3).map { "\(SendReportPrinter.short($0.key.hex)) ×\($0.value)" }.joined(separator: ", ")
        let more = repeated.count > 3 ? " and \(repeated.count - 3) more" : ""
        let what = unique ? "each is sent once (--unique)" : "each listing is sent, so the device gets it more than once; --unique sends once"
        FileHandle.standardError.write(Data("herald send: \(repeated.count) token(s) listed more than once (\(examples)\(more)): \(what)\n".utf8))
    }

    /// One token per non-empty line; `#` starts a comment.
    static func tokenLines(_ text: String) -> [String] {
        text.split(whereSeparator: \.isNewline)
            .map { $0.prefix { $0 != "#" }.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    /// Where to send: `--production`, `--url`, or Apple's development APNs (the default).
    private func server() throws -> (APNsClientConfiguration.Endpoint, APNsClientConfiguration.Transport) {
        if production { return (.apple(.production), .tls(trustedCertificate: cacert)) }
        guard let url else { return (.apple(.development), .tls(trustedCertificate: cacert)) }
        guard let server = APNsServerURL(url) else {
            throw CommandError("--url must look like \(APNsServerURL.expectedForm); got '\(url)'").exit(command: "send")
        }
        return (server.endpoint, server.transport(trustedCertificate: cacert))
    }

    private func clientAuthentication(environment: [String: String]) throws -> APNsClientConfiguration.Authentication {
        guard let authentication = try credentials.authentication(environment: environment, command: "send") else {
            throw CommandError("no credentials: give --key with --team-id (token), or --cert with --cert-key (certificate)").exit(command: "send")
        }
        return authentication
    }

    /// An `.apns` file as Xcode's simulator reads it: the payload plus "Simulator Target Bundle".
    private func writeSimulatorFile(_ path: String, body: [UInt8], topic: String?) throws {
        guard let bundle = bundleID ?? topic.map(PushType.bundleID(strippingAnySuffixFrom:)) else {
            throw CommandError("--save-apns needs --bundle-id or --topic (the simulator needs the app's bundle id)").exit(command: "send")
        }
        guard case .object(var object) = try? JSONValue(parsing: body) else {
            throw CommandError("--save-apns needs a payload that is a JSON object").exit(command: "send")
        }
        object["Simulator Target Bundle"] = .string(bundle)
        do {
            try Data(JSONValue.object(object).serialized).write(to: URL(fileURLWithPath: path))
        } catch {
            throw CommandError("cannot write \(path): \(error.localizedDescription)").exit(command: "send")
        }
        FileHandle.standardError.write(Data("wrote \(path) for xcrun simctl push\n".utf8))
    }
}
