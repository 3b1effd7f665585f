/// Widths of text in the system font, estimated from per-character advance widths (a
/// Helvetica-like table, close to San Francisco's), and word wrapping by those widths: what the
/// SVG pictures use to break lines where iOS would and to end a cut line with "…".
struct TextMeasure {
    /// Point size.
    var size: Double
    var bold = false

    /// Advance widths per 1000 em for printable ASCII, from space (0x20) to tilde (0x7E).
    static let ascii: [Double] = [
        278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,
        556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,
        1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,
        667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
        333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,
        556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
    ]

    /// The width of one character in points.
    func width(_ character: Character) -> Double {
        let scale = size / 1000 * (bold ? 1.06 : 1)
        guard let scalar = character.unicodeScalars.first else { return 0 }
        if scalar.value >= 0x20, scalar.value <= 0x7E { return Self.ascii[Int(scalar.value - 0x20)] * scale }
        if character.unicodeScalars.contains(where: { $0.properties.isEmojiPresentation }) || scalar.value >= 0x1F000 { return 1250 * scale }
        if BannerLayout.displayWidth(character) == 2 { return 1000 * scale }
        if scalar.value == 0x2026 { return 1000 * scale }  // …
        return 600 * scale
    }

    func width(_ text: some StringProtocol) -> Double {
        text.reduce(0) { $0 + width($1) }
    }

    /// Breaks `text` into at most `lines` lines no wider than `maximum` points: at spaces, or
    /// between CJK characters, or inside a word too long for a line. When text is left over, the
    /// last line ends in "…".
    func wrap(_ text: String, width maximum: Double, lines: Int) -> [String] {
        var words = Self.words(text.replacingOccurrences(of: "\n", with: " "))
        var result: [String] = []
        var current = ""
        var index = 0
        while index < words.count {
            let word = words[index]
            let candidate = current.isEmpty ? word.trimmingLeadingSpace : current + word
            if width(candidate) <= maximum {
                current = candidate
                index += 1
                continue
            }
            if current.isEmpty {
                // A word longer than a whole line: break it where it overflows.
                let letters = word.trimmingLeadingSpace
                var piece = ""
                for character in letters {
                    if width(piece + String(character)) > maximum { break }
                    piece.append(character)
                }
                if piece.isEmpty { piece = String(letters.prefix(1)) }
                current = piece
                words[index] = String(letters.dropFirst(piece.count))
                if words[index].isEmpty { index += 1 }
            }
            result.append(current)
            current = ""
            if result.count == lines, index < words.count { return ellipsize(result, maximum: maximum) }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }

    /// Ends the last line in "…", shortened until it fits.
    private func ellipsize(_ lines: [String], maximum: Double) -> [String] {
        var lines = lines
        var last = lines.removeLast()
        while !last.isEmpty, width(last + "…") > maximum { last.removeLast() }
        while last.last == " " { last.removeLast() }
        return lines + [last + "…"]
    }

    /// Words with their leading space kept, and each CJK character a word of its own.
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        for character in text {
            if character == " " {
                if !current.isEmpty { words.append(current) }
                current = " "
            } else if BannerLayout.displayWidth(character) == 2, !character.unicodeScalars.contains(where: { $0.properties.isEmojiPresentation }) {
                if !current.isEmpty, current != " " { words.append(current); current = "" }
                words.append(current + String(character))
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty, current != " " { words.append(current) }
        return words
    }
}

private extension String {
    var trimmingLeadingSpace: String { first == " " ? String(dropFirst()) : self }
}
