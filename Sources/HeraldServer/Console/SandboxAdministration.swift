/// The in-process sandbox as the App Server's console sees it: its admin API, called in
/// process. `herald serve` hands one to the server when it runs a sandbox, so HeraldServer does
/// not depend on HeraldSandbox.
public protocol SandboxAdministration: Sendable {
    /// One admin API call (`GET /devices`, `PUT /faults`…): the status and the JSON answered.
    func administer(method: String, uri: String, body: [UInt8]) async -> (status: Int, body: [UInt8])
}
