/// One job of a shipped service extension; steps run in order on the same best attempt.
public protocol ServiceExtensionStep: Sendable {
    /// The name scenarios use, e.g. `download-media`.
    var name: String { get }
    func apply(_ context: ServiceExtensionContext) async
}

/// A service extension made of shipped steps: each changes the best attempt, then the content
/// handler is called with it (what the seeds' hand-written extensions do).
public struct ComposedServiceExtension: NotificationServiceExtension {
    public var steps: [any ServiceExtensionStep]
    /// When false, the extension never calls its content handler, not even when time runs out
    /// (the original content is then shown).
    public var answers: Bool

    public init(steps: [any ServiceExtensionStep], answers: Bool = true) {
        self.steps = steps
        self.answers = answers
    }

    public var name: String { steps.isEmpty ? "pass-through" : steps.map(\.name).joined(separator: " + ") }

    public func didReceive(_ context: ServiceExtensionContext) async {
        for step in steps {
            if Task.isCancelled { return }
            await step.apply(context)
        }
        if answers { context.contentHandler(context.bestAttemptContent) }
    }

    public func serviceExtensionTimeWillExpire(_ context: ServiceExtensionContext) {
        if answers { context.contentHandler(context.bestAttemptContent) }
    }
}
