import Foundation
import HeraldCore

/// Reads a device file for `herald serve import` a line at a time: NDJSON (one JSON object per
/// line, as `PUT /v1/devices` takes each item) or CSV with a header row naming the fields
/// (`tags` separated by `;`). Each record comes with its line number, or with what is wrong
/// with it.
struct DeviceFileReader {
    enum Format: String, CaseIterable {
        case ndjson, csv
    }

    /// One line's device as JSON text, or why it cannot be sent.
    struct Record {
        var line: Int
        var json: Result<String, CommandError>
    }

    /// The CSV columns allowed, as the API names the fields.
    static let csvColumns = ["token", "environment", "kind", "userId", "tags", "locale", "timeZone", "appVersion", "encryptionKey"]

    let format: Format
    private let handle: FileHandle
    private var pending: [UInt8] = []
    /// Where the next line starts in `pending`.
    private var offset = 0
    private var finished = false
    private(set) var line = 0
    /// Bytes read so far, for progress.
    private(set) var bytesRead = 0
    private var columns: [String]?

    init(path: String, format: Format) throws(CommandError) {
        guard let handle = path == "-" ? FileHandle.standardInput : FileHandle(forReadingAtPath: path) else {
            throw CommandError("cannot read '\(path)'")
        }
        self.handle = handle
        self.format = format
    }

    /// The next record, nil at the end. A CSV header that names an unknown column is an error
    /// for the whole file.
    mutating func next() throws(CommandError) -> Record? {
        while let text = nextLine() {
            if text.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            switch format {
            case .ndjson:
                guard let value = try? JSONParser().parse(Array(text.utf8)), case .object = value else {
                    return Record(line: line, json: .failure(CommandError("not a JSON object")))
                }
                return Record(line: line, json: .success(text))
            case .csv:
                guard let columns else {
                    let header = Self.cells(of: text).map { $0.trimmingCharacters(in: .whitespaces) }
                    if let unknown = header.first(where: { !Self.csvColumns.contains($0) }) {
                        throw CommandError("line \(line): unknown column '\(unknown)'; allowed: \(Self.csvColumns.joined(separator: ", "))")
                    }
                    guard header.contains("token") else { throw CommandError("line \(line): the header needs a token column") }
                    self.columns = header
                    continue
                }
                return Record(line: line, json: Self.json(columns: columns, cells: Self.cells(of: text)).map { $0 }.mapError { CommandError($0.description) })
            }
        }
        return nil
    }

    private mutating func nextLine() -> String? {
        while true {
            if let end = pending[offset...].firstIndex(of: UInt8(ascii: "\n")) {
                var lineBytes = pending[offset..<end]
                if lineBytes.last == UInt8(ascii: "\r") { lineBytes = lineBytes.dropLast() }
                offset = end + 1
                return finish(lineBytes)
            }
            if finished {
                guard offset < pending.count else { return nil }
                let rest = pending[offset...]
                offset = pending.count
                return finish(rest)
            }
            pending.removeSubrange(..<offset)
            offset = 0
            let chunk = (try? handle.read(upToCount: 1 << 20)) ?? nil
            if let chunk, !chunk.isEmpty {
                pending += chunk
                bytesRead += chunk.count
            } else {
                finished = true
            }
        }
    }

    /// A line's text; the first loses a UTF-8 byte order mark (spreadsheets write one).
    private mutating func finish(_ bytes: ArraySlice<UInt8>) -> String {
        line += 1
        var bytes = bytes
        if line == 1, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A CSV line's cells: commas separate, double quotes enclose (`""` is a quote).
    static func cells(of text: String) -> [String] {
        var cells: [String] = []
        var cell = ""
        var quoted = false
        var characters = text.makeIterator()
        while let character = characters.next() {
            if quoted {
                if character == "\"" {
                    if let following = characters.next() {
                        if following == "\"" { cell.append("\"") } else {
                            quoted = false
                            if following == "," { cells.append(cell); cell = "" } else { cell.append(following) }
                        }
                    } else {
                        quoted = false
                    }
                } else {
                    cell.append(character)
                }
            } else if character == "\"" && cell.isEmpty {
                quoted = true
            } else if character == "," {
                cells.append(cell)
                cell = ""
            } else {
                cell.append(character)
            }
        }
        cells.append(cell)
        return cells
    }

    /// A CSV row as the API's JSON object; empty cells are left out.
    static func json(columns: [String], cells: [String]) -> Result<String, CommandError> {
        guard cells.count <= columns.count else { return .failure(CommandError("\(cells.count) cells for \(columns.count) columns")) }
        var object = JSONObject()
        for (column, cell) in zip(columns, cells) where !cell.isEmpty {
            if column == "tags" {
                object[column] = .array(cell.split(separator: ";").map { .string($0.trimmingCharacters(in: .whitespaces)) })
            } else {
                object[column] = .string(cell)
            }
        }
        return .success(JSONValue.object(object).jsonString)
    }
}
