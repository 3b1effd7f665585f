extension AppExtensionBundle {
    /// An extension whose `NSExtensionPointIdentifier` is missing, or looks meant for a
    /// notification extension point but is not one iOS knows: iOS loads it for nothing, so
    /// the notification it was meant to change arrives unchanged.
    public var extensionPointProblem: PlistProblem? {
        guard case .other(let point) = kind else { return nil }
        let keyPath = "NSExtension.NSExtensionPointIdentifier"
        if point.isEmpty {
            return PlistProblem(severity: .error, extensionName: name, keyPath: keyPath,
                                message: "is missing; a notification extension names \(Kind.serviceIdentifier) or \(Kind.contentIdentifier)")
        }
        let known = [Kind.serviceIdentifier, Kind.contentIdentifier]
        let lowered = point.lowercased()
        guard lowered.contains("notification") || known.contains(where: { Self.editDistance($0, lowered) <= 4 }) else { return nil }
        let nearest = known.min { Self.editDistance($0, lowered) < Self.editDistance($1, lowered) }!
        return PlistProblem(severity: .error, extensionName: name, keyPath: keyPath,
                            message: "\"\(point)\" is not an extension point iOS knows (did you mean \(nearest)?); iOS does not use this extension")
    }

    /// Levenshtein distance over characters (short strings only).
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
