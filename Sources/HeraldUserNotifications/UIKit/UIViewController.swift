import Foundation

/// A screen of interface (UIKit's `UIViewController`): a content extension's principal class
/// subclasses it. Its view is made on first use, then `viewDidLoad()` runs, as in UIKit.
@MainActor
open class UIViewController: UIResponder {
    private var loadedView: UIView?
    /// The size the extension asks for.
    public var preferredContentSize = CGSize.zero
    /// The controller's title: a content extension's notification title when its plist sets
    /// `UNNotificationExtensionOverridesDefaultTitle`.
    open var title: String?

    /// Interface files are not read here; the view is made by ``loadView()``.
    public init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {
        super.init()
    }

    /// Interface archives are not read here: a controller made from one is refused.
    public required init?(coder: NSCoder) {
        return nil
    }

    public convenience override init() {
        self.init(nibName: nil, bundle: nil)
    }

    public var view: UIView! {
        get {
            if let loadedView { return loadedView }
            loadView()
            viewDidLoad()
            return loadedView
        }
        set { loadedView = newValue }
    }

    public var isViewLoaded: Bool { loadedView != nil }

    /// Makes the view: a 320 × 200 point view unless overridden.
    open func loadView() {
        loadedView = UIView(frame: CGRect(x: 0, y: 0, width: 320, height: 200))
    }

    open func viewDidLoad() {}

    public func loadViewIfNeeded() {
        _ = view
    }
}
