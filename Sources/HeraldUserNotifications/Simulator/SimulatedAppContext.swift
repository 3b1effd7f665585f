/// For the simulator's own modules: running code that belongs to no app.
package enum SimulatedAppContext {
    /// Runs `body` so that notification code in it (`INInteraction.donate`, attachment refusals)
    /// reaches no app's transcript, not even the app launched last.
    package static func withoutApp<T>(isolation: isolated (any Actor)? = #isolation, _ body: () async -> T) async -> T {
        await AppRuntime.$noApp.withValue(true, operation: body, isolation: isolation)
    }
}
