import HeraldSandbox
import HeraldServer

/// The sandbox `herald serve` runs in its process, as the console's Sandbox page reaches it.
struct InProcessSandbox: SandboxAdministration {
    let sandbox: Sandbox

    func administer(method: String, uri: String, body: [UInt8]) async -> (status: Int, body: [UInt8]) {
        sandbox.administer(method: method, uri: uri, body: body)
    }
}
