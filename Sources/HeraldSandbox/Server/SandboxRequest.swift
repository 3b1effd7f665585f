/// An HTTP/2 request as the sandbox received it.
struct SandboxRequest {
    var method: String
    var path: String
    /// Regular header fields (pseudo-headers removed), lowercase names, in order.
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    func header(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }
}
