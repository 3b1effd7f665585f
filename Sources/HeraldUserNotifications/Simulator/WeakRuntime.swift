/// A reference from the device back to an app's runtime that does not keep the app alive: the
/// runtime holds the device, and the device holds the app's bridges.
struct WeakRuntime: Sendable {
    weak var value: AppRuntime?

    init(_ value: AppRuntime?) {
        self.value = value
    }
}
