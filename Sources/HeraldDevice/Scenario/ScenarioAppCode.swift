/// The developer's own code for a scenario's apps (HeraldUserNotifications' `AppCode`): once the
/// scenario has installed an app, its service extension, content extensions and delegate are
/// replaced by the developer's types registered under the names the app folder uses.
public protocol ScenarioAppCode: Sendable {
    /// Attaches the code to an installed app; what it returns is kept alive for the run (`nil`
    /// when nothing is registered for this app).
    func attach(to app: AppBundle, on device: SimulatedDevice) async throws -> (any Sendable)?
}
