import Foundation
import Synchronization

/// Runs a service extension as iOS does: 30 s of virtual time to call the content handler, then
/// `serviceExtensionTimeWillExpire`, then the original content.
struct ServiceExtensionRunner: Sendable {
    /// How the run ended.
    enum Outcome: Sendable {
        /// The content handler was called in time, after `seconds` of virtual time.
        case finished(NotificationContent, seconds: Double)
        /// Time ran out and `serviceExtensionTimeWillExpire` delivered this best attempt.
        case bestAttempt(NotificationContent)
        /// Nothing was delivered: the original content is shown.
        case original
    }

    /// Virtual seconds an extension gets.
    static let budget = 30.0
    /// Real time after which an extension that neither answers nor returns is given up on.
    var realTimeLimit: Duration

    func run(_ serviceExtension: any NotificationServiceExtension, context: ServiceExtensionContext) async -> Outcome {
        var limit = realTimeLimit
        if let scale = serviceExtension.virtualSecondsPerRealSecond {
            context.startRealClock(scale: scale)
            limit = .milliseconds(Int64((context.budget / scale * 1000).rounded(.up)))
        }
        let task = await waitForAnswer(serviceExtension, context: context, limit: limit,
                                       returningEnds: serviceExtension.virtualSecondsPerRealSecond == nil)
        if let delivered = context.delivered, delivered.at <= context.budget {
            return .finished(delivered.content, seconds: delivered.at)
        }
        task.cancel()
        context.closeDelivery()
        if context.delivered == nil { context.openForExpiry() }
        serviceExtension.serviceExtensionTimeWillExpire(context)
        context.closeDelivery()
        if let delivered = context.delivered { return .bestAttempt(delivered.content) }
        return .original
    }

    /// Returns once the extension delivers, returns from `didReceive` (when `returningEnds`), or
    /// the real-time limit passes.
    private func waitForAnswer(
        _ serviceExtension: any NotificationServiceExtension, context: ServiceExtensionContext, limit: Duration, returningEnds: Bool
    ) async -> Task<Void, Never> {
        let resumed = Mutex(false)
        let box = Mutex<Task<Void, Never>?>(nil)
        let guardTask = Mutex<Task<Void, Never>?>(nil)
        defer { guardTask.withLock { $0?.cancel() } }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resume: @Sendable () -> Void = {
                let first = resumed.withLock { done in
                    defer { done = true }
                    return !done
                }
                if first { continuation.resume() }
            }
            context.onDelivery(resume)
            let work = Task {
                await serviceExtension.didReceive(context)
                if returningEnds { resume() }
            }
            box.withLock { $0 = work }
            let timer = Task {
                try? await Task.sleep(for: limit)
                if !Task.isCancelled { resume() }
            }
            guardTask.withLock { $0 = timer }
        }
        return box.withLock { $0! }
    }
}
