import Foundation

/// A JSON answer of the admin API.
struct AdminResponse {
    var status: Int
    var body: [UInt8]

    static func json(_ status: Int, _ value: some Encodable) -> AdminResponse {
        do {
            return AdminResponse(status: status, body: Array(try AdminRouter.encoder.encode(value)))
        } catch {
            return .error(500, "encoding_failed", "could not encode the answer: \(error)")
        }
    }

    /// `{"error": {"code": …, "message": …}}`.
    static func error(_ status: Int, _ code: String, _ message: String) -> AdminResponse {
        let body = ["error": ["code": code, "message": message]]
        return AdminResponse(status: status, body: Array((try? AdminRouter.encoder.encode(body)) ?? Data()))
    }
}
