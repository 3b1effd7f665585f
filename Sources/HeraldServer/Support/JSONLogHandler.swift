import Foundation
import HeraldCore
import Logging
import Synchronization

/// Writes each log message as one JSON object per line (`--log-format json`), for log shippers:
/// `{"time", "level", "label", "message", …metadata}` with the metadata's own keys (the request
/// log's `request_id`, `app`, `client`, `ms`). Lines go to standard error by default.
public struct JSONLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let write: @Sendable (String) -> Void

    /// - Parameter write: takes each line, newline included (one line at a time).
    public init(label: String, write: (@Sendable (String) -> Void)? = nil) {
        self.label = label
        self.write = write ?? Self.standardError
    }

    /// Standard error, a whole line per write under a lock, so lines of two threads never mix.
    private static let standardError: @Sendable (String) -> Void = {
        let lock = Mutex(())
        return { line in lock.withLock { _ in FileHandle.standardError.write(Data(line.utf8)) } }
    }()

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let given = event.metadata { merged.merge(given) { _, new in new } }
        var object: JSONObject = [
            "time": .string(Date().formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))),
            "level": .string(event.level.rawValue), "label": .string(label), "message": .string(event.message.description),
        ]
        for (key, value) in merged.sorted(by: { $0.key < $1.key }) where object[key] == nil {
            object[key] = Self.json(value)
        }
        if let error = event.error { object["error"] = .string("\(error)") }
        write(JSONValue.object(object).jsonString + "\n")
    }

    static func json(_ value: Logger.Metadata.Value) -> JSONValue {
        switch value {
        case .string(let text): .string(text)
        case .stringConvertible(let convertible): .string(convertible.description)
        case .array(let values): .array(values.map(json))
        case .dictionary(let members): .object(JSONObject(members.sorted { $0.key < $1.key }.map { .init(key: $0.key, value: json($0.value)) }))
        }
    }
}
