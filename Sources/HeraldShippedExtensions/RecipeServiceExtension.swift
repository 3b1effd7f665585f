import Foundation
import HeraldDevice
import HeraldKit
import HeraldUserNotifications

/// A recipe's steps on one best attempt, in virtual time: the download and decrypt and
/// communication steps are HeraldKit's (``SimulatedHeraldService``), the others (title,
/// category, wait) the seeds' own small changes. Done when the steps are; then the content
/// handler is called (unless the recipe never answers).
struct RecipeServiceExtension: NotificationServiceExtension {
    let recipe: ServiceExtensionRecipe

    var name: String { recipe.name }

    func didReceive(_ context: ServiceExtensionContext) async {
        await SimulatedAppContext.withoutApp { await run(context) }
    }

    private func run(_ context: ServiceExtensionContext) async {
        let request = UNNotificationRequest(device: context.request, userInfo: context.payload.json, app: context.app, remote: true)
        guard let content = request.content.mutableCopy() as? UNMutableNotificationContent else { return }
        var delivered: UNNotificationContent = content
        for step in recipe.steps {
            if Task.isCancelled { return }
            switch step {
            case .rewriteTitle(let format, let subtitle, let body):
                content.title = format.replacingOccurrences(of: "%@", with: content.title)
                if let subtitle { content.subtitle = subtitle }
                if let body { content.body = body }
                context.log("title rewritten to \"\(content.title)\"")
            case .setCategory(let category):
                content.categoryIdentifier = category
                context.log("category set to \"\(category)\"")
            case .wait(let seconds):
                context.spend(seconds)
                context.log("worked for \(seconds.formattedSeconds) (virtual)")
            case .downloadMedia(let keyPaths, let identifier):
                await SimulatedHeraldService(context: context, mediaKeyPaths: keyPaths, attachmentIdentifier: identifier).attachMedia(to: content)
            case .decrypt(let privateKey):
                SimulatedHeraldService(context: context, privateKey: privateKey).openSealedAlert(in: content)
            case .registerCategories(let categories):
                await context.setNotificationCategories(categories)
                context.log("setNotificationCategories: \(categories.map(\.identifier).joined(separator: ", "))")
            case .suppress:
                delivered = UNNotificationContent()
                context.log("delivers empty content to suppress the notification")
            case .communication:
                if let updated = await SimulatedHeraldService(context: context).communicationContent(for: content) { delivered = updated }
            }
            let best = (delivered === content ? content : delivered).deviceContent
            context.updateBestAttempt { $0 = best }
        }
        if recipe.answers { context.contentHandler((delivered === content ? content : delivered).deviceContent) }
    }

    func serviceExtensionTimeWillExpire(_ context: ServiceExtensionContext) {
        if recipe.answers { context.contentHandler(context.bestAttemptContent) }
    }
}
