import HeraldDevice

/// Runs the shipped steps of scenarios and `herald device explain --extension` with HeraldKit's
/// code: the same `HeraldNotificationService` an app ships, not a second implementation.
///
/// ```swift
/// let report = await ScenarioRunner(extensions: ShippedExtensions()).run(scenario)
/// ```
public struct ShippedExtensions: ServiceExtensionMaker {
    public init() {}

    public func serviceExtension(for recipe: ServiceExtensionRecipe, app: AppBundle) -> any NotificationServiceExtension {
        RecipeServiceExtension(recipe: recipe)
    }
}
