import NIOCore

/// Counts events against a ``FrameBudget`` in fixed windows: the first event opens a window,
/// and the count starts again once the window has passed. One clock read per event.
struct FrameBudgetCounter {
    let budget: FrameBudget
    private var windowStart: NIODeadline = .distantPast
    private var used = 0

    init(_ budget: FrameBudget) {
        self.budget = budget
    }

    /// Records one event at `now`; false once the budget for the current window is spent.
    mutating func spend(now: NIODeadline = .now()) -> Bool {
        if now - windowStart > budget.window {
            windowStart = now
            used = 0
        }
        used += 1
        return used <= budget.count
    }
}
