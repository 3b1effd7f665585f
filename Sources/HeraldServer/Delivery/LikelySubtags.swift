/// The most likely script and region of a language tag, after the idea of CLDR's "likely subtags"
/// (Unicode TR35, Part 1, section 4.3): `zh` is most likely written in Simplified Han in China, so it
/// maximises to `zh-Hans-CN`; `zh-TW` to `zh-Hant-TW`; `zh-Hant` to `zh-Hant-TW`; `sr` to
/// `sr-Cyrl-RS`; `en` to `en-Latn-US`. Deprecated language codes are replaced first (`iw` → `he`,
/// `in` → `id`, `no` → `nb`, `sh` → `sr-Latn`…).
///
/// This is a compact table written for Herald, not CLDR's data: the languages iOS offers and their
/// neighbours, and the languages written in more than one script (zh, yue, sr, bs, uz, az, pa, mn,
/// ms, kk, sd…). Other languages are left as given: their script stays unknown. Subtags are packed
/// into integers (``Subtag``), so maximising a tag neither allocates nor hashes strings.
enum LikelySubtags {
    /// A subtag of 1 to 8 ASCII letters or digits, lowercased and packed into an integer (first
    /// character in the low byte); ``none`` stands for an absent subtag.
    struct Subtag: Hashable, Sendable, CustomStringConvertible {
        var raw: UInt64

        static let none = Subtag(raw: 0)

        init(raw: UInt64) { self.raw = raw }

        /// `nil` unless `text` is 1 to 8 ASCII letters or digits.
        init?(_ text: some StringProtocol) {
            var raw: UInt64 = 0
            var count = 0
            for byte in text.utf8 {
                guard count < 8, let lower = Self.lowercased(byte) else { return nil }
                raw |= UInt64(lower) << (8 * count)
                count += 1
            }
            guard count > 0 else { return nil }
            self.raw = raw
        }

