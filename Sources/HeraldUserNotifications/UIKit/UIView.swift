import Foundation

/// A rectangle of a content extension's interface (UIKit's `UIView`): enough of it for a
/// content extension's code to build its view, and for the simulated device to describe what
/// the view shows.
@MainActor
open class UIView: UIResponder {
    /// How a view resizes with its superview (UIKit's `UIView.AutoresizingMask`).
    public struct AutoresizingMask: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let flexibleLeftMargin = AutoresizingMask(rawValue: 1 << 0)
        public static let flexibleWidth = AutoresizingMask(rawValue: 1 << 1)
        public static let flexibleRightMargin = AutoresizingMask(rawValue: 1 << 2)
        public static let flexibleTopMargin = AutoresizingMask(rawValue: 1 << 3)
        public static let flexibleHeight = AutoresizingMask(rawValue: 1 << 4)
        public static let flexibleBottomMargin = AutoresizingMask(rawValue: 1 << 5)
    }

    public var frame: CGRect
    public var autoresizingMask: AutoresizingMask = []
    public var isHidden = false
    public private(set) var subviews: [UIView] = []
    public private(set) weak var superview: UIView?

    public init(frame: CGRect) {
        self.frame = frame
        super.init()
    }

    /// Interface archives are not read here: a view made from one is refused.
    public required init?(coder: NSCoder) {
        return nil
    }

    public convenience override init() {
        self.init(frame: .zero)
    }

    public var bounds: CGRect { CGRect(origin: .zero, size: frame.size) }

    open func addSubview(_ view: UIView) {
        view.removeFromSuperview()
        subviews.append(view)
        view.superview = self
    }

    open func removeFromSuperview() {
        superview?.subviews.removeAll { $0 === self }
        superview = nil
    }

    /// What the view shows, for the transcript: one line per visible label and image.
    func describeContents() -> [String] {
        guard !isHidden else { return [] }
        return subviews.flatMap { $0.describeSelf() + $0.describeContents() }
    }

    func describeSelf() -> [String] { [] }
}

/// A text label (UIKit's `UILabel`).
@MainActor
open class UILabel: UIView {
    public var text: String?
    public var font: UIFont! = UIFont.systemFont(ofSize: 17)
    public var textAlignment = NSTextAlignment.natural
    public var numberOfLines = 1

    override func describeSelf() -> [String] {
        guard let text, !text.isEmpty else { return [] }
        return ["label: \(text)"]
    }
}

/// An image on screen (UIKit's `UIImageView`).
@MainActor
open class UIImageView: UIView {
    public var image: UIImage?

    public convenience init(image: UIImage?) {
        self.init(frame: .zero)
        self.image = image
    }

    override func describeSelf() -> [String] {
        guard let image else { return [] }
        return ["image: \(image.data.count) bytes"]
    }
}

/// An image's bytes (UIKit's `UIImage`). The simulated device does not decode images: it keeps
/// the bytes and checks only that they are there.
public class UIImage: NSObject, @unchecked Sendable {
    let data: Data

    public init?(data: Data) {
        guard !data.isEmpty else { return nil }
        self.data = data
        super.init()
    }

    public convenience init?(contentsOfFile path: String) {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        self.init(data: data)
    }
}

/// A font (UIKit's `UIFont`): its point size only.
public class UIFont: NSObject, @unchecked Sendable {
    public let pointSize: CGFloat

    init(pointSize: CGFloat) {
        self.pointSize = pointSize
        super.init()
    }

    public class func systemFont(ofSize fontSize: CGFloat) -> UIFont { UIFont(pointSize: fontSize) }
    public class func boldSystemFont(ofSize fontSize: CGFloat) -> UIFont { UIFont(pointSize: fontSize) }
}

/// How text lines up (UIKit's `NSTextAlignment`).
public enum NSTextAlignment: Int, Sendable {
    case left = 0
    case center = 1
    case right = 2
    case justified = 3
    case natural = 4
}
