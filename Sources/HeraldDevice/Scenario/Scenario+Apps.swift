extension Scenario.Action {
    /// The app the step names with `app:` (or an expectation's `app:`), if any.
    var appReference: String? {
        switch self {
        case .push(_, _, let app), .local(_, let app), .cancel(_, let app), .state(_, _, let app), .settings(_, let app),
             .expectBadge(_, let app), .register(_, _, _, let app), .online(_, let app), .laterState(_, let app, _),
             .removeDelivered(_, let app), .removeAllPending(let app), .setBadge(_, let app), .expectPending(_, let app),
             .expectDelivered(_, let app):
            return app
        case .expect(let expectation), .expectNot(let expectation):
            return expectation.app
        case .advance, .lock, .expand, .tap, .dismiss, .render, .receive, .laterLock, .timeZone, .languages, .lowPowerMode:
            return nil
        }
    }
}
