/// Chooses a payload variant for a device's locale: the exact tag, then shorter prefixes
/// (`zh-Hans-CN` → `zh-Hans` → `zh`), then the fallback. Tags compare case-insensitively, with
/// `_` read as `-`.
enum LocaleMatcher {
    /// `zh_hans_cn` → `zh-hans-cn`: the form variants and devices are compared in.
    static func canonical(_ tag: String) -> String {
        tag.replacingOccurrences(of: "_", with: "-").lowercased()
    }

    static func isLanguageTag(_ text: String) -> Bool {
        let parts = canonical(text).split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        return text.count <= 35 && parts.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }

    /// The key of `variants` (canonical tags) to use for `locale`, or `nil` for the fallback.
    static func match(_ locale: String?, in variants: Set<String>) -> String? {
        guard let locale, !variants.isEmpty else { return nil }
        var parts = canonical(locale).split(separator: "-")
        while !parts.isEmpty {
            let candidate = parts.joined(separator: "-")
            if variants.contains(candidate) { return candidate }
            parts.removeLast()
        }
        return nil
    }
}
