/// Chooses a notification's payload variant for a device's locale, by BCP 47 language tags filled in
/// with their likely subtags (``LikelySubtags``): `zh-TW` is `zh-Hant-TW`, `zh` is `zh-Hans-CN`.
///
/// 1. A variant whose tag is the device's own tag (`_` read as `-`, any case).
/// 2. Else, among variants of the same language and script: the one whose region is also the
///    device's (`zh-TW` → `zh-Hant`; `en-US` → `en`).
/// 3. Else, still same language and script, the nearest region: a macro-region containing the
///    device's (`es-419` for `es-MX`), then a variant naming no region (`en` for `en-AU`), then one in
///    the same regional group (`en-GB` for `en-AU`, `zh-Hant-HK` for `zh-MO`, `pt-PT` for `pt-AO`),
///    then the language's default region (`en-US`, `pt-BR`), then any other (`pt-BR` for `pt-PT`).
/// 4. Else, for Cantonese only, the same steps with Chinese of the same script (`yue-HK` → `zh-Hant`).
/// 5. Else `nil`: the fallback payload.
///
/// A different script never matches: `zh-TW` gets neither `zh-Hans` nor a bare `zh` (Simplified),
/// `sr-Latn` not `sr` (Cyrillic). Deprecated codes are read as their replacements (`iw` = `he`,
/// `no` = `nb`). A language the table does not know has an unknown script, so only its language
/// and region count. Ties go to the variant naming more subtags, then to the smaller key, so the
/// choice never depends on the order of a `Set`. A variant with variant subtags (`ca-valencia`) is
/// only chosen for a device with the same ones; extensions (`-u-…`, `-x-…`) are ignored.
enum LocaleMatcher {
    typealias Subtag = LikelySubtags.Subtag
    typealias Tag = LikelySubtags.Tag

    /// Longer locales are not language tags worth reading: they never match.
    static let maximumLength = 64

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
        guard let locale, !variants.isEmpty, let device = ParsedTag(locale) else { return nil }
        let exact = device.isCanonical ? locale : canonical(locale)
        if variants.contains(exact) { return exact }
        let wanted = LikelySubtags.maximize(device.tag)
        if let key = closest(to: wanted, variantSubtags: device.variantSubtags, in: variants) { return key }
        if let language = fallbackLanguages[wanted.language] {
            let nearby = Tag(language: language, script: wanted.script, region: wanted.region)
            return closest(to: nearby, variantSubtags: device.variantSubtags, in: variants)
        }
        return nil
    }

    /// The best key of `variants` in `wanted`'s language and script (steps 2 and 3), if any.
    private static func closest(to wanted: Tag, variantSubtags: [Subtag], in variants: Set<String>) -> String? {
        let formerCodes = LikelySubtags.deprecatedCodes(of: wanted.language)
        var defaultRegion: Subtag?
        var best: (key: String, score: Int)?
        for key in variants {
            // Most keys are other languages: skip them before reading the whole tag.
            guard let language = ParsedTag.language(of: key), language == wanted.language || (!formerCodes.isEmpty && formerCodes.contains(language)),
                  let variant = ParsedTag(key), variant.variantSubtags.isEmpty || variant.variantSubtags == variantSubtags
            else { continue }
            let given = LikelySubtags.replacingAlias(variant.tag)
            let offered = LikelySubtags.maximize(given)
            // Known languages always have a script once maximised; an unknown one may have none.
            guard offered.script == wanted.script || offered.script.isNone || wanted.script.isNone else { continue }
            var score: Int
            if offered.region == wanted.region {
                score = 50
            } else if !given.region.isNone, contains(given.region, wanted.region) {
                score = 40
            } else if given.region.isNone {
                score = 30
            } else if sameGroup(offered.region, wanted.region, of: wanted) {
                score = 20
            } else {
                // `none` for a language outside the table: it has no default region.
                let region = defaultRegion ?? LikelySubtags.maximize(Tag(language: wanted.language, script: wanted.script)).region
                defaultRegion = region
                score = !region.isNone && offered.region == region ? 10 : 0
            }
            if !variant.variantSubtags.isEmpty { score += 4 }
            if !given.script.isNone { score += 1 }
            if !given.region.isNone { score += 1 }
            if let current = best, current.score > score || (current.score == score && current.key < key) { continue }
            best = (key, score)
        }
        return best?.key
    }

    // MARK: - Regions

    /// Whether macro-region `area` (`001` world, `419` Latin America, `019` the Americas) contains `region`.
    private static func contains(_ area: Subtag, _ region: Subtag) -> Bool {
        if area == world { return true }
        if area == latinAmericaCode { return latinAmerica.contains(region) }
        if area == americasCode { return latinAmerica.contains(region) || northernAmerica.contains(region) }
        return false
    }

    /// Whether two regions fall on the same side of the language's regional split, after CLDR's
    /// language matching: American vs other English, Spanish and Portuguese of the Americas vs the
    /// rest, Traditional Chinese of Hong Kong and Macao vs Taiwan.
    private static func sameGroup(_ first: Subtag, _ second: Subtag, of wanted: Tag) -> Bool {
        guard let members = regionGroups[Tag(language: wanted.language, script: wanted.script)] else { return false }
        return members.contains(first) == members.contains(second)
    }

    private static let world = Subtag("001")!
    private static let latinAmericaCode = Subtag("419")!
    private static let americasCode = Subtag("019")!

    private static let latinAmerica = regions("""
        ag ai ar aw bb bl bo bq br bs bz cl co cr cu cw dm do ec fk gd gf gp gt gy hn ht jm kn ky lc mf
        mq ms mx ni pa pe pr py sr sv sx tc tt uy vc ve vg vi 419
        """)
    private static let northernAmerica = regions("bm ca gl pm us 021 019")

    private static let regionGroups: [Tag: Set<Subtag>] = [
        Tag("en-Latn")!: regions("us as gu mh mp pr um vi"),
        Tag("es-Latn")!: latinAmerica.union(northernAmerica),
        Tag("pt-Latn")!: latinAmerica.union(northernAmerica),
        Tag("zh-Hant")!: regions("hk mo"),
    ]

    /// Languages whose readers are better served by another language's variant than by the
    /// fallback, tried only when their own language has no variant: Cantonese readers read written
    /// Chinese of the same script.
    private static let fallbackLanguages: [Subtag: Subtag] = [Subtag("yue")!: Subtag("zh")!]

    private static func regions(_ text: String) -> Set<Subtag> {
        Set(text.split(whereSeparator: \.isWhitespace).map { Subtag($0)! })
    }
}

