import Foundation
import HeraldAPNs
import HeraldCore

/// Prints `herald send`'s results: a line per notification and a summary, or JSON lines.
struct SendReportPrinter {
    let json: Bool

    /// One answer: `200 740f47…61bb78ad apns-id … 12 ms`, or the reason and what to do.
    func print(_ result: APNsResult) {
        if json {
            say(Self.encode(ResultLine(result)))
            return
        }
        let token = Self.short(result.deviceToken.hex)
        let latency = "\(Int(result.latency.inMilliseconds.rounded())) ms"
        let attempts = result.attempts > 1 ? " after \(result.attempts) attempts" : ""
        if let status = result.status {
            var line = "\(status) \(token)"
            if let reason = result.reason { line += " \(reason.rawValue)" }
            if let timestamp = result.timestamp, let milliseconds = result.timestampMilliseconds {
                line += " (since \(Self.isoMilliseconds(timestamp)), \(milliseconds) ms)"
            }
            if let id = result.apnsID ?? result.requestedID?.headerValue { line += " apns-id \(id)" }
            line += " \(latency)\(attempts)"
            if let reason = result.reason { line += " — \(result.detail ?? reason.meaning)" }
            say(line)
        } else {
            let id = result.requestedID.map { " apns-id \($0.headerValue)" } ?? ""
            say("--- \(token) \(result.failure?.description ?? "no answer")\(id) \(latency)\(attempts)")
        }
    }

    /// A token that could not be parsed (never sent).
    func rejected(token: String, why: String) {
        if json {
            say(Self.encode(ResultLine(token: token, error: why)))
        } else {
            say("--- \(token): \(why)")
        }
    }

    /// Totals: sent, succeeded, failed by reason, rate.
    func summary(results: [APNsResult], rejected: Int, elapsed: Duration) {
        let seconds = elapsed.inSeconds
        let succeeded = results.filter(\.isSuccess).count
        var failures: [String: Int] = [:]
        for result in results where !result.isSuccess {
            failures[result.reason?.rawValue ?? result.status.map { "HTTP \($0)" } ?? result.failure?.description ?? "no answer", default: 0] += 1
        }
        if rejected > 0 { failures["invalid token", default: 0] += rejected }
        if json {
            let summary = Summary(
                sent: results.count, succeeded: succeeded, failed: results.count - succeeded + rejected, failures: failures,
                seconds: seconds, perSecond: seconds > 0 ? Double(results.count) / seconds : 0
            )
            say(Self.encode(summary))
            return
        }
        var line = "sent \(results.count): \(succeeded) accepted, \(results.count - succeeded + rejected) failed"
        if !failures.isEmpty {
            line += " (" + failures.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ") + ")"
        }
        line += String(format: " in %.2f s", seconds)
        if seconds > 0, results.count > 1 { line += String(format: ", %.0f/s", Double(results.count) / seconds) }
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// A 410 timestamp in ISO 8601 with its milliseconds (`2026-11-24T01:02:03.456Z`).
    static func isoMilliseconds(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    static func short(_ hex: String) -> String {
        hex.count > 16 ? "\(hex.prefix(6))…\(hex.suffix(6))" : hex
    }

    static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    struct ResultLine: Encodable {
        var token: String
        var status: Int?
        var reason: String?
        var apnsID: String?
        var uniqueID: String?
        /// The 410 timestamp as APNs sends it, in milliseconds since 1970.
        var timestamp: Int64?
        /// The same moment in ISO 8601, milliseconds kept.
        var since: String?
        var attempts: Int?
        var latencyMilliseconds: Double?
        var error: String?
        /// Herald's explanation, when it knows more than the reason says.
        var detail: String?

        init(_ result: APNsResult) {
            token = result.deviceToken.hex
            status = result.status
            reason = result.reason?.rawValue
            apnsID = result.apnsID ?? result.requestedID?.headerValue
            uniqueID = result.uniqueID
            timestamp = result.timestampMilliseconds
            since = result.timestamp.map(SendReportPrinter.isoMilliseconds)
            attempts = result.attempts
            latencyMilliseconds = result.latency.inMilliseconds
            error = result.failure?.description
            detail = result.detail
        }

        init(token: String, error: String) {
            self.token = token
            self.error = error
        }
    }

    struct Summary: Encodable {
        var sent: Int
        var succeeded: Int
        var failed: Int
        var failures: [String: Int]
        var seconds: Double
        var perSecond: Double
    }
}
