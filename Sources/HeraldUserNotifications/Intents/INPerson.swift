import Foundation

/// How a person is reached (Apple's `INPersonHandleType`).
public enum INPersonHandleType: Int, Sendable {
    case unknown = 0
    case emailAddress = 1
    case phoneNumber = 2
}

/// A person's address in the app's own terms (Apple's `INPersonHandle`).
public class INPersonHandle: NSObject, @unchecked Sendable {
    public let value: String?
    public let type: INPersonHandleType

    public init(value: String?, type: INPersonHandleType) {
        self.value = value
        self.type = type
        super.init()
    }
}

/// The sender or a recipient of a message (Apple's `INPerson`).
public class INPerson: NSObject, @unchecked Sendable {
    public let personHandle: INPersonHandle?
    public let nameComponents: PersonNameComponents?
    public let displayName: String
    public let image: INImage?
    public let contactIdentifier: String?
    public let customIdentifier: String?
    public let isMe: Bool

    public convenience init(
        personHandle: INPersonHandle, nameComponents: PersonNameComponents?, displayName: String?, image: INImage?,
        contactIdentifier: String?, customIdentifier: String?
    ) {
        self.init(personHandle: personHandle, nameComponents: nameComponents, displayName: displayName, image: image,
                  contactIdentifier: contactIdentifier, customIdentifier: customIdentifier, isMe: false)
    }

    public init(
        personHandle: INPersonHandle, nameComponents: PersonNameComponents?, displayName: String?, image: INImage?,
        contactIdentifier: String?, customIdentifier: String?, isMe: Bool
    ) {
        self.personHandle = personHandle
        self.nameComponents = nameComponents
        self.displayName = displayName ?? nameComponents.map { [$0.givenName, $0.familyName].compactMap { $0 }.joined(separator: " ") } ?? personHandle.value ?? ""
        self.image = image
        self.contactIdentifier = contactIdentifier
        self.customIdentifier = customIdentifier
        self.isMe = isMe
        super.init()
    }

    public convenience init(
        personHandle: INPersonHandle, nameComponents: PersonNameComponents?, displayName: String?, image: INImage?,
        contactIdentifier: String?, customIdentifier: String?, isMe: Bool, suggestionType: INPersonSuggestionType
    ) {
        self.init(personHandle: personHandle, nameComponents: nameComponents, displayName: displayName, image: image,
                  contactIdentifier: contactIdentifier, customIdentifier: customIdentifier, isMe: isMe)
    }
}

/// How the system may suggest a person (Apple's `INPersonSuggestionType`).
public enum INPersonSuggestionType: Int, Sendable {
    case none = 0
    case socialProfile = 1
    case instantMessageAddress = 2
}

/// A name as Siri says it (Apple's `INSpeakableString`).
public class INSpeakableString: NSObject, @unchecked Sendable {
    public let spokenPhrase: String

    public init(spokenPhrase: String) {
        self.spokenPhrase = spokenPhrase
        super.init()
    }
}
