import Foundation

/// Whether an interaction came to the user or went from them (Apple's `INInteractionDirection`).
public enum INInteractionDirection: Int, Sendable {
    case unspecified = 0
    case outgoing = 1
    case incoming = 2
}

/// An intent the user took part in (Apple's `INInteraction`). Donating a message intent before
/// `updating(from:)` is what iOS asks of communication notifications.
public class INInteraction: NSObject, @unchecked Sendable {
    public let intent: INIntent
    public let intentResponse: INIntentResponse?
    public var identifier: String?
    public var groupIdentifier: String?
    public var direction = INInteractionDirection.unspecified

    public init(intent: INIntent, response: INIntentResponse?) {
        self.intent = intent
        self.intentResponse = response
        super.init()
    }

    /// Gives the interaction to the system (which keeps it for Siri suggestions and sharing).
    public func donate(completion: (@Sendable ((any Error)?) -> Void)? = nil) {
        let runtime = AppRuntime.running
        let name = (intent as? INSendMessageIntent)?.sender?.displayName
        Task {
            await runtime?.note("donated an INInteraction with \(type(of: intent))" + (name.map { " from \"\($0)\"" } ?? ""),
                                details: ["call": "donate", "intent": "\(type(of: intent))"])
            completion?(nil)
        }
    }

    public func donate() async throws {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in donate { _ in done.resume() } }
    }
}
