import Testing

@testable import HeraldServer

@Suite struct LocaleMatcherTests {
    /// `LocaleMatcher.match` with variants given as written in a send request.
    private func match(_ locale: String?, _ variants: [String]) -> String? {
        LocaleMatcher.match(locale, in: Set(variants.map(LocaleMatcher.canonical)))
    }

    private func maximized(_ tag: String) -> String {
        LikelySubtags.maximize(LikelySubtags.Tag(tag)!).description
    }

    @Test("tags are maximised with their likely script and region, after replacing deprecated codes")
    func likelySubtags() {
        let cases: [String: String] = [
            "zh": "zh-hans-cn", "zh-CN": "zh-hans-cn", "zh-SG": "zh-hans-sg", "zh-TW": "zh-hant-tw",
            "zh-HK": "zh-hant-hk", "zh-MO": "zh-hant-mo", "zh-Hant": "zh-hant-tw", "zh-Hans": "zh-hans-cn",
            "zh-Hant-HK": "zh-hant-hk", "zh-Hans-HK": "zh-hans-hk", "yue": "yue-hant-hk", "yue-CN": "yue-hans-cn",
            "sr": "sr-cyrl-rs", "sr-RS": "sr-cyrl-rs", "sr-Latn": "sr-latn-rs", "sr-ME": "sr-latn-me",
            "en": "en-latn-us", "en-GB": "en-latn-gb", "pt": "pt-latn-br", "pt-PT": "pt-latn-pt", "es-419": "es-latn-419",
            "uz": "uz-latn-uz", "uz-AF": "uz-arab-af", "uz-Cyrl": "uz-cyrl-uz", "az-IR": "az-arab-ir", "pa": "pa-guru-in",
            "pa-PK": "pa-arab-pk", "pa-Arab": "pa-arab-pk", "mn": "mn-cyrl-mn", "mn-CN": "mn-mong-cn", "bs": "bs-latn-ba",
            "bs-Cyrl": "bs-cyrl-ba", "ja": "ja-jpan-jp", "ko": "ko-kore-kr", "ar": "ar-arab-eg", "he": "he-hebr-il",
            "iw": "he-hebr-il", "in": "id-latn-id", "ji": "yi-hebr-ua", "no": "nb-latn-no", "tl": "fil-latn-ph",
            "sh": "sr-latn-rs", "cmn": "zh-hans-cn", "xx": "xx", "xx-YY": "xx-yy", "xx-Latn": "xx-latn",
        ]
        for (tag, expected) in cases {
            #expect(maximized(tag) == expected, "\(tag)")
        }
    }

    @Test("every language iOS offers, and its deprecated codes, has a likely script and region")
    func tableCoversIOSLanguages() {
        let languages = """
            en zh ja ko fr de es it pt ru ar he hi th vi id ms tr pl nl sv da nb no fi cs sk hu ro uk el hr sr
            ca bg sl lt lv et fa ur bn ta te mr gu kn ml pa kk uz az mn yue bs is ga cy eu gl af sw fil ka hy
            km lo my si ne am mk sq be ky tg tk ps sd iw in ji tl
            """.split(whereSeparator: \.isWhitespace)
        for language in languages {
            let tag = LikelySubtags.maximize(LikelySubtags.Tag(language)!)
            #expect(tag.script.count == 4 && (2...3).contains(tag.region.count), "\(language) → \(tag)")
            #expect(LikelySubtags.isKnown(tag.language), "\(language)")
        }
    }

    @Test("Chinese: the script decides, never a different script; the region only ranks")
    func chinese() {
        let both = ["zh-Hans", "zh-Hant", "en"]
        #expect(match("zh_CN", both) == "zh-hans")
        #expect(match("zh-CN", both) == "zh-hans")
        #expect(match("zh-Hans-CN", both) == "zh-hans")
        #expect(match("zh-SG", both) == "zh-hans")
        #expect(match("zh", both) == "zh-hans")
        #expect(match("zh-TW", both) == "zh-hant")
        #expect(match("zh_TW", both) == "zh-hant")
        #expect(match("zh-HK", both) == "zh-hant")
        #expect(match("zh-MO", both) == "zh-hant")
        #expect(match("zh-Hant-HK", both) == "zh-hant")
        #expect(match("zh-Hans-HK", both) == "zh-hans")
        #expect(match("zh-HK", ["zh-Hant-TW", "zh-Hans"]) == "zh-hant-tw")
        #expect(match("zh-MO", ["zh-Hant-TW", "zh-Hant-HK"]) == "zh-hant-hk")
        #expect(match("zh-TW", ["zh-Hant", "zh-Hant-TW"]) == "zh-hant-tw")
        #expect(match("zh-HK", ["zh-Hant", "zh-Hant-TW"]) == "zh-hant")
        // A bare `zh` is Simplified: not for Traditional readers, but for Simplified ones.
        #expect(match("zh-TW", ["zh", "en"]) == nil)
        #expect(match("zh-Hant", ["zh", "en"]) == nil)
        #expect(match("zh-HK", ["zh-Hans", "zh"]) == nil)
        #expect(match("zh-CN", ["zh", "en"]) == "zh")
        #expect(match("zh-CN", ["zh", "zh-Hant"]) == "zh")
        #expect(match("zh-CN", ["zh-Hant", "en"]) == nil)
        #expect(match("zh", ["zh-Hant"]) == nil)
        // Equally good variants: the one naming more subtags, whatever the set's order.
        #expect(match("zh-CN", ["zh", "zh-Hans"]) == "zh-hans")
        // Extended language subtags read as the language.
        #expect(match("zh-cmn-Hant-TW", both) == "zh-hant")
        #expect(match("zh-yue-HK", ["yue", "zh-Hant"]) == "yue")
    }

