import Foundation
import HeraldCore
import HTTPTypes
import Hummingbird
import NIOCore

/// Reading request bodies and writing JSON answers, with errors that say what was wrong.
enum JSONBody {
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try encoder().encode(value)
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"], body: ResponseBody(byteBuffer: ByteBuffer(bytes: data))
        )
    }

    /// The body's bytes, refused with 413 above `limit`.
    static func bytes(of request: Request, limit: Int) async throws -> [UInt8] {
        do {
            let buffer = try await request.body.collect(upTo: limit)
            return Array(buffer.readableBytesView)
        } catch is NIOTooManyBytesError {
            throw APIError(.contentTooLarge, code: "body_too_large", "the request body is larger than \(limit) bytes")
        }
    }

    /// Decodes a JSON body as `type`, turning decoding errors into 400s that name the field.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, limit: Int) async throws -> T {
        let bytes = try await bytes(of: request, limit: limit)
        if bytes.isEmpty { throw APIError.badRequest("the request needs a JSON body") }
        return try decode(type, from: Data(bytes))
    }

    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        // Read once more, keeping order and exact numbers, only for what needs it.
        let parsed = type is any KnownFields.Type || type is any PayloadsAsWritten.Type ? try? JSONParser().parse(Array(data)) : nil
        if let known = type as? any KnownFields.Type, let parsed {
            try known.check(parsed)
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            let decoded = try decoder.decode(type, from: data)
            if var written = decoded as? any PayloadsAsWritten, let body = parsed?.objectValue {
                written.keepPayloads(asWritten: body)
                return written as! T
            }
            return decoded
        } catch let error as APIError {
            throw error
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty { throw APIError.badRequest("the body is not valid JSON") }
            throw APIError.badRequest(message(for: error))
        } catch {
            throw APIError.badRequest("the body could not be read: \(error)")
        }
    }

    /// What a decoding error means, naming the field by its path; `droppingFirst` leaves out
    /// the path's first keys (an item's index in a list answered item by item).
    static func message(for error: DecodingError, droppingFirst dropped: Int = 0) -> String {
        switch error {
        case .keyNotFound(let key, let context):
            return "missing field '\(path(Array((context.codingPath + [key]).dropFirst(dropped))))'"
        case .typeMismatch(let expected, let context):
            return "field '\(path(Array(context.codingPath.dropFirst(dropped))))' must be \(describe(expected))"
        case .valueNotFound(let expected, let context):
            return "field '\(path(Array(context.codingPath.dropFirst(dropped))))' must be \(describe(expected)), not null"
        case .dataCorrupted(let context):
            return "field '\(path(Array(context.codingPath.dropFirst(dropped))))': \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    static func path(_ keys: [any CodingKey]) -> String {
        keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingCharacters(in: CharacterSet(charactersIn: "."))
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type: "an integer"
        case is Double.Type: "a number"
        case is Bool.Type: "true or false"
        case is [Any].Type: "an array"
        default: String(describing: type).hasPrefix("Array") ? "an array" : "an object"
        }
    }
}

/// A decoding failure a model type raises itself, with its own words.
struct FieldError: Error {
    let message: String
}