/// A BCP 47 language tag read for matching: language (an extended language subtag, as in `zh-yue`,
/// replaces it), script, region and variant subtags; extensions and private use are skipped. Reads
/// bytes without allocating; `nil` for anything malformed, non-ASCII or longer than
/// ``LocaleMatcher/maximumLength``.
private struct ParsedTag {
    var tag = LikelySubtags.Tag(language: .none)
    var variantSubtags: [LikelySubtags.Subtag] = []
    /// Whether the text is already lowercase with `-` (what ``LocaleMatcher/canonical(_:)`` gives).
    var isCanonical = true

    private enum Stage: Int, Comparable {
        case language, extlang, script, region, variant, extensions
        static func < (lhs: Stage, rhs: Stage) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The language of a tag as ``init(_:)`` reads it (`zh` of `zh-Hant-TW`, `yue` of
    /// `zh-yue-HK`) without reading the rest; `nil` if it does not start with 2 or 3 ASCII letters.
    static func language(of text: String) -> LikelySubtags.Subtag? {
        var first: UInt64 = 0
        var second: UInt64 = 0
        var inSecond = false
        var count = 0
        var secondIsLetters = true
        for byte in text.utf8 {
            if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") {
                if inSecond { break }
                guard count == 2 || count == 3 else { return nil }
                inSecond = true
                count = 0
                continue
            }
            guard let lower = LikelySubtags.Subtag.lowercased(byte) else { return nil }
            let isLetter = lower > UInt8(ascii: "9")
            if !inSecond {
                guard count < 3, isLetter else { return nil }
                first |= UInt64(lower) << (8 * count)
            } else {
                secondIsLetters = secondIsLetters && isLetter
                if count < 3 { second |= UInt64(lower) << (8 * count) }
            }
            count += 1
        }
        if !inSecond { return count == 2 || count == 3 ? LikelySubtags.Subtag(raw: first) : nil }
        return LikelySubtags.Subtag(raw: count == 3 && secondIsLetters ? second : first)
    }

    init?(_ text: String) {
        let bytes = text.utf8
        guard !bytes.isEmpty, bytes.count <= LocaleMatcher.maximumLength else { return nil }
        var stage = Stage.language
        var raw: UInt64 = 0
        var count = 0
        var letters = true
        var digits = true
        var startsWithDigit = false
        var iterator = bytes.makeIterator()
        while true {
            let byte = iterator.next()
            if let byte, byte != UInt8(ascii: "-"), byte != UInt8(ascii: "_") {
                guard count < 8, let lower = LikelySubtags.Subtag.lowercased(byte) else { return nil }
                if lower != byte { isCanonical = false }
                let isDigit = lower <= UInt8(ascii: "9")
                if count == 0 { startsWithDigit = isDigit }
                letters = letters && !isDigit
                digits = digits && isDigit
                raw |= UInt64(lower) << (8 * count)
                count += 1
                continue
            }
            // The end of a subtag.
            guard count > 0 else { return nil }
            if byte == UInt8(ascii: "_") { isCanonical = false }
            let subtag = LikelySubtags.Subtag(raw: raw)
            if stage == .extensions {
                // Skipped, only checked to be well formed.
            } else if stage == .language {
                guard letters, count == 2 || count == 3 else { return nil }
                tag.language = subtag
                stage = .extlang
            } else if count == 1 {
                stage = .extensions
            } else if stage == .extlang, count == 3, letters {
                tag.language = subtag
                stage = .script
            } else if stage <= .script, count == 4, letters {
                tag.script = subtag
                stage = .region
            } else if stage <= .region, (count == 2 && letters) || (count == 3 && digits) {
                tag.region = subtag
                stage = .variant
            } else if count >= 5 || (count == 4 && startsWithDigit) {
                variantSubtags.append(subtag)
                stage = .variant
            } else {
                return nil
            }
            guard byte != nil else { break }
            raw = 0
            count = 0
            letters = true
            digits = true
        }
    }
}
