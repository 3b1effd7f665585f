import Foundation

/// App Transport Security as iOS applies it to an extension's downloads, read from the
/// `NSAppTransportSecurity` dictionary of its Info.plist.
///
/// Plain `http://` to a public host name is blocked unless the plist allows it:
/// `NSExceptionDomains` → the host (or a parent domain with `NSIncludesSubdomains`) →
/// `NSExceptionAllowsInsecureHTTPLoads`, or `NSAllowsArbitraryLoads` for hosts no exception
/// names (ignored when `NSAllowsArbitraryLoadsInWebContent`, `NSAllowsArbitraryLoadsForMedia` or
/// `NSAllowsLocalNetworking` is present). Since iOS 10 ATS does not
/// cover IP addresses, unqualified host names and `.local` names.
public struct AppTransportSecurity: Sendable, Equatable {
    var allowsArbitraryLoads = false
    /// Lowercased domain → (insecure HTTP allowed, subdomains included).
    var exceptions: [String: (insecure: Bool, subdomains: Bool)] = [:]

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.allowsArbitraryLoads == rhs.allowsArbitraryLoads
            && lhs.exceptions.mapValues { [$0.insecure, $0.subdomains] } == rhs.exceptions.mapValues { [$0.insecure, $0.subdomains] }
    }

    /// The policy of an Info.plist (no dictionary: ATS's defaults).
    public init(infoPlist: [String: PropertyListValue]?) {
        guard let ats = infoPlist?["NSAppTransportSecurity"]?.dictionaryValue else { return }
        // Since iOS 10 the presence of any of the finer keys makes iOS ignore NSAllowsArbitraryLoads.
        let finer = ["NSAllowsArbitraryLoadsInWebContent", "NSAllowsArbitraryLoadsForMedia", "NSAllowsLocalNetworking"]
        allowsArbitraryLoads = ats["NSAllowsArbitraryLoads"]?.boolValue == true && !finer.contains { ats[$0] != nil }
        for (domain, value) in ats["NSExceptionDomains"]?.dictionaryValue ?? [:] {
            exceptions[domain.lowercased()] = (value["NSExceptionAllowsInsecureHTTPLoads"]?.boolValue == true, value["NSIncludesSubdomains"]?.boolValue == true)
        }
    }

    /// Why iOS refuses to load `url`, or `nil` when it loads it.
    public func refusal(of url: URL) -> String? {
        guard url.scheme?.lowercased() == "http", let host = url.host?.lowercased(), !Self.isExempt(host) else { return nil }
        let exception = exceptions[host] ?? exceptions.first { domain, rule in rule.subdomains && Self.isOneLevelBelow(host, domain) }?.value
        if let exception {
            if exception.insecure { return nil }
        } else if allowsArbitraryLoads {
            return nil
        }
        return "App Transport Security blocked \(url.absoluteString) (NSURLErrorAppTransportSecurityRequiresSecureConnection, -1022: "
            + "\"The resource could not be loaded because the App Transport Security policy requires the use of a secure connection.\"); "
            + "use https, or add NSAppTransportSecurity → NSExceptionDomains → \(host) → NSExceptionAllowsInsecureHTTPLoads to the extension's Info.plist"
    }

    /// IP addresses, unqualified names and `.local` names are outside ATS (iOS 10 and later).
    static func isExempt(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if bare.contains(":") { return true }  // IPv6
        if bare.split(separator: ".").count == 4, bare.split(separator: ".").allSatisfy({ UInt8($0) != nil }) { return true }
        return !bare.contains(".") || bare.hasSuffix(".local")
    }

    /// `NSIncludesSubdomains` covers the names one label below the domain (`a.example.com` for
    /// `example.com`, not `b.a.example.com`).
    static func isOneLevelBelow(_ host: String, _ domain: String) -> Bool {
        guard host.hasSuffix("." + domain) else { return false }
        return !host.dropLast(domain.count + 1).contains(".")
    }
}
