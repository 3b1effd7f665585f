/// An HTTP/2 request as the sandbox received it.
struct SandboxRequest {
    var method: String
    var path: String
    /// Regular header fields (pseudo-headers and `authorization` removed), lowercase names, in order.
    var headers: [(name: String, value: String)]
    /// The `authorization` field, if sent.
    var authorization: String?
    var body: [UInt8]

    init(method: String, path: String, headers: [(name: String, value: String)], authorization: String? = nil, body: [UInt8]) {
        self.method = method
        self.path = path
        self.headers = headers
        self.authorization = authorization
        self.body = body
    }

    func header(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }
}
