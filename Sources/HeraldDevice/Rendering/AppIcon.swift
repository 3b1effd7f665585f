import Foundation

/// The app's icon for pictures: the bundle's own PNG (`CFBundleIcons` → `CFBundlePrimaryIcon`
/// → `CFBundleIconFiles`, `CFBundleIconFile`, or an `AppIcon*.png`), else one made from the
/// app's name: its first letter on a colour taken from the bundle identifier.
struct AppIcon {
    var data: Data?
    var letter: String
    var color: String

    init(_ bundle: AppBundle?, name: String) {
        letter = name.first.map { String($0).uppercased() } ?? "?"
        let seed = (bundle?.bundleIdentifier ?? name).unicodeScalars.reduce(UInt32(5381)) { ($0 &* 33) ^ $1.value }
        let palette = ["#0a84ff", "#30d158", "#ff9f0a", "#ff375f", "#bf5af2", "#5e5ce6", "#64d2ff", "#ff453a"]
        color = palette[Int(seed % UInt32(palette.count))]
        data = bundle.flatMap(Self.iconData)
    }

    static func iconData(_ bundle: AppBundle) -> Data? {
        guard let folder = bundle.folder else { return nil }
        let plist = bundle.infoPlist
        var names = plist["CFBundleIcons"]?["CFBundlePrimaryIcon"]?["CFBundleIconFiles"]?.arrayValue?.compactMap(\.stringValue) ?? []
        if let single = plist["CFBundleIconFile"]?.stringValue { names.append(single) }
        names += bundle.resources.filter { $0.hasPrefix("AppIcon") && $0.hasSuffix(".png") }.sorted()
        for name in names {
            for candidate in [name, name + ".png", name + "@2x.png", name + "@3x.png"] {
                let url = folder.appendingPathComponent(candidate)
                if let data = try? Data(contentsOf: url), ImageSize.mime(data) == "image/png" { return data }
            }
        }
        return nil
    }

    /// The icon as SVG at (`x`, `y`), `size` points square with iOS's rounded corners.
    func svg(x: Double, y: Double, size: Double, id: String) -> String {
        let radius = size * 0.225
        if let data {
            return "<clipPath id=\"\(id)\"><rect x=\"\(x)\" y=\"\(y)\" width=\"\(size)\" height=\"\(size)\" rx=\"\(radius)\"/></clipPath>"
                + "<image x=\"\(x)\" y=\"\(y)\" width=\"\(size)\" height=\"\(size)\" clip-path=\"url(#\(id))\" preserveAspectRatio=\"xMidYMid slice\" href=\"data:image/png;base64,\(data.base64EncodedString())\"/>"
        }
        return "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(size)\" height=\"\(size)\" rx=\"\(radius)\" fill=\"\(color)\"/>"
            + "<text x=\"\(x + size / 2)\" y=\"\(y + size * 0.68)\" font-size=\"\(size * 0.5)\" font-weight=\"600\" text-anchor=\"middle\" fill=\"#fff\">\(BannerRenderer.escape(letter))</text>"
    }
}
