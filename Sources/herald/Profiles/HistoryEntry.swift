import Foundation

/// One `herald send`, as `herald history` lists and replays it. Passwords are never kept.
struct HistoryEntry: Codable {
    var date: Date
    /// `sandbox`, `production` or the URL.
    var target: String
    var cacert: String?
    var key: String?
    var keyID: String?
    var teamID: String?
    var cert: String?
    var certKey: String?
    var pushType: String?
    var topic: String?
    var priority: Int?
    var expiration: String?
    var collapseID: String?
    var payload: String
    var tokens: [String]
    var accepted: Int
    var failed: Int

    /// The `herald send` arguments that send it again (payload and tokens from the given files).
    func arguments(payloadFile: String, tokensFile: String) -> [String] {
        var arguments = ["send"]
        switch target {
        case "sandbox": arguments.append("--sandbox")
        case "production": arguments.append("--production")
        default: arguments += ["--url", target]
        }
        let options: [(String, String?)] = [
            ("--cacert", cacert), ("--key", key), ("--key-id", keyID), ("--team-id", teamID), ("--cert", cert), ("--cert-key", certKey),
            ("--push-type", pushType), ("--topic", topic), ("--priority", priority.map(String.init)), ("--expiration", expiration),
            ("--collapse-id", collapseID),
        ]
        for (flag, value) in options { if let value { arguments += [flag, value] } }
        return arguments + ["--payload", payloadFile, "--tokens-file", tokensFile]
    }

    /// One line for `herald history`.
    func summary(number: Int) -> String {
        let formatter = ISO8601DateFormatter()
        let text = payload.count > 60 ? String(payload.prefix(57)) + "…" : payload
        return "\(number)  \(formatter.string(from: date))  \(target)  \(pushType ?? "-") \(topic ?? "-")  \(tokens.count) token(s): \(accepted) accepted, \(failed) failed  \(text)"
    }
}

/// The history file (`history.jsonl` in ``HeraldHome``): one JSON object per line, 0600.
struct HistoryStore {
    let home: HeraldHome
    static let fileName = "history.jsonl"

    func append(_ entry: HistoryEntry) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        try home.appendPrivately(String(decoding: try encoder.encode(entry), as: UTF8.self), to: Self.fileName)
    }

    /// Every entry, oldest first; lines that cannot be read are skipped.
    func load() -> [HistoryEntry] {
        guard let text = try? String(contentsOf: home.file(Self.fileName), encoding: .utf8) else { return [] }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return text.split(separator: "\n").compactMap { try? decoder.decode(HistoryEntry.self, from: Data($0.utf8)) }
    }
}
