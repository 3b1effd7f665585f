/// Why the simulated device refused a command, in words a developer can act on.
public enum DeviceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The command names an app that is not installed.
    case noSuchApp(String)
    /// The command names a notification that is not shown.
    case noSuchNotification(String)
    /// The command or its arguments are wrong.
    case invalid(String)

    public var description: String {
        switch self {
        case .noSuchApp(let bundleID): "no app \(bundleID) is installed on the device"
        case .noSuchNotification(let id): "no notification \"\(id)\" is shown on the device"
        case .invalid(let why): why
        }
    }
}
