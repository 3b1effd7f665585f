import ArgumentParser
import Foundation
import HeraldCore
import HeraldHTTP1
import NIOHTTP1

/// `herald serve import`: registers the devices of an NDJSON or CSV file with a running App
/// Server, `PUT /v1/devices` a batch at a time, with progress and each refused line named.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Register devices from an NDJSON or CSV file with a running herald serve, in batches, with progress.",
        discussion: """
            NDJSON: one object per line, as PUT /v1/devices takes each ({"token": …, "environment": …, \
            "userId", "tags", "locale", "timeZone", "kind", "appVersion", "encryptionKey"}). CSV: a header \
            row naming those fields, tags separated by ';'. Refused lines are listed with their number and \
            why; the rest are stored. A batch the server does not take (it is down, or answers 5xx) is \
            tried 3 times; after that the import stops and says the line to go on from (--from-line). A \
            batch the server (or a proxy in front of it) answers 413 as too large is sent in halves, and \
            later batches as small; a device too large alone is refused. \
            Exit status: 0 when every line was stored, 1 when some were refused or the import stopped.
            """
    )

    @Argument(help: "The file (- for standard input).") var file: String
    @Option(help: "The App Server (http://host:port).") var url = "http://127.0.0.1:8080"
    @Option(help: "The app's API key (or HERALD_API_KEY).") var key: String?
    @Option(help: "ndjson or csv (default: from the file name, else ndjson).") var format: String?
    @Option(help: "Devices per call (1 to 10000).") var batch = 10_000
    @Option(help: "Start at this line (to go on after a stop).") var fromLine = 1

    func run() async throws {
        do {
            try await importFile()
        } catch let error as CommandError {
            throw error.exit(command: "serve import")
        }
    }

    private func importFile() async throws {
        guard let secret = key ?? ProcessInfo.processInfo.environment["HERALD_API_KEY"], !secret.isEmpty else {
            throw CommandError("give the app's API key with --key or HERALD_API_KEY")
        }
        guard (1...10_000).contains(batch) else { throw CommandError("batch must be 1 to 10000") }
        guard let server = URLComponents(string: url), server.scheme == "http", let host = server.host, !host.isEmpty else {
            throw CommandError("url must look like http://127.0.0.1:8080 (put TLS in front with a reverse proxy); got '\(url)'")
        }
        let port = server.port ?? 80
        let chosen = format ?? (file.lowercased().hasSuffix(".csv") ? "csv" : "ndjson")
        guard let fileFormat = DeviceFileReader.Format(rawValue: chosen) else { throw CommandError("format must be ndjson or csv; got '\(chosen)'") }
        var reader = try DeviceFileReader(path: file, format: fileFormat)
        let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? nil

        var tally = (created: 0, updated: 0, refused: 0)
        var shownRefusals = 0
        func refuse(_ line: Int, _ why: String) {
            tally.refused += 1
            shownRefusals += 1
            if shownRefusals <= 100 { Self.say("line \(line): \(why)") } else if shownRefusals == 101 { Self.say("(more refused lines are counted, not listed)") }
        }
        var lines: [Int] = []
        var items: [String] = []
        // Devices per call: when the server (or a proxy in front of it) answers a batch with 413,
        // its body limit, the batch goes in halves, and the rest of the file as many per call as
        // the largest part taken (a single line too large alone does not make them smaller).
        var perCall = batch
        func flush() async throws {
            guard !items.isEmpty else { return }
            var parts = [(items: items[...], lines: lines[...])]
            var split = false
            var largestTaken = 0
            while let part = parts.popLast() {
                let body = Array(("[" + part.items.joined(separator: ",") + "]").utf8)
                guard let answer = try await send(body, host: host, port: port, secret: secret, firstLine: part.lines.first!) else {
                    guard part.items.count > 1 else {
                        refuse(part.lines.first!, "too large for the server's body limit (\(body.count) bytes alone)")
                        continue
                    }
                    split = true
                    let half = (part.items.count + 1) / 2
                    let cut = part.items.startIndex + half
                    // The first half goes first, so that lines stay in order.
                    parts.append((part.items[cut...], part.lines[cut...]))
                    parts.append((part.items[..<cut], part.lines[..<cut]))
                    continue
                }
                largestTaken = max(largestTaken, part.items.count)
                for result in answer.results {
                    guard result.index < part.lines.count else { continue }
                    switch result.status {
                    case "created": tally.created += 1
                    case "updated": tally.updated += 1
                    default:
                        refuse(part.lines[part.lines.startIndex + result.index], "\(result.token.map { "token \($0.prefix(12))…: " } ?? "")\(result.error ?? "refused")")
                    }
                }
            }
            if split, largestTaken > 0, largestTaken < perCall {
                perCall = largestTaken
                Self.say("the server refused \(items.count) devices in one call as too large (HTTP 413): sending \(perCall) per call")
            }
            items.removeAll(keepingCapacity: true)
            lines.removeAll(keepingCapacity: true)
            let share = size.map { $0 > 0 ? " (\(min(100, reader.bytesRead * 100 / $0))% of the file)" : "" } ?? ""
            Self.say("\(tally.created + tally.updated + tally.refused) devices read\(share): \(tally.created) created, \(tally.updated) updated, \(tally.refused) refused")
        }
        while let record = try reader.next() {
            guard record.line >= fromLine else { continue }
            switch record.json {
            case .success(let json):
                items.append(json)
                lines.append(record.line)
            case .failure(let error):
                refuse(record.line, error.description)
            }
            if items.count >= perCall { try await flush() }
        }
        try await flush()
        Self.say("done: \(tally.created) created, \(tally.updated) updated, \(tally.refused) refused")
        if tally.refused > 0 { throw ExitCode(1) }
    }

    /// One batch, tried 3 times when the server cannot take it; then the import stops. Nil when
    /// the server answers 413: the batch is too large for its body limit.
    private func send(_ body: [UInt8], host: String, port: Int, secret: String, firstLine: Int) async throws -> ImportAnswer? {
        var problem = ""
        for attempt in 1...3 {
            do {
                let (status, answer) = try await HTTP1Exchange.send(
                    method: .PUT, host: host, port: port, path: "/v1/devices", headers: [("authorization", "Bearer \(secret)")], body: body
                )
                if status == 200, let decoded = try? JSONDecoder().decode(ImportAnswer.self, from: Data(answer)) { return decoded }
                if status == 413 { return nil }
                let message = String(decoding: answer.prefix(500), as: UTF8.self)
                guard status >= 500 || status == 429 else {
                    throw CommandError("the server refused the batch starting at line \(firstLine): HTTP \(status) \(message); lines before it are stored, go on with --from-line \(firstLine)")
                }
                problem = "HTTP \(status) \(message)"
            } catch let error as CommandError {
                throw error
            } catch {
                problem = "\(error)"
            }
            if attempt < 3 { try await Task.sleep(for: .seconds(Double(attempt))) }
        }
        Self.say("stopped: the batch starting at line \(firstLine) was not taken (\(problem)); lines before it are stored")
        Self.say("go on with: --from-line \(firstLine)")
        throw ExitCode(1)
    }

    private static func say(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}

/// The part of `PUT /v1/devices`' answer the import reads.
struct ImportAnswer: Decodable {
    struct Item: Decodable {
        var index: Int
        var token: String?
        var status: String
        var error: String?
    }

    var results: [Item]
}
