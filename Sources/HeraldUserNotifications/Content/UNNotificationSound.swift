import Foundation

/// A sound file name in the app bundle or its `Library/Sounds` (Apple's `UNNotificationSoundName`).
public struct UNNotificationSoundName: RawRepresentable, Hashable, Sendable {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }
}

/// The sound a notification plays (Apple's `UNNotificationSound`).
public class UNNotificationSound: NSObject, NSCopying, @unchecked Sendable {
    /// The file name, or `nil` for the system's default sound.
    let name: UNNotificationSoundName?
    let isCritical: Bool
    let volume: Float?

    init(name: UNNotificationSoundName?, isCritical: Bool = false, volume: Float? = nil) {
        self.name = name
        self.isCritical = isCritical
        self.volume = volume
        super.init()
    }

    /// A sound file from the app's bundle (aiff, wav or caf, at most 30 s; otherwise iOS plays
    /// the default sound).
    public convenience init(named name: UNNotificationSoundName) {
        self.init(name: name)
    }

    convenience init(deviceName: String) {
        self.init(name: deviceName == "default" ? nil : UNNotificationSoundName(deviceName))
    }

    public class var `default`: UNNotificationSound { UNNotificationSound(name: nil) }

    /// The default critical-alert sound (needs the critical-alerts entitlement).
    public class var defaultCritical: UNNotificationSound { UNNotificationSound(name: nil, isCritical: true) }

    public class var defaultRingtone: UNNotificationSound { UNNotificationSound(name: nil) }

    public class func criticalSoundNamed(_ name: UNNotificationSoundName) -> UNNotificationSound {
        UNNotificationSound(name: name, isCritical: true)
    }

    public class func defaultCriticalSound(withAudioVolume volume: Float) -> UNNotificationSound {
        UNNotificationSound(name: nil, isCritical: true, volume: volume)
    }

    public class func criticalSoundNamed(_ name: UNNotificationSoundName, withAudioVolume volume: Float) -> UNNotificationSound {
        UNNotificationSound(name: name, isCritical: true, volume: volume)
    }

    public class func ringtoneSoundNamed(_ name: UNNotificationSoundName) -> UNNotificationSound {
        UNNotificationSound(name: name)
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }

    /// The name the device plays: a file name, or `default`.
    var deviceName: String { name?.rawValue ?? "default" }

    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? UNNotificationSound else { return false }
        return name == other.name && isCritical == other.isCritical && volume == other.volume
    }

    public override var hash: Int { deviceName.hashValue }
}
