/// What runs for an app whose bundle declares a service extension but whose code was not given:
/// it changes nothing and hands the content over at once.
public struct PassThroughServiceExtension: NotificationServiceExtension {
    public init() {}

    public var name: String { "pass-through" }

    public func didReceive(_ context: ServiceExtensionContext) async {
        context.contentHandler(context.bestAttemptContent)
    }
}

extension Double {
    /// `5 s`, `0.25 s`.
    package var formattedSeconds: String {
        guard isFinite else { return "\(self) s" }
        return (self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(format: "%.2f", self)) + " s"
    }
}
