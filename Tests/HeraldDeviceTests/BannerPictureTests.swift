import Foundation
import HeraldCore
@testable import HeraldDevice
import Testing

/// The SVG pictures: measured word wrapping, the icon and avatar, the expanded view, and PNG.
@Suite struct BannerPictureTests {
    @Test func wrappingBreaksAtWordsByMeasuredWidthAndEndsCutTextWithAnEllipsis() {
        let measure = TextMeasure(size: 15)
        let text = "Hey! Are we still on for Saturday? I booked the cabin near the crag and we need to decide who brings the ropes."
        let lines = measure.wrap(text, width: 240, lines: 3)
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { measure.width($0) <= 240 })
        #expect(lines.last?.hasSuffix("…") == true)
        // No word is split: every word of each line (bar the ellipsis) is a word of the text.
        let words = Set(text.split(separator: " ").map(String.init))
        for line in lines { for word in line.replacingOccurrences(of: "…", with: "").split(separator: " ") { #expect(words.contains(String(word)), "\(word)") } }
        // Text that fits is left alone; CJK breaks between characters; a too-long word is cut.
        #expect(measure.wrap("Short one", width: 240, lines: 4) == ["Short one"])
        let cjk = measure.wrap(String(repeating: "周末计划", count: 10), width: 150, lines: 2)
        #expect(cjk.count == 2 && cjk.allSatisfy { measure.width($0) <= 150 })
        let long = measure.wrap(String(repeating: "x", count: 80), width: 100, lines: 2)
        #expect(long.count == 2 && long.allSatisfy { measure.width($0) <= 100 })
        #expect(measure.width("MMMM") > measure.width("iiii") * 2)
    }

    static func shown(_ content: NotificationContent, expanded: Bool = false, locked: Bool = false, actions: [NotificationAction] = []) -> ShownNotification {
        let request = NotificationRequest(identifier: "n", content: content, trigger: nil)
        var item = ShownNotification(
            notification: DeliveredNotification(request: request, date: Date(timeIntervalSince1970: 1_767_258_000), source: .local, userInfo: JSONObject()),
            app: "com.example.chat", appName: "Chat", options: .all,
            category: actions.isEmpty ? nil : NotificationCategory(identifier: "c", actions: actions),
            contentExtension: nil, onLockScreen: locked, interruptionLevel: .active)
        item.expanded = expanded
        return item
    }

    /// Every text element's measured width stays inside the card.
    @Test func textStaysInsideTheCard() {
        var content = NotificationContent(title: "A very long title that would overflow the banner if it were not cut at the right place",
                                          body: String(repeating: "Lorem ipsum dolor sit amet, consectetur adipiscing elit. ", count: 20))
        content.subtitle = "Subtitle"
        for item in [Self.shown(content), Self.shown(content, expanded: true), Self.shown(content, locked: true)] {
            let svg = BannerRenderer.svg(item)
            #expect(svg.contains("…"))
            let texts = svg.components(separatedBy: "<text ").dropFirst()
            for element in texts {
                guard let x = Double(element.between("x=\"", "\"") ?? ""), let size = Double(element.between("font-size=\"", "\"") ?? ""),
                      let body = element.between(">", "</text>"), !element.contains("text-anchor=\"middle\""), !element.contains("text-anchor=\"end\"") else { continue }
                let plain = body.replacingOccurrences(of: "<tspan", with: "").components(separatedBy: ">").last ?? body
                let width = TextMeasure(size: size, bold: element.contains("font-weight=\"700\"")).width(plain)
                #expect(x + width <= BannerPicture.cardX + BannerPicture.cardWidth, "\(plain) is \(width) wide at x \(x)")
            }
        }
    }

    /// A communication notification shows the sender's avatar with the app's icon as a badge,
    /// the sender in bold; the expanded view has the image full width and the actions grouped.
    @Test func communicationAndExpandedPicturesLookAsOnIOS() throws {
        var content = NotificationContent(body: "On my way 🚲")
        content.communication = CommunicationContext(intent: "INSendMessageIntent", senderName: "Alice Liddell", senderImage: Data(Self.png(width: 40, height: 40)))
        let communication = BannerRenderer.svg(Self.shown(content))
        #expect(communication.contains("clip-path=\"url(#avatar)\""))
        #expect(communication.contains("id=\"badgeicon\"") || communication.contains(">C</text>"))
        #expect(communication.contains("font-weight=\"700\" fill=\"#000\" text-anchor=\"start\">Alice Liddell</text>"))
        #expect(communication.contains("<tspan font-family=\"\(BannerPicture.emojiFamily)\">🚲</tspan>"))

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("picture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let image = folder.appendingPathComponent("wide.png")
        try Data(Self.png(width: 400, height: 200)).write(to: image)
        var media = NotificationContent(title: "Parcel", body: "At the door")
        media.attachments = [NotificationAttachment(unvalidatedIdentifier: "m", fileURL: image)]
        let expanded = BannerRenderer.svg(Self.shown(media, expanded: true, actions: [
            NotificationAction(identifier: "ok", title: "OK"), NotificationAction(identifier: "no", title: "Delete", options: [.destructive]),
        ]))
        // Full width (359 − 2 × 14 = 331 points) at the image's 2:1 aspect.
        #expect(expanded.contains("width=\"331\" height=\"165.5\""), "\(expanded)")
        #expect(expanded.contains(">Delete</text>") && expanded.contains("fill=\"#ff3b30\""))
    }

    /// The bundle's icon is used when it has one.
    @Test func theAppIconComesFromTheBundle() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("icon-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(Self.png(width: 60, height: 60)).write(to: folder.appendingPathComponent("AppIcon60x60@2x.png"))
        var bundle = AppBundle(bundleIdentifier: "com.example.icon", resources: ["AppIcon60x60@2x.png"], folder: folder)
        bundle.infoPlist["CFBundleIcons"] = .dictionary(["CFBundlePrimaryIcon": .dictionary(["CFBundleIconFiles": .array([.string("AppIcon60x60")])])])
        #expect(AppIcon(bundle, name: "Icon").data == Data(Self.png(width: 60, height: 60)))
        #expect(AppIcon(nil, name: "Icon").data == nil)
        #expect(ImageSize.of(Data(Self.png(width: 60, height: 30))) == ImageSize(width: 60, height: 30))
    }

    /// `--png` through rsvg-convert (`.ci/run` installs librsvg2-bin).
    @Test func pngPicturesAreWrittenWithRsvgConvert() throws {
        guard PNGRasterizer.converter != nil else {
            print("skipped: rsvg-convert is not installed (apt-get install librsvg2-bin)")
            return
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("banner-\(UUID().uuidString).png").path
        try PNGRasterizer.write(svg: BannerRenderer.svg(Self.shown(NotificationContent(title: "Hi", body: "There 👋"))), to: path)
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(ImageSize.of(data)?.width == 750)
    }

    /// A minimal valid PNG of this size (one grey row repeated).
    static func png(width: Int, height: Int) -> [UInt8] {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in body {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            crc ^= 0xFFFF_FFFF
            return be32(UInt32(data.count)) + body + be32(crc)
        }
        func be32(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
        let header = be32(UInt32(width)) + be32(UInt32(height)) + [8, 0, 0, 0, 0]
        // Stored (uncompressed) deflate blocks of the raw rows.
        let raw = [UInt8](repeating: 0, count: 0) + (0..<height).flatMap { _ in [0] + [UInt8](repeating: 128, count: width) }
        var deflate: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let size = min(65535, raw.count - offset)
            let last: UInt8 = offset + size == raw.count ? 1 : 0
            deflate += [last, UInt8(size & 0xFF), UInt8(size >> 8), UInt8(~size & 0xFF), UInt8((~size >> 8) & 0xFF)] + raw[offset..<offset + size]
            offset += size
        } while offset < raw.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in raw { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        deflate += be32(b << 16 | a)
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", deflate) + chunk("IEND", [])
    }
}

private extension String {
    func between(_ start: String, _ end: String) -> String? {
        guard let open = range(of: start), let close = self[open.upperBound...].range(of: end) else { return nil }
        return String(self[open.upperBound..<close.lowerBound])
    }
}