    @Test("Cantonese gets its own variant, else written Chinese of its script")
    func cantonese() {
        #expect(match("yue-HK", ["yue", "zh-Hant", "en"]) == "yue")
        #expect(match("yue-Hant-HK", ["yue-Hant", "zh-Hant"]) == "yue-hant")
        #expect(match("yue-HK", ["zh-Hant", "zh-Hans"]) == "zh-hant")
        #expect(match("yue-HK", ["zh-Hant-TW", "zh-Hant-HK"]) == "zh-hant-hk")
        #expect(match("yue-HK", ["zh", "en"]) == nil)
        #expect(match("yue-CN", ["zh", "zh-Hant"]) == "zh")
        #expect(match("zh-HK", ["yue", "en"]) == nil)
    }

    @Test("scripts of Serbian, Uzbek, Azerbaijani, Punjabi, Mongolian and Bosnian never cross")
    func scripts() {
        #expect(match("sr-Latn-RS", ["sr", "en"]) == nil)
        #expect(match("sr-Latn-RS", ["sr", "sr-Latn"]) == "sr-latn")
        #expect(match("sr-RS", ["sr", "sr-Latn"]) == "sr")
        #expect(match("sr-RS", ["sr-Latn"]) == nil)
        #expect(match("sr", ["sr-Cyrl"]) == "sr-cyrl")
        #expect(match("sr-ME", ["sr", "sr-Latn"]) == "sr-latn")
        #expect(match("uz-AF", ["uz", "uz-Arab"]) == "uz-arab")
        #expect(match("uz-UZ", ["uz-Cyrl"]) == nil)
        #expect(match("az-IR", ["az"]) == nil)
        #expect(match("pa-PK", ["pa", "pa-Arab"]) == "pa-arab")
        #expect(match("pa-IN", ["pa-Arab"]) == nil)
        #expect(match("mn-CN", ["mn"]) == nil)
        #expect(match("mn-MN", ["mn"]) == "mn")
        #expect(match("bs-Cyrl-BA", ["bs"]) == nil)
        #expect(match("bs-BA", ["bs", "hr", "sr"]) == "bs")
    }

    @Test("deprecated language codes match their replacements, either way round")
    func aliases() {
        #expect(match("iw", ["he", "en"]) == "he")
        #expect(match("iw-IL", ["he"]) == "he")
        #expect(match("he-IL", ["iw"]) == "iw")
        #expect(match("in", ["id"]) == "id")
        #expect(match("id-ID", ["in"]) == "in")
        #expect(match("ji", ["yi"]) == "yi")
        #expect(match("no", ["nb", "nn"]) == "nb")
        #expect(match("no-NO", ["nb"]) == "nb")
        #expect(match("nb-NO", ["no"]) == "no")
        #expect(match("nn-NO", ["nb"]) == nil)
        #expect(match("tl", ["fil"]) == "fil")
        #expect(match("fil-PH", ["tl"]) == "tl")
        #expect(match("sh", ["sr", "sr-Latn"]) == "sr-latn")
        #expect(match("sh", ["sr"]) == nil)
    }