        /// `byte` lowercased if it is an ASCII letter or digit, else `nil`.
        @inline(__always)
        static func lowercased(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): byte
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte | 0x20
            default: nil
            }
        }

        var isNone: Bool { raw == 0 }
        /// The number of characters.
        var count: Int { (64 - raw.leadingZeroBitCount + 7) / 8 }

        var description: String {
            String(decoding: (0..<count).map { UInt8(truncatingIfNeeded: raw >> (8 * $0)) }, as: UTF8.self)
        }
    }

    /// Language, script and region of a tag; a missing one is ``Subtag/none``.
    struct Tag: Hashable, Sendable, CustomStringConvertible {
        var language: Subtag
        var script: Subtag = .none
        var region: Subtag = .none

        /// A tag of language, script and region only (`en`, `sr-Latn`, `zh-Hant-TW`, `es-419`), for
        /// the tables below and tests; `nil` for anything else. ``LocaleMatcher`` parses full tags.
        init?(_ text: some StringProtocol) {
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard (1...3).contains(parts.count), let language = Subtag(parts[0]), (2...3).contains(language.count) else { return nil }
            self.language = language
            for part in parts.dropFirst() {
                guard let subtag = Subtag(part) else { return nil }
                if subtag.count == 4, script.isNone, region.isNone, part.allSatisfy(\.isLetter) {
                    script = subtag
                } else if region.isNone, (subtag.count == 2 && part.allSatisfy(\.isLetter)) || (subtag.count == 3 && part.allSatisfy(\.isNumber)) {
                    region = subtag
                } else {
                    return nil
                }
            }
        }

        init(language: Subtag, script: Subtag = .none, region: Subtag = .none) {
            self.language = language
            self.script = script
            self.region = region
        }

        var description: String {
            [language, script, region].filter { !$0.isNone }.map(\.description).joined(separator: "-")
        }
    }

    /// Two subtags as one dictionary key.
    private struct Pair: Hashable {
        var first: UInt64
        var second: UInt64
        init(_ first: Subtag, _ second: Subtag) {
            self.first = first.raw
            self.second = second.raw
        }
    }

    /// `tag` with its language alias replaced and its script and region filled in as most likely. A
    /// language not in the table keeps an unknown (``Subtag/none``) script and region unless given.
    static func maximize(_ tag: Tag) -> Tag {
        var tag = replacingAlias(tag)
        guard let likely = byLanguage[tag.language] else { return tag }
        if tag.script.isNone {
            tag.script = tag.region.isNone ? likely.script : byLanguageRegion[Pair(tag.language, tag.region)] ?? likely.script
        }
        if tag.region.isNone {
            tag.region = byLanguageScript[Pair(tag.language, tag.script)] ?? likely.region
        }
        return tag
    }

    /// The current code for a deprecated language code (`iw` → `he`), else `language`.
    static func replacingAlias(of language: Subtag) -> Subtag {
        aliases[language]?.language ?? language
    }

    /// `tag` with a deprecated language code replaced; the alias's script and region (`sh` →
    /// `sr-Latn`) fill in only those the tag does not give.
    static func replacingAlias(_ tag: Tag) -> Tag {
        guard let alias = aliases[tag.language] else { return tag }
        var tag = tag
        tag.language = alias.language
        if tag.script.isNone { tag.script = alias.script }
        if tag.region.isNone { tag.region = alias.region }
        return tag
    }

    /// Whether `language` (after aliases) is in the table, so that its maximised script is known.
    static func isKnown(_ language: Subtag) -> Bool {
        byLanguage[replacingAlias(of: language)] != nil
    }

    /// The deprecated codes that ``replacingAlias(of:)`` turns into `language` (`iw` for `he`).
    static func deprecatedCodes(of language: Subtag) -> [Subtag] {
        deprecatedCodes[language] ?? []
    }

    // MARK: - Tables

    /// Deprecated or legacy language codes (ISO 639 changes, macrolanguages) and what replaces them.
    private static let aliases: [Subtag: Tag] = table("""
        iw:he in:id ji:yi jw:jv mo:ro no:nb tl:fil sh:sr-Latn cnr:sr-ME cmn:zh
        """) { entry in
            let sides = entry.split(separator: ":")
            return (Subtag(sides[0])!, Tag(sides[1])!)
        }

    private static let deprecatedCodes: [Subtag: [Subtag]] = Dictionary(grouping: aliases.keys) { aliases[$0]!.language }

    /// Per language: its most likely script and region.
    private static let byLanguage: [Subtag: Tag] = table("""
        af-Latn-ZA am-Ethi-ET ar-Arab-EG as-Beng-IN ast-Latn-ES az-Latn-AZ be-Cyrl-BY bg-Cyrl-BG
        bn-Beng-BD bo-Tibt-CN br-Latn-FR bs-Latn-BA ca-Latn-ES ceb-Latn-PH chr-Cher-US ckb-Arab-IQ
        cs-Latn-CZ cy-Latn-GB da-Latn-DK de-Latn-DE dv-Thaa-MV dz-Tibt-BT el-Grek-GR en-Latn-US
        eo-Latn-001 es-Latn-ES et-Latn-EE eu-Latn-ES fa-Arab-IR ff-Latn-SN fi-Latn-FI fil-Latn-PH
        fo-Latn-FO fr-Latn-FR fy-Latn-NL ga-Latn-IE gd-Latn-GB gl-Latn-ES gsw-Latn-CH gu-Gujr-IN
        ha-Latn-NG haw-Latn-US he-Hebr-IL hi-Deva-IN hr-Latn-HR ht-Latn-HT hu-Latn-HU hy-Armn-AM
        id-Latn-ID ig-Latn-NG is-Latn-IS it-Latn-IT iu-Cans-CA ja-Jpan-JP jv-Latn-ID ka-Geor-GE
        kk-Cyrl-KZ kl-Latn-GL km-Khmr-KH kn-Knda-IN ko-Kore-KR ks-Arab-IN ku-Latn-TR ky-Cyrl-KG
        la-Latn-VA lb-Latn-LU lo-Laoo-LA lt-Latn-LT lv-Latn-LV mg-Latn-MG mi-Latn-NZ mk-Cyrl-MK
        ml-Mlym-IN mn-Cyrl-MN mr-Deva-IN ms-Latn-MY mt-Latn-MT my-Mymr-MM nb-Latn-NO ne-Deva-NP
        nl-Latn-NL nn-Latn-NO oc-Latn-FR or-Orya-IN pa-Guru-IN pl-Latn-PL ps-Arab-AF pt-Latn-BR
        qu-Latn-PE rm-Latn-CH ro-Latn-RO ru-Cyrl-RU rw-Latn-RW sa-Deva-IN sd-Arab-PK si-Sinh-LK
        sk-Latn-SK sl-Latn-SI so-Latn-SO sq-Latn-AL sr-Cyrl-RS su-Latn-ID sv-Latn-SE sw-Latn-TZ
        ta-Taml-IN te-Telu-IN tg-Cyrl-TJ th-Thai-TH ti-Ethi-ET tk-Latn-TM to-Latn-TO tr-Latn-TR
        tt-Cyrl-RU ug-Arab-CN uk-Cyrl-UA ur-Arab-PK uz-Latn-UZ vi-Latn-VN wo-Latn-SN xh-Latn-ZA
        yi-Hebr-UA yo-Latn-NG yue-Hant-HK zh-Hans-CN zu-Latn-ZA
        """) { entry in
            let tag = Tag(entry)!
            return (tag.language, tag)
        }

    /// Where a language's script depends on the region: keyed by language and region.
    private static let byLanguageRegion: [Pair: Subtag] = table("""
        zh-Hant-TW zh-Hant-HK zh-Hant-MO yue-Hans-CN sr-Latn-ME uz-Arab-AF az-Arab-IR az-Arab-IQ
        pa-Arab-PK mn-Mong-CN sd-Deva-IN kk-Arab-CN ky-Arab-CN tg-Arab-PK ug-Cyrl-KZ
        """) { entry in
            let tag = Tag(entry)!
            return (Pair(tag.language, tag.region), tag.script)
        }

    /// A language in a script other than its most likely one: keyed by language and script.
    private static let byLanguageScript: [Pair: Subtag] = table("""
        zh-Hant-TW yue-Hans-CN sr-Latn-RS bs-Cyrl-BA uz-Arab-AF uz-Cyrl-UZ az-Arab-IR az-Cyrl-AZ
        pa-Arab-PK mn-Mong-CN ms-Arab-MY ku-Arab-IQ sd-Deva-IN kk-Arab-CN ky-Arab-CN tg-Arab-PK
        ug-Cyrl-KZ ha-Arab-NG
        """) { entry in
            let tag = Tag(entry)!
            return (Pair(tag.language, tag.script), tag.region)
        }

    /// A dictionary from the whitespace-separated entries of `text`; built once, on first use.
    private static func table<Key: Hashable, Value>(_ text: String, _ entry: (String) -> (Key, Value)) -> [Key: Value] {
        Dictionary(text.split(whereSeparator: \.isWhitespace).map { entry(String($0)) }, uniquingKeysWith: { first, _ in first })
    }
}
