import HeraldCore

/// The last request a connection had linted, with its outcome. Providers send one payload with
/// the same headers to many devices, so a connection lints such a request once: later ones that
/// match it (headers in order, the body byte for byte; apns-id values may differ, as long as
/// each is a valid UUID) take the same answer.
struct LintMemo {
    let headers: [(name: String, value: String)]
    let body: [UInt8]
    /// The APNs reason of the first lint error, or `nil` when lint found none.
    let reason: APNsReason?

    /// Whether a request with these headers (without `authorization`) and body lints the same.
    /// Both `apns-id` values must have been checked valid by the caller.
    func matches(headers other: [(name: String, value: String)], body otherBody: [UInt8]) -> Bool {
        guard other.count == headers.count, otherBody == body else { return false }
        for (mine, theirs) in zip(headers, other) {
            guard mine.name == theirs.name else { return false }
            if mine.name == HeaderName.id { continue }
            guard mine.value == theirs.value else { return false }
        }
        return true
    }
}
