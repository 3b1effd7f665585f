/// Carries a value that is not `Sendable` (an app's object or closure) across a task boundary,
/// as the system does when it calls app code on its own queues. Used only where the value is
/// handed over once and not touched by the sender afterwards.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