    @Test("within a language and script, the region ranks but never excludes")
    func regions() {
        #expect(match("en-AU", ["en-GB", "en"]) == "en")
        #expect(match("en-AU", ["en-GB"]) == "en-gb")
        #expect(match("en-AU", ["en-US", "en-GB"]) == "en-gb")
        #expect(match("en-AU", ["en-001", "en"]) == "en-001")
        #expect(match("en-GB", ["en", "en-US"]) == "en")
        #expect(match("en-GB", ["zh-Hans", "en"]) == "en")
        #expect(match("en-US", ["en-GB", "en"]) == "en")
        #expect(match("en", ["en-GB", "en-US"]) == "en-us")
        #expect(match("en-US-u-ca-gregory", ["en", "fr"]) == "en")
        #expect(match("en-PR", ["en-GB", "en-US"]) == "en-us")
        // Portuguese: Brazilian for a Portuguese reader rather than the fallback (same script).
        #expect(match("pt-PT", ["pt-BR"]) == "pt-br")
        #expect(match("pt_PT", ["pt-BR", "pt"]) == "pt")
        #expect(match("pt-PT", ["pt-BR", "pt-PT"]) == "pt-pt")
        #expect(match("pt-AO", ["pt-BR", "pt-PT"]) == "pt-pt")
        #expect(match("pt-BR", ["pt", "pt-PT"]) == "pt")
        #expect(match("es-MX", ["es", "es-419"]) == "es-419")
        #expect(match("es-MX", ["es-ES"]) == "es-es")
        #expect(match("es-AR", ["es-MX", "es-ES"]) == "es-mx")
        #expect(match("es-ES", ["es", "es-419"]) == "es")
        #expect(match("fr-CA", ["fr", "en"]) == "fr")
        #expect(match("de-AT", ["de-DE", "en"]) == "de-de")
        #expect(match("fr-FR", ["zh-Hans", "en"]) == nil)
        // Ties go to the smaller key.
        #expect(match("en-AU", ["en-NZ", "en-CA"]) == "en-ca")
    }

    @Test("the device's own tag comes first, compared in canonical form")
    func exact() {
        #expect(match("zh_CN", ["zh-CN", "zh-Hans"]) == "zh-cn")
        #expect(match("EN-gb", ["en-GB", "en"]) == "en-gb")
        #expect(match("zh-TW", ["zh-TW", "zh-Hant"]) == "zh-tw")
        #expect(match("ja", ["ja", "ja-JP"]) == "ja")
        #expect(match("ja", ["ja-JP"]) == "ja-jp")
    }

    @Test("variant subtags must agree; extensions are ignored")
    func variantSubtags() {
        #expect(match("ca-ES-valencia", ["ca", "ca-valencia"]) == "ca-valencia")
        #expect(match("ca-ES", ["ca-valencia"]) == nil)
        #expect(match("ca-ES", ["ca-valencia", "ca"]) == "ca")
        #expect(match("de-DE-u-co-phonebk", ["de"]) == "de")
        #expect(match("en-US-x-twain", ["en-GB"]) == "en-gb")
    }

    @Test("languages outside the table compare language and region; their script is unknown")
    func unknownLanguages() {
        #expect(match("xx-YY", ["xx", "en"]) == "xx")
        #expect(match("xx", ["xx-YY"]) == "xx-yy")
        #expect(match("xx-YY", ["xx-ZZ", "xx-YY-foobar", "xx-Latn-YY"]) == "xx-latn-yy")
        #expect(match("xx-Latn", ["xx-Cyrl"]) == nil)
        #expect(match("xx", ["xy", "en"]) == nil)
    }

    @Test("hostile or malformed locales and keys never match and never crash")
    func hostile() {
        let variants = ["en", "zh-Hans", "zh-Hant"]
        let locales: [String] = [
            "", "x-", "--", "-", "-en", "en-", "en--us", "en_", "x-private", "i-klingon", "e", "english", "abcd",
            "en-abcdefghi", "zh-Hans-Hant-CN", "en-US-GB", "中文", "zh-ČN", "en\u{0}", "en US", "en-\u{301}",
            String(repeating: "a", count: 200), "en-" + String(repeating: "a", count: 200),
            String(repeating: "en-", count: 70) + "en", String(repeating: "-", count: 200),
        ]
        for locale in locales {
            #expect(match(locale, variants) == nil, "\(locale)")
        }
        #expect(LocaleMatcher.match(nil, in: ["en"]) == nil)
        #expect(LocaleMatcher.match("en", in: []) == nil)
        // Malformed keys are skipped, well-formed ones still match.
        #expect(LocaleMatcher.match("en-GB", in: ["--", "x-", "", "中文", "en-", String(repeating: "e", count: 100), "en"]) == "en")
        #expect(LocaleMatcher.match("en-GB", in: ["--", "x-", ""]) == nil)
    }

    @Test("every locale a device may register is a language tag, and so is every variant key")
    func languageTags() {
        for tag in ["zh_CN", "zh-CN", "zh-TW", "zh-HK", "zh-Hant-HK", "en-GB", "pt_PT", "sr-RS", "sr-Latn-RS", "iw", "in", "no", "zh-SG", "zh-MO", "yue-HK", "es-419"] {
            #expect(LocaleMatcher.isLanguageTag(tag), "\(tag)")
        }
        for tag in ["", "x-", "--", "中文", String(repeating: "a", count: 200)] {
            #expect(!LocaleMatcher.isLanguageTag(tag), "\(tag)")
        }
    }
}
