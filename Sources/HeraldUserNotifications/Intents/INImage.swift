import Foundation

/// An image for Intents (Apple's `INImage`): for a communication notification, the sender's
/// avatar made from downloaded bytes.
public class INImage: NSObject, @unchecked Sendable {
    /// The bytes, when made from data or a file.
    let data: Data?
    let url: URL?
    let name: String?

    public convenience init(imageData: Data) {
        self.init(data: imageData, url: nil, name: nil)
    }

    /// An image at a URL. iOS does not download remote URLs for a notification's avatar: make
    /// the image from the downloaded bytes (`INImage(imageData:)`) instead.
    public convenience init?(url URL: URL) {
        self.init(data: URL.isFileURL ? try? Data(contentsOf: URL) : nil, url: URL, name: nil)
    }

    /// An image from the app's asset catalog.
    public convenience init(named name: String) {
        self.init(data: nil, url: nil, name: name)
    }

    private init(data: Data?, url: URL?, name: String?) {
        self.data = data
        self.url = url
        self.name = name
        super.init()
    }
}
