// What a file written for iOS finds after `import UserNotifications`: Foundation (NSObject,
// URL, FileManager, NSTemporaryDirectory) and, on Linux, URLSession from FoundationNetworking.
@_exported import Foundation
#if canImport(FoundationNetworking)
@_exported import FoundationNetworking
#endif
